/**
 * Scenario text from bytes (a file, a request body, a file dropped on the viewer): no Node APIs,
 * so the viewer decodes a dropped file exactly as the CLI and the HTTP endpoint do.
 */

// The UTF-8 BOM stays in the text, as Buffer#toString kept it: the parsers skip it themselves.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Bytes that are not text we take: what they are (to follow "it is" / "the body is"), and where. */
export interface UndecodableText {
  problem: string;
  line: number;
  column: number;
}

const isContinuation = (b: number | undefined) => b !== undefined && (b & 0xc0) === 0x80;

/**
 * Where the first byte that cannot start a UTF-8 character lies. A missing continuation, an
 * overlong form, a surrogate or a code point past U+10FFFF is blamed on its lead byte.
 */
function firstBadUtf8(bytes: Uint8Array): number {
  for (let k = 0; k < bytes.length; ) {
    const b = bytes[k];
    if (b < 0x80) {
      k++;
      continue;
    }
    const extra = b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1;
    if (extra < 0) return k;
    for (let n = 1; n <= extra; n++) if (!isContinuation(bytes[k + n])) return k;
    const second = bytes[k + 1];
    if ((b === 0xe0 && second < 0xa0) || (b === 0xed && second > 0x9f) || (b === 0xf0 && second < 0x90) || (b === 0xf4 && second > 0x8f)) return k;
    k += extra + 1;
  }
  return -1;
}

function lineAndColumn(bytes: Uint8Array, offset: number): { line: number; column: number } {
  const lines = utf8.decode(bytes.subarray(0, offset)).split('\n');
  return { line: lines.length, column: lines[lines.length - 1].length + 1 };
}

/**
 * UTF-8 is the format; UTF-16 is taken too when a byte-order mark or the NULs of ASCII in UTF-16
 * say so (Windows PowerShell 5 writes files that way), so the user gets a verdict on the scenario
 * instead of a syntax error at a '\uFFFD'. Other bytes that are not UTF-8 are refused with the place
 * of the first bad one: decoding would turn them into replacement characters that a run would
 * type into the app.
 */
export function decodeText(bytes: Uint8Array): { text: string } | UndecodableText {
  const [b0, b1] = bytes;
  if (bytes.length >= 4 && b0 === 0xff && b1 === 0xfe && bytes[2] === 0 && bytes[3] === 0) return { problem: 'UTF-32 text', line: 1, column: 1 };
  const le = (b0 === 0xff && b1 === 0xfe) || (bytes.length >= 2 && b0 !== 0 && b1 === 0);
  const be = (b0 === 0xfe && b1 === 0xff) || (bytes.length >= 2 && b0 === 0 && b1 !== 0);
  if (le || be) {
    if (bytes.length % 2 !== 0) return { problem: `UTF-16 text by its first bytes, but with an odd number of bytes (${bytes.length})`, line: 1, column: 1 };
    // The UTF-16 decoders drop a leading byte-order mark.
    return { text: new TextDecoder(le ? 'utf-16le' : 'utf-16be').decode(bytes) };
  }
  const at = firstBadUtf8(bytes);
  if (at < 0) return { text: utf8.decode(bytes) };
  const { line, column } = lineAndColumn(bytes, at);
  const hex = bytes[at].toString(16).toUpperCase().padStart(2, '0');
  return { problem: `not UTF-8 text: the byte 0x${hex} at line ${line}, column ${column} is not part of a UTF-8 character (Latin-1 or Windows-1252 text?)`, line, column };
}
