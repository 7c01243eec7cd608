import type { ByteQueue } from '../byte-queue.js';

/** A control message as scrcpy 3.3.1's ControlMessageReader parses it (control/ControlMessageReader.java). */
export type ControlMessage =
  | { type: 'key'; action: number; keycode: number; repeat: number; metaState: number }
  | { type: 'text'; text: string }
  | { type: 'touch'; action: number; pointerId: bigint; x: number; y: number; videoWidth: number; videoHeight: number; pressure: number; actionButton: number; buttons: number }
  | { type: 'scroll'; x: number; y: number; videoWidth: number; videoHeight: number; hScroll: number; vScroll: number; buttons: number }
  | { type: 'backOrScreenOn'; action: number }
  | { type: 'getClipboard'; copyKey: number }
  | { type: 'setClipboard'; sequence: bigint; paste: boolean; text: string }
  | { type: 'setDisplayPower'; on: boolean }
  | { type: 'uhidCreate' | 'uhidInput'; id: number; data: Buffer }
  | { type: 'uhidDestroy'; id: number }
  | { type: 'startApp'; name: string }
  | { type: 'empty'; code: number };

export class ControlProtocolError extends Error {}

/** A RuntimeException out of ControlMessageReader: Controller.handleEvent catches IOExceptions only, so it ends the thread. */
export class ControlReaderCrash extends Error {}

/** Reads one message; null when the socket ended (the controller then stops, "expected on close"). */
export async function readControlMessage(input: ByteQueue): Promise<ControlMessage | null> {
  const read = async (n: number): Promise<Buffer> => {
    const bytes = await input.read(n);
    if (!bytes) throw new EndOfStream();
    return bytes;
  };
  const u8 = async () => (await read(1))[0];
  const u16 = async () => (await read(2)).readUInt16BE(0);
  const i32 = async () => (await read(4)).readInt32BE(0);
  const i64 = async () => (await read(8)).readBigInt64BE(0);
  const bytesOf = async (lengthBytes: 1 | 2 | 4) => {
    const head = await read(lengthBytes);
    // parseBufferLength builds a Java int: a 4-byte length of 2^31 or more is negative, and `new byte[len]` throws.
    const len = lengthBytes === 1 ? head[0] : lengthBytes === 2 ? head.readUInt16BE(0) : head.readInt32BE(0);
    if (len < 0) throw new ControlReaderCrash(`java.lang.NegativeArraySizeException: ${len}`);
    return Buffer.from(await read(len));
  };
  const position = async () => ({ x: await i32(), y: await i32(), videoWidth: await u16(), videoHeight: await u16() });
  try {
    const type = await u8();
    switch (type) {
      case 0: return { type: 'key', action: await u8(), keycode: await i32(), repeat: await i32(), metaState: await i32() };
      case 1: return { type: 'text', text: (await bytesOf(4)).toString('utf8') };
      case 2: {
        const action = await u8();
        const pointerId = await i64();
        const p = await position();
        // Binary.u16FixedPointToFloat: 0xffff is exactly 1, anything else x / 2^16.
        const raw = await u16();
        const pressure = raw === 0xffff ? 1 : raw / 0x10000;
        return { type: 'touch', action, pointerId, ...p, pressure, actionButton: await i32(), buttons: await i32() };
      }
      case 3: {
        const p = await position();
        // Binary.i16FixedPointToFloat (0x7fff is exactly 1, else x / 2^15), scaled to scrcpy's [-16, 16] range.
        const i16 = async () => {
          const v = (await read(2)).readInt16BE(0);
          return (v === 0x7fff ? 1 : v / 0x8000) * 16;
        };
        const hScroll = await i16();
        const vScroll = await i16();
        return { type: 'scroll', ...p, hScroll, vScroll, buttons: await i32() };
      }
      case 4: return { type: 'backOrScreenOn', action: await u8() };
      case 8: return { type: 'getClipboard', copyKey: await u8() };
      case 9: {
        const sequence = await i64();
        const paste = (await u8()) !== 0;
        return { type: 'setClipboard', sequence, paste, text: (await bytesOf(4)).toString('utf8') };
      }
      case 10: return { type: 'setDisplayPower', on: (await u8()) !== 0 };
      case 5: case 6: case 7: case 11: case 15: case 17:
        return { type: 'empty', code: type };
      case 12: {
        const id = await u16();
        await u16();
        await u16();
        await bytesOf(1);
        return { type: 'uhidCreate', id, data: await bytesOf(2) };
      }
      case 13: return { type: 'uhidInput', id: await u16(), data: await bytesOf(2) };
      case 14: return { type: 'uhidDestroy', id: await u16() };
      case 16: return { type: 'startApp', name: (await bytesOf(1)).toString('utf8') };
      default: throw new ControlProtocolError(`Unknown event type: ${type}`);
    }
  } catch (err) {
    if (err instanceof EndOfStream) return null;
    throw err;
  }
}

class EndOfStream extends Error {}
