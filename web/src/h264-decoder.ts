import type { DecodedFrame, FrameHeader } from '../../src/protocol/frame.js';

/** Pictures queued in the decoder beyond which deltas are dropped until the next key frame. */
const MAX_BACKLOG = 4;

/** Checked once per page: a browser without an H.264 decoder gets JPEG frames instead. */
export async function canDecodeH264(): Promise<boolean> {
  if (typeof VideoDecoder !== 'function') return false;
  try {
    const support = await VideoDecoder.isConfigSupported({ codec: 'avc1.42E01F', optimizeForLatency: true });
    return support.supported === true;
  } catch {
    return false;
  }
}

/** The RFC 6381 codec string (`avc1.PPCCLL`) from the first SPS in Annex-B bytes. */
export function codecFromSps(bytes: Uint8Array): string | undefined {
  for (let i = 0; i + 6 < bytes.length; i++) {
    if (bytes[i] !== 0 || bytes[i + 1] !== 0 || bytes[i + 2] !== 1) continue;
    if ((bytes[i + 3]! & 0x1f) !== 7) continue;
    const hex = (n: number) => n.toString(16).padStart(2, '0').toUpperCase();
    return `avc1.${hex(bytes[i + 4]!)}${hex(bytes[i + 5]!)}${hex(bytes[i + 6]!)}`;
  }
  return undefined;
}

/**
 * Decodes the bridge's `h264` frames with WebCodecs. Frames wait for a key frame after the start,
 * a decoder error or a reconfiguration, so a broken picture is never shown; pictures come out in
 * order and the caller keeps only the newest.
 */
export class H264Decoder {
  private decoder?: VideoDecoder;
  private codec?: string;
  private needsKey = true;
  private readonly headers = new Map<number, FrameHeader>();

  constructor(
    private readonly output: (picture: VideoFrame, header: FrameHeader) => void,
    /** The browser cannot decode this stream (configure failed): the caller switches to JPEG. */
    private readonly unsupported: (reason: string) => void,
    private readonly onError: (message: string) => void,
  ) {}

  push(frame: DecodedFrame): void {
    const { header, image } = frame;
    if (header.config) {
      const codec = codecFromSps(image);
      if (!codec) {
        this.onError(`an h264 frame (seq ${header.seq}) says it carries the configuration but holds no SPS; waiting for the next key frame`);
        this.needsKey = true;
        return;
      }
      if (codec !== this.codec || !this.decoder || this.decoder.state === 'closed') this.configure(codec);
    }
    const decoder = this.decoder;
    if (!decoder || decoder.state !== 'configured') return;
    if (this.needsKey && !header.key) return;
    // A decoder that cannot keep up would show an ever older picture: skip to the next key frame.
    if (!header.key && decoder.decodeQueueSize > MAX_BACKLOG) {
      this.needsKey = true;
      return;
    }
    this.needsKey = false;
    // Timestamps only pair each picture with its header (capture time, size for mapping).
    this.headers.set(header.seq, header);
    try {
      decoder.decode(new EncodedVideoChunk({ type: header.key ? 'key' : 'delta', timestamp: header.seq, data: image }));
    } catch (err) {
      this.headers.delete(header.seq);
      this.needsKey = true;
      this.onError(`h264 frame ${header.seq} could not be decoded: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  /** Pictures waiting in the decoder: the caller may hold back while this grows. */
  get backlog(): number {
    return this.decoder?.decodeQueueSize ?? 0;
  }

  close(): void {
    if (this.decoder && this.decoder.state !== 'closed') this.decoder.close();
    this.decoder = undefined;
    this.codec = undefined;
    this.needsKey = true;
    this.headers.clear();
  }

  private configure(codec: string): void {
    this.close();
    const decoder = new VideoDecoder({
      output: (picture) => {
        const header = this.headers.get(picture.timestamp);
        this.headers.delete(picture.timestamp);
        if (!header || this.decoder !== decoder) {
          picture.close();
          return;
        }
        this.output(picture, header);
      },
      error: (err) => {
        if (this.decoder !== decoder) return;
        this.decoder = undefined;
        this.codec = undefined;
        this.needsKey = true;
        this.onError(`the H.264 decoder failed (${err.message}); waiting for the next key frame`);
      },
    });
    try {
      // Annex-B chunks: no `description`, the SPS/PPS travel in-band before each key frame.
      decoder.configure({ codec, optimizeForLatency: true });
    } catch (err) {
      this.unsupported(`this browser cannot decode ${codec}: ${err instanceof Error ? err.message : String(err)}`);
      return;
    }
    this.decoder = decoder;
    this.codec = codec;
    this.needsKey = true;
    void VideoDecoder.isConfigSupported({ codec, optimizeForLatency: true }).then(
      (s) => {
        if (!s.supported && this.decoder === decoder) this.unsupported(`this browser has no decoder for ${codec}`);
      },
      () => undefined,
    );
  }
}
