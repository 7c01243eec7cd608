import { MIME_TYPES, type DecodedFrame, type FrameHeader } from '../../src/protocol/frame.js';
import { H264Decoder } from './h264-decoder.js';

/** A decoded picture: an image frame's bitmap or a video frame's picture. */
type Picture = ImageBitmap | VideoFrame;

function sizeOf(p: Picture): { width: number; height: number } {
  return 'displayWidth' in p ? { width: p.displayWidth, height: p.displayHeight } : { width: p.width, height: p.height };
}

/**
 * Paints binary screen frames onto a canvas. One latest-frame slot at each stage: a frame
 * that arrives while another is decoding replaces the waiting one, and a decoded bitmap
 * not yet painted is replaced (and closed) by a newer one. So a slow tab drops stale frames
 * instead of queueing them, and memory stays at about two images. `h264` frames go through a
 * WebCodecs decoder (every one must be decoded, in order); only the newest picture is drawn.
 */
export class ScreenPainter {
  private waiting: { header: FrameHeader; blob: Blob } | undefined;
  private decoding = false;
  private ready: { header: FrameHeader; bitmap: Picture } | undefined;
  private video?: H264Decoder;
  private rafId: number | undefined;
  private readonly context: CanvasRenderingContext2D;
  private stopped = false;

  constructor(
    private readonly canvas: HTMLCanvasElement,
    private readonly onPainted: (header: FrameHeader) => void,
    private readonly onError: (message: string) => void,
    /** The browser cannot decode the video it was sent: the viewer asks for JPEG instead. */
    private readonly onVideoUnsupported: (reason: string) => void = onError,
  ) {
    const context = canvas.getContext('2d', { alpha: false });
    if (!context) throw new Error('this browser gives no 2D canvas context; the viewer cannot draw the screen');
    this.context = context;
  }

  push(frame: DecodedFrame): void {
    if (this.stopped) return;
    if (frame.header.format === 'h264') {
      this.video ??= new H264Decoder((picture, header) => this.show(header, picture), this.onVideoUnsupported, this.onError);
      this.video.push(frame);
      return;
    }
    // The Blob copies the bytes, so the message buffer can go right away.
    this.waiting = { header: frame.header, blob: new Blob([frame.image as Uint8Array<ArrayBuffer>], { type: MIME_TYPES[frame.header.format] }) };
    if (!this.decoding) void this.decodeLoop();
  }

  /** Forget pending frames (device switched); the canvas keeps its last picture until the next paint. */
  clear(): void {
    this.video?.close();
    this.video = undefined;
    this.waiting = undefined;
    this.ready?.bitmap.close();
    this.ready = undefined;
  }

  stop(): void {
    this.stopped = true;
    this.clear();
    if (this.rafId !== undefined) cancelAnimationFrame(this.rafId);
  }

  private async decodeLoop(): Promise<void> {
    this.decoding = true;
    try {
      while (this.waiting && !this.stopped) {
        const next = this.waiting;
        this.waiting = undefined;
        let bitmap: ImageBitmap;
        try {
          bitmap = await createImageBitmap(next.blob);
        } catch {
          this.onError(`could not decode a ${next.header.format} frame (seq ${next.header.seq}) from ${next.header.device}; waiting for the next one`);
          continue;
        }
        if (this.stopped) {
          bitmap.close();
          return;
        }
        this.show(next.header, bitmap);
      }
    } finally {
      this.decoding = false;
    }
  }

  /** The newest picture waits for the next animation frame; one it replaces is never drawn. */
  private show(header: FrameHeader, picture: Picture): void {
    if (this.stopped) {
      picture.close();
      return;
    }
    this.ready?.bitmap.close();
    this.ready = { header, bitmap: picture };
    this.rafId ??= requestAnimationFrame(() => this.paint());
  }

  private paint(): void {
    this.rafId = undefined;
    const frame = this.ready;
    this.ready = undefined;
    if (!frame) return;
    const { bitmap, header } = frame;
    const { width, height } = sizeOf(bitmap);
    if (this.canvas.width !== width || this.canvas.height !== height) {
      this.canvas.width = width;
      this.canvas.height = height;
    }
    this.context.drawImage(bitmap, 0, 0);
    bitmap.close();
    this.onPainted(header);
  }
}
