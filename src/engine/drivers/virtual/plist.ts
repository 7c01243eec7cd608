const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decode(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, name: string) => {
    if (name.startsWith('#x') || name.startsWith('#X')) return String.fromCodePoint(parseInt(name.slice(2), 16));
    if (name.startsWith('#')) return String.fromCodePoint(parseInt(name.slice(1), 10));
    return ENTITIES[name] ?? whole;
  });
}

export class BinaryPlistError extends Error {}

/**
 * Reads the string values of the top-level dictionary of an XML property list (Info.plist).
 * Nested dictionaries and arrays are skipped; binary plists are refused.
 */
export function readPlistStrings(content: Buffer): Record<string, string> {
  if (content.subarray(0, 6).toString('latin1') === 'bplist') {
    throw new BinaryPlistError('binary property list');
  }
  const xml = content.toString('utf8');
  const start = xml.indexOf('<dict>');
  if (start < 0) throw new Error('no <dict> in the property list');
  const out: Record<string, string> = {};
  const token = /<(\/?)(dict|array|key|string)\b[^>]*?(\/?)>/g;
  token.lastIndex = start + '<dict>'.length;
  let depth = 0;
  let pendingKey: string | undefined;
  for (let m = token.exec(xml); m; m = token.exec(xml)) {
    const [, closing, tag, selfClosing] = m;
    if (tag === 'dict' || tag === 'array') {
      if (selfClosing) { pendingKey = undefined; continue; }
      if (closing) {
        if (depth === 0) break;
        depth--;
      } else {
        depth++;
        pendingKey = undefined;
      }
      continue;
    }
    if (closing || depth > 0) continue;
    const end = xml.indexOf(`</${tag}>`, token.lastIndex);
    const inner = selfClosing ? '' : xml.slice(token.lastIndex, end);
    if (!selfClosing) token.lastIndex = end + tag.length + 3;
    if (tag === 'key') {
      pendingKey = decode(inner);
    } else if (pendingKey !== undefined) {
      out[pendingKey] = decode(inner);
      pendingKey = undefined;
    }
  }
  return out;
}
