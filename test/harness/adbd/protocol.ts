/**
 * The device side of the ADB transport wire format (AOSP system/core/adb/protocol.txt):
 * a 24-byte header of six little-endian u32 — command, arg0, arg1, data length,
 * data checksum, magic (command ^ 0xffffffff) — followed by the payload.
 */
export const A_CNXN = 0x4e584e43;
export const A_AUTH = 0x48545541;
export const A_OPEN = 0x4e45504f;
export const A_OKAY = 0x59414b4f;
export const A_CLSE = 0x45534c43;
export const A_WRTE = 0x45545257;

/** Version that still carries checksums, and the one that drops them. */
export const VERSION_CHECKSUMMED = 0x01000000;
export const VERSION_NO_CHECKSUM = 0x01000001;
export const MAX_PAYLOAD = 1024 * 1024;
export const AUTH_TOKEN = 1;

const HEADER = 24;

export interface Packet {
  command: number;
  arg0: number;
  arg1: number;
  data: Buffer;
}

function checksum(data: Buffer): number {
  let sum = 0;
  for (const b of data) sum = (sum + b) >>> 0;
  return sum;
}

export function encodePacket(command: number, arg0: number, arg1: number, data: Buffer, withChecksum: boolean): Buffer {
  const header = Buffer.alloc(HEADER);
  header.writeUInt32LE(command, 0);
  header.writeUInt32LE(arg0 >>> 0, 4);
  header.writeUInt32LE(arg1 >>> 0, 8);
  header.writeUInt32LE(data.length, 12);
  header.writeUInt32LE(withChecksum ? checksum(data) : 0, 16);
  header.writeUInt32LE((command ^ 0xffffffff) >>> 0, 20);
  return data.length ? Buffer.concat([header, data]) : header;
}

/** Reassembles packets from TCP chunks, which split and merge headers and payloads freely. */
export class PacketReader {
  private buffer: Buffer = Buffer.alloc(0);

  push(chunk: Buffer): Packet[] {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    const packets: Packet[] = [];
    while (this.buffer.length >= HEADER) {
      const length = this.buffer.readUInt32LE(12);
      if (this.buffer.length < HEADER + length) break;
      const command = this.buffer.readUInt32LE(0);
      if (this.buffer.readUInt32LE(20) !== (command ^ 0xffffffff) >>> 0) throw new Error(`bad adb packet magic for command 0x${command.toString(16)}`);
      packets.push({
        command,
        arg0: this.buffer.readUInt32LE(4),
        arg1: this.buffer.readUInt32LE(8),
        data: this.buffer.subarray(HEADER, HEADER + length),
      });
      this.buffer = this.buffer.subarray(HEADER + length);
    }
    return packets;
  }
}
