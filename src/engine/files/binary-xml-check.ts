/**
 * A structural check of Android binary XML before adbkit-apkreader parses it. That parser runs
 * synchronously and trusts the chunk sizes: a chunk of size 0 sends its cursor back to the same
 * chunk forever (the event loop, deadlines and Ctrl-C with it), and a string pool whose offsets all
 * point at one long string builds that string once per offset. This walks exactly what the parser
 * will walk and throws CorruptBinaryXml naming the offset of the first chunk it would trip on.
 */

export class CorruptBinaryXml extends Error {
  constructor(
    readonly offset: number,
    why: string,
  ) {
    super(`corrupt binary XML at offset ${offset}: ${why}`);
  }
}

const XML_TYPE = 0x0003;
const STRING_POOL_TYPE = 0x0001;
const CHUNK_HEADER = 8;
const STRING_POOL_HEADER = 28;
const UTF8_FLAG = 1 << 8;

export function checkBinaryXml(xml: Buffer): void {
  const outer = chunkAt(xml, 0);
  if (xml.readUInt16LE(0) !== XML_TYPE) throw new CorruptBinaryXml(0, 'it does not start with an XML chunk');
  // The parser reads the 8-byte XML header and then walks chunks up to the end of the buffer
  // (not of the XML chunk), so that is the range checked here.
  if (outer.size > xml.length) throw new CorruptBinaryXml(0, `the XML chunk claims ${outer.size} bytes but only ${xml.length} are there`);
  for (let start = CHUNK_HEADER; start < xml.length; ) {
    const chunk = chunkAt(xml, start);
    if (xml.readUInt16LE(start) === STRING_POOL_TYPE) checkStringPool(xml, start, chunk.headerSize, chunk.size);
    // size >= headerSize >= 8, so the walk strictly advances and ends.
    start += chunk.size;
  }
}

function chunkAt(xml: Buffer, start: number): { headerSize: number; size: number } {
  if (start + CHUNK_HEADER > xml.length) throw new CorruptBinaryXml(start, 'a chunk header runs past the end');
  const headerSize = xml.readUInt16LE(start + 2);
  const size = xml.readUInt32LE(start + 4);
  if (headerSize < CHUNK_HEADER) throw new CorruptBinaryXml(start, `chunk header size ${headerSize} is below ${CHUNK_HEADER}`);
  if (size < headerSize) throw new CorruptBinaryXml(start, `chunk size ${size} is smaller than its header (${headerSize})`);
  if (start > 0 && start + size > xml.length) throw new CorruptBinaryXml(start, `a chunk of ${size} bytes runs past the end`);
  return { headerSize, size };
}

/** Every string offset and length inside the chunk, and no byte of it read twice. */
function checkStringPool(xml: Buffer, start: number, headerSize: number, size: number): void {
  if (headerSize < STRING_POOL_HEADER) throw new CorruptBinaryXml(start, `string pool header size ${headerSize} is below ${STRING_POOL_HEADER}`);
  const count = xml.readUInt32LE(start + 8);
  const utf8 = (xml.readUInt32LE(start + 16) & UTF8_FLAG) !== 0;
  const stringsStart = start + xml.readUInt32LE(start + 20);
  const end = start + size;
  // The parser reads the offsets right after the 28 bytes it knows of the header.
  if (count > (end - start - STRING_POOL_HEADER) / 4) throw new CorruptBinaryXml(start, `the string pool claims ${count} strings, more than fit in it`);
  let total = 0;
  for (let i = 0; i < count; i++) {
    const at = stringsStart + xml.readUInt32LE(start + STRING_POOL_HEADER + 4 * i);
    const bytes = utf8 ? utf8StringBytes(xml, at, end) : utf16StringBytes(xml, at, end);
    if (bytes < 0 || at + bytes > end) throw new CorruptBinaryXml(start, `string ${i} lies outside the string pool`);
    total += bytes;
    if (total > size) throw new CorruptBinaryXml(start, 'the string pool reads more bytes than it holds');
  }
}

/** Bytes a UTF-8 pool string takes (char and byte length prefixes, data, terminator), or -1 past `end`. */
function utf8StringBytes(xml: Buffer, at: number, end: number): number {
  let p = at;
  let length = 0;
  for (let prefix = 0; prefix < 2; prefix++) {
    if (p >= end) return -1;
    length = xml[p++];
    if (length & 0x80) {
      if (p >= end) return -1;
      length = ((length & 0x7f) << 8) + xml[p++];
    }
  }
  return p - at + length + 1;
}

function utf16StringBytes(xml: Buffer, at: number, end: number): number {
  if (at + 2 > end) return -1;
  let length = xml.readUInt16LE(at);
  let prefix = 2;
  if (length & 0x8000) {
    if (at + 4 > end) return -1;
    length = ((length & 0x7fff) << 16) + xml.readUInt16LE(at + 2);
    prefix = 4;
  }
  return prefix + length * 2 + 2;
}
