/**
 * The common path of parsing: the native `JSON.parse`, plus what it does not tell. It silently keeps
 * the last of two equal names in an object, so duplicates are found by comparing the names it
 * kept with the names in the text; and it parses any depth, so too-deep documents are placed here
 * the way the position parser (json.ts) would stop on them.
 */
import { MAX_DEPTH, type ParseOutcome } from './json.js';
import { isEscaped, skipString } from './json-text.js';

/**
 * Counts property names in the text by hopping from string to string: a string followed by ':'
 * is a name. Only called on text the native parser accepted, so every quote found outside a
 * string opens one, and nothing but whitespace, numbers and punctuation lies between strings.
 */
function countNamesInText(text: string): number {
  let names = 0;
  let open = text.indexOf('"');
  while (open !== -1) {
    let k = skipString(text, open);
    let c = text.charCodeAt(k);
    while (c === 32 || c === 10 || c === 13 || c === 9) c = text.charCodeAt(++k);
    if (c === 58) names++;
    open = text.indexOf('"', k);
  }
  return names;
}

/**
 * Property names in the text, judged from its colons alone, or -1 when a colon cannot be judged
 * that way. A name's colon follows its closing quote (and whitespace); a colon after anything else
 * lies in a string. A quote before a colon closes a name unless it is escaped, or it may open a
 * string (a value like ": x"): then the character before it is whitespace or one of `:,[{`, and
 * that case (also a name ending in such a character) is left to `countNamesInText`.
 */
export function namesByColons(text: string): number {
  let names = 0;
  for (let colon = text.indexOf(':'); colon !== -1; colon = text.indexOf(':', colon + 1)) {
    let q = colon - 1;
    let c = text.charCodeAt(q);
    while (c === 32 || c === 10 || c === 13 || c === 9) c = text.charCodeAt(--q);
    if (c !== 34) continue;
    if (isEscaped(text, q)) continue;
    const before = q > 0 ? text.charCodeAt(q - 1) : 32;
    if (before === 32 || before === 10 || before === 13 || before === 9 || before === 58 || before === 44 || before === 91 || before === 123) return -1;
    names++;
  }
  return names;
}

export function countColons(text: string): number {
  let n = 0;
  for (let k = text.indexOf(':'); k !== -1; k = text.indexOf(':', k + 1)) n++;
  return n;
}

/**
 * Property names in a parsed value, or -1 when its containers nest more than `room` levels deep
 * (the value itself is the first level, so a document is counted with room MAX_DEPTH, as the
 * text is). `for...in` walks the parsed objects' own keys without allocating a key array.
 */
export function namesInValue(value: unknown, room: number = MAX_DEPTH): number {
  if (typeof value !== 'object' || value === null) return 0;
  if (room <= 0) return -1;
  let n = 0;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const inner = namesInValue(value[i], room - 1);
      if (inner < 0) return -1;
      n += inner;
    }
    return n;
  }
  const obj = value as Record<string, unknown>;
  for (const key in obj) {
    const inner = namesInValue(obj[key], room - 1);
    if (inner < 0) return -1;
    n += 1 + inner;
  }
  return n;
}

/**
 * Where the position parser stops on text the native parser accepted but that nests deeper than
 * MAX_DEPTH: the first '{' or '[' opened inside MAX_DEPTH containers. The position parser would
 * get there too, but unwinding 500 frames to say so costs ten times the whole parse.
 */
function tooDeepAt(text: string): number {
  let depth = 0;
  for (let k = 0; k < text.length; k++) {
    const c = text.charCodeAt(k);
    if (c === 34) k = skipString(text, k) - 1;
    else if (c === 123 || c === 91) {
      if (++depth > MAX_DEPTH) return k;
    } else if (c === 125 || c === 93) depth--;
  }
  return -1;
}

/** `shape`: what the shape acceptor said of the document, when it was asked. */
export type FastParse = { ok: true; value: unknown; text: string; shape?: 'accepted' | 'rejected' } | Extract<ParseOutcome, { ok: false }>;

/**
 * The native parser when the document is well-formed and free of duplicate keys, or the
 * too-deep outcome `parseJson` would give; undefined otherwise, and then `parseJson` finds and
 * places the problem. `shapeNames`, when given, is the shape acceptor (shape-accept.ts): the
 * names it counted while accepting the document, or -1; it spares a second walk of the value,
 * and `shape` tells the caller whether the shape check is done or known to fail.
 */
export function fastParse(source: string, shapeNames?: (value: unknown) => number): FastParse | undefined {
  const text = source.charCodeAt(0) === 0xfeff ? source.slice(1) : source;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  // An accepted shape nests well inside MAX_DEPTH (shape-accept.ts bounds it).
  const counted = shapeNames ? shapeNames(value) : -1;
  let names = counted >= 0 ? counted : namesInValue(value);
  if (names < 0) {
    const offset = tooDeepAt(text);
    return offset < 0 ? undefined : { ok: false, reason: 'too-deep', message: `nesting deeper than ${MAX_DEPTH} levels`, offset, text };
  }
  // Equal counts mean JSON.parse dropped no duplicate name.
  // Every name is followed by a ':', and strings may hold more, so colons >= names in the text
  // >= names kept; counting colons is a few native searches, hopping over strings costs more.
  if (names !== countColons(text)) {
    // Strings hold colons too: count the names in the text.
    let inText = namesByColons(text);
    if (inText < 0) inText = countNamesInText(text);
    if (names !== inText && counted >= 0) names = namesInValue(value); // the acceptor may skip some names
    if (names !== inText) return undefined;
  }
  return { ok: true, value, text, shape: shapeNames ? (counted >= 0 ? 'accepted' : 'rejected') : undefined };
}
