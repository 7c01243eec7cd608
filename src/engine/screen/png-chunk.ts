/**
 * PNG chunks (length, type, data, CRC-32 over type and data: PNG spec 5.3), for encoders that write
 * PNGs themselves. zlib.crc32 exists only from Node 20.15, and the package runs on any Node 20.
 */

const CRC_TABLE = (() => {
  const table = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c;
  }
  return table;
})();

function crc32(parts: Buffer[]): number {
  let c = -1;
  for (const part of parts) {
    for (let i = 0; i < part.length; i++) c = CRC_TABLE[(c ^ part[i]) & 255] ^ (c >>> 8);
  }
  return (c ^ -1) >>> 0;
}

export function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32([head.subarray(4), data]));
  return Buffer.concat([head, data, crc]);
}
