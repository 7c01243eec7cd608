import * as v from 'valibot';
import { FRAME_FORMATS } from './screen-formats.js';

/**
 * Binary screen-frame messages (SPEC §6):
 *
 *     offset 0   uint32, big-endian: N = byte length of the header
 *     offset 4   N bytes: UTF-8 JSON header (FrameHeader)
 *     offset 4+N the encoded image (JPEG, WebP or PNG bytes, or one H.264 Annex-B access unit), to the end of the message
 *
 * Browser-safe (Uint8Array, TextEncoder, DataView); no Node imports.
 */

export const FrameHeaderSchema = v.object({
  subscription: v.string(),
  device: v.string(),
  /** Per device, +1 for every distinct screen captured; a gap means frames were skipped (slow reader, unchanged screen never skips). */
  seq: v.pipe(v.number(), v.integer(), v.minValue(0)),
  /** Size of the encoded image in pixels (after maxWidth scaling). */
  width: v.pipe(v.number(), v.integer(), v.minValue(1)),
  height: v.pipe(v.number(), v.integer(), v.minValue(1)),
  format: v.picklist(FRAME_FORMATS),
  /** Capture time, milliseconds since the Unix epoch (server clock). */
  captured_at: v.number(),
  /** The device's screen size in device pixels: map a point on the image by device_width / width. */
  device_width: v.pipe(v.number(), v.integer(), v.minValue(1)),
  device_height: v.pipe(v.number(), v.integer(), v.minValue(1)),
  /** h264 only: the message holds a key frame (with the codec configuration before it), decodable on its own. */
  key: v.optional(v.boolean()),
  /** h264 only: the message starts with the codec configuration (SPS/PPS). */
  config: v.optional(v.boolean()),
});
export type FrameHeader = v.InferOutput<typeof FrameHeaderSchema>;

export interface DecodedFrame {
  header: FrameHeader;
  /** A view into the received message; copy it if you keep it beyond the callback. */
  image: Uint8Array;
}

/** Headers are small JSON objects; anything bigger is not a frame. */
export const MAX_FRAME_HEADER_BYTES = 16 * 1024;

export const MIME_TYPES: Record<FrameHeader['format'], string> = { jpeg: 'image/jpeg', webp: 'image/webp', png: 'image/png', h264: 'video/h264' };

export class FrameDecodeError extends Error {
  override name = 'FrameDecodeError';
}

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

/** The length prefix and header; the server sends these followed by shared image bytes. */
export function encodeFramePrefix(header: FrameHeader): Uint8Array {
  const json = encoder.encode(JSON.stringify(header));
  const out = new Uint8Array(4 + json.length);
  new DataView(out.buffer).setUint32(0, json.length, false);
  out.set(json, 4);
  return out;
}

export function encodeFrame(header: FrameHeader, image: Uint8Array): Uint8Array {
  const prefix = encodeFramePrefix(header);
  const out = new Uint8Array(prefix.length + image.length);
  out.set(prefix, 0);
  out.set(image, prefix.length);
  return out;
}

export function decodeFrame(data: ArrayBuffer | ArrayBufferView): DecodedFrame {
  const bytes = data instanceof ArrayBuffer ? new Uint8Array(data) : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  if (bytes.length < 4) throw new FrameDecodeError(`frame of ${bytes.length} bytes is shorter than its 4-byte header length`);
  const headerLength = new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0, false);
  if (headerLength > MAX_FRAME_HEADER_BYTES || 4 + headerLength > bytes.length) {
    throw new FrameDecodeError(`frame header length ${headerLength} does not fit a ${bytes.length}-byte message`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(decoder.decode(bytes.subarray(4, 4 + headerLength)));
  } catch {
    throw new FrameDecodeError('frame header is not UTF-8 JSON');
  }
  const parsed = v.safeParse(FrameHeaderSchema, raw);
  if (!parsed.success) throw new FrameDecodeError(`frame header is invalid: ${parsed.issues.map((i) => i.message).join('; ')}`);
  return { header: parsed.output, image: bytes.subarray(4 + headerLength) };
}
