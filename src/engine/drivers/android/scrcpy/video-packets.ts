import type { Duplex } from 'node:stream';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { h264ParseConfiguration, ScrcpyVideoCodecId, type ScrcpyOptions3_3_1 } from '@yume-chan/scrcpy';
import type { VideoPacket } from '../../../driver.js';

export interface VideoSize {
  width: number;
  height: number;
}

/**
 * Reads the video socket: codec meta through the library (3.3.1: u32 codec, u32 width, u32 height), then
 * 12-byte-framed packets through its media transformer. A CONFIG packet's SPS carries the size, which
 * changes when the phone rotates (the server restarts its encoder: new CONFIG, then a key frame).
 */
export async function readVideoHeader(options: ScrcpyOptions3_3_1<true>, socket: Duplex): Promise<{ size: VideoSize; stream: ReadableStream<Uint8Array> }> {
  const web = Readable.toWeb(socket as Readable) as unknown as ReadableStream<Uint8Array>;
  const { stream, metadata } = await options.parseVideoStreamMetadata(web as never);
  const codec = metadata.codec as number;
  // 3.3.1 writes codec id 0/1 (Streamer.writeDisableStream) on the audio socket only; a video encoder it
  // cannot create makes it log why and close the socket before any header, so the caller reports the log.
  if (codec !== ScrcpyVideoCodecId.H264) throw new Error(`the server sent codec id 0x${codec.toString(16)} instead of h264 (0x68323634)`);
  return { size: { width: metadata.width ?? 0, height: metadata.height ?? 0 }, stream: stream as unknown as ReadableStream<Uint8Array> };
}

/** Yields packets with their flags; `onSize` sees every size a CONFIG packet announces. */
export async function* videoPackets(
  options: ScrcpyOptions3_3_1<true>,
  stream: ReadableStream<Uint8Array>,
  initial: VideoSize,
  onSize: (size: VideoSize) => void,
): AsyncGenerator<VideoPacket> {
  let size = initial;
  const packets = (stream as unknown as WebReadableStream<Uint8Array>).pipeThrough(options.createMediaStreamTransformer() as never) as unknown as AsyncIterable<
    { type: 'configuration'; data: Uint8Array } | { type: 'data'; keyframe?: boolean; data: Uint8Array }
  >;
  for await (const packet of packets) {
    const capturedAt = Date.now();
    if (packet.type === 'configuration') {
      try {
        const config = h264ParseConfiguration(packet.data);
        size = { width: config.croppedWidth, height: config.croppedHeight };
        onSize(size);
      } catch {
        // An SPS we cannot parse keeps the last known size; the decoder reads the SPS itself.
      }
      yield { data: Buffer.from(packet.data), config: true, key: false, capturedAt, ...size };
    } else {
      yield { data: Buffer.from(packet.data), config: false, key: packet.keyframe === true, capturedAt, ...size };
    }
  }
}
