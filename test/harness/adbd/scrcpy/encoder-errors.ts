/** A Java exception as the server prints it: `Capture/encoding error` shows name and message, a stack trace toString(). */
export interface JavaException {
  name: string;
  /** getMessage(); null prints as "null" after the name, and is left out of toString(). */
  message: string | null;
  /** The first frames of its stack. */
  at: string[];
}

/** What MediaCodec.configure throws for a size the device's encoder cannot encode. */
export const CONFIGURE_ERROR: JavaException = {
  name: 'android.media.MediaCodec$CodecException',
  message: 'Error 0xfffffc0e',
  at: ['android.media.MediaCodec.native_configure(Native Method)', 'com.genymobile.scrcpy.video.SurfaceEncoder.streamCapture(SurfaceEncoder.java:92)'],
};

/** What MediaCodec.dequeueOutputBuffer throws when a hardware codec fails mid-stream (as seen in scrcpy issues #3069, #3438). */
export const DEQUEUE_ERROR: JavaException = {
  name: 'java.lang.IllegalStateException',
  message: null,
  at: ['android.media.MediaCodec.native_dequeueOutputBuffer(Native Method)', 'com.genymobile.scrcpy.video.SurfaceEncoder.encode(SurfaceEncoder.java:202)'],
};

/** SurfaceEncoder.streamCapture's log line for an error it may retry: class name and getMessage(). */
export function encodingErrorLine(e: JavaException): string {
  return `Capture/encoding error: ${e.name}: ${e.message}`;
}

/** Ln.e(message, e) with a Throwable: the message, then printStackTrace's toString() and frames. */
export function stackTrace(message: string, e: JavaException): string {
  return [message, e.message === null ? e.name : `${e.name}: ${e.message}`, ...e.at.map((frame) => `\tat ${frame}`)].join('\n');
}

/** SurfaceEncoder.MAX_SIZE_FALLBACK: the sizes tried, in order, when the encoder refuses the first one. */
const MAX_SIZE_FALLBACK = [2560, 1920, 1600, 1280, 1024, 800];
/** SurfaceEncoder.MAX_CONSECUTIVE_ERRORS once a frame was sent. */
const MAX_CONSECUTIVE_ERRORS = 3;

/**
 * SurfaceEncoder 3.3.1's answer to a capture or encoding error (prepareRetry): before the first frame
 * it retries at the next MAX_SIZE_FALLBACK below the failed size (downsize_on_error), after it at the
 * same size, three errors in a row at most; otherwise the error is final.
 */
export class EncoderRetries {
  private firstFrameSent = false;
  private consecutiveErrors = 0;

  constructor(
    private readonly downsizeOnError: boolean,
    /** ScreenCapture.maxSize: kept for every later capture (rotations too) once lowered. */
    public maxSize: number,
  ) {}

  /** SurfaceEncoder.encode wrote a packet that holds a frame (not a configuration). */
  frameSent(): void {
    this.firstFrameSent = true;
    this.consecutiveErrors = 0;
  }

  /** The new max size to retry at, `same` to retry as before, or undefined when the error is final (its 50 ms pause after the first frame is left out). */
  retry(failedSize: number): number | 'same' | undefined {
    if (this.firstFrameSent) return ++this.consecutiveErrors < MAX_CONSECUTIVE_ERRORS ? 'same' : undefined;
    if (!this.downsizeOnError) return undefined;
    const fallback = MAX_SIZE_FALLBACK.find((size) => size < failedSize);
    if (fallback) this.maxSize = fallback;
    return fallback;
  }
}
