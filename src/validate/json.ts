/**
 * A small JSON parser that remembers where every value and key starts, so that validation
 * problems can be reported with a line and column. `JSON.parse` loses positions and silently
 * keeps the last of duplicate keys; this parser reports them instead.
 */

/** Source offsets of one parsed value: `at` = value start, `key` = its property name (in objects). */
export interface PosNode {
  at: number;
  key?: number;
  items?: PosNode[];
  props?: Map<string, PosNode>;
}

export interface DuplicateKey {
  pointer: string;
  offset: number;
  key: string;
}

export type ParseOutcome =
  | { ok: true; value: unknown; pos: PosNode; duplicates: DuplicateKey[]; text: string }
  | { ok: false; reason: 'empty' | 'syntax' | 'too-deep'; message: string; offset: number; text: string };

/** Containers nested deeper than this are refused so that hostile input cannot exhaust the stack. */
export const MAX_DEPTH = 512;

class SyntaxFault {
  constructor(
    readonly message: string,
    readonly offset: number,
    readonly tooDeep = false,
  ) {}
}

export function escapePointer(segment: string): string {
  return segment.includes('~') || segment.includes('/') ? segment.replace(/~/g, '~0').replace(/\//g, '~1') : segment;
}

function describe(text: string, i: number): string {
  if (i >= text.length) return 'end of file';
  const ch = text[i];
  return /\s/.test(ch) ? `whitespace (code ${ch.charCodeAt(0)})` : `'${ch}'`;
}

export function parseJson(source: string): ParseOutcome {
  // A UTF-8 byte order mark is common from Windows editors; it is not content.
  const text = source.charCodeAt(0) === 0xfeff ? source.slice(1) : source;
  let i = 0;
  const duplicates: DuplicateKey[] = [];
  let nextSlash = text.indexOf('\\');

  const ws = (): void => {
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 10 || c === 13 || c === 9) i++;
      else return;
    }
  };

  const fail = (what: string): never => {
    throw new SyntaxFault(`${what}, found ${describe(text, i)}`, i);
  };

  const parseString = (): string => {
    const start = ++i;
    // Fast path: no escapes and no control characters up to the closing quote.
    const close = text.indexOf('"', start);
    // The next backslash is cached: searching afresh for every string is quadratic on big files.
    if (nextSlash !== -1 && nextSlash < start) nextSlash = text.indexOf('\\', start);
    if (close !== -1 && (nextSlash === -1 || nextSlash > close)) {
      const raw = text.slice(start, close);
      for (let k = 0; k < raw.length; k++) {
        if (raw.charCodeAt(k) < 0x20) {
          i = start + k;
          fail('unescaped control character in a string (write it as \\n, \\t, ...)');
        }
      }
      i = close + 1;
      return raw;
    }
    let out = '';
    let chunk = i;
    for (;;) {
      if (i >= text.length) {
        throw new SyntaxFault('unterminated string: add the closing double quote', start - 1);
      }
      const c = text.charCodeAt(i);
      if (c === 34) {
        out += text.slice(chunk, i);
        i++;
        return out;
      }
      if (c < 0x20) fail('unescaped control character in a string (write it as \\n, \\t, ...)');
      if (c !== 92) {
        i++;
        continue;
      }
      out += text.slice(chunk, i);
      const e = text[i + 1];
      const simple: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
      if (e !== undefined && e in simple) {
        out += simple[e];
        i += 2;
      } else if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
        out += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16));
        i += 6;
      } else {
        i++;
        fail('invalid escape sequence in a string');
      }
      chunk = i;
    }
  };

  const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

  // Segments of the current path; joined into a pointer only when a duplicate key is found.
  const path: string[] = [];

  const parseValue = (depth: number): [unknown, PosNode] => {
    ws();
    const at = i;
    const c = text.charCodeAt(i);
    if (c === 123 || c === 91) {
      if (depth >= MAX_DEPTH) throw new SyntaxFault(`nesting deeper than ${MAX_DEPTH} levels`, i, true);
      return c === 123 ? parseObject(depth + 1) : parseArray(depth + 1);
    }
    if (c === 34) return [parseString(), { at }];
    if (text.startsWith('true', i)) return (i += 4), [true, { at }];
    if (text.startsWith('false', i)) return (i += 5), [false, { at }];
    if (text.startsWith('null', i)) return (i += 4), [null, { at }];
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (m) {
      i += m[0].length;
      return [Number(m[0]), { at }];
    }
    if (c === 39) fail('expected a value (strings take double quotes, not single quotes)');
    return fail('expected a value (string, number, object, array, true, false or null)');
  };

  const parseObject = (depth: number): [unknown, PosNode] => {
    const node: PosNode = { at: i, props: new Map() };
    const obj: Record<string, unknown> = {};
    i++;
    ws();
    if (text.charCodeAt(i) === 125) {
      i++;
      return [obj, node];
    }
    for (;;) {
      ws();
      if (text.charCodeAt(i) !== 34) {
        fail(text.charCodeAt(i) === 125 ? 'trailing comma before }: remove the last comma' : 'expected a property name in double quotes');
      }
      const keyAt = i;
      const key = parseString();
      ws();
      if (text.charCodeAt(i) !== 58) fail(`expected ':' after property name "${key}"`);
      i++;
      path.push(key);
      const [value, child] = parseValue(depth);
      child.key = keyAt;
      if (node.props!.has(key)) duplicates.push({ pointer: path.map((seg) => `/${escapePointer(seg)}`).join(''), offset: keyAt, key });
      path.pop();
      node.props!.set(key, child);
      // Assignment would run the __proto__ setter instead of creating a property.
      if (key === '__proto__') Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
      else obj[key] = value;
      ws();
      const c = text.charCodeAt(i);
      if (c === 44) {
        i++;
        continue;
      }
      if (c === 125) {
        i++;
        return [obj, node];
      }
      fail("expected ',' or '}' after a property value");
    }
  };

  const parseArray = (depth: number): [unknown, PosNode] => {
    const node: PosNode = { at: i, items: [] };
    const arr: unknown[] = [];
    i++;
    ws();
    if (text.charCodeAt(i) === 93) {
      i++;
      return [arr, node];
    }
    for (;;) {
      ws();
      if (text.charCodeAt(i) === 93) fail('trailing comma before ]: remove the last comma');
      path.push(String(arr.length));
      const [value, child] = parseValue(depth);
      path.pop();
      arr.push(value);
      node.items!.push(child);
      ws();
      const c = text.charCodeAt(i);
      if (c === 44) {
        i++;
        continue;
      }
      if (c === 93) {
        i++;
        return [arr, node];
      }
      fail("expected ',' or ']' after an array element");
    }
  };

  ws();
  if (i >= text.length) return { ok: false, reason: 'empty', message: 'the file is empty', offset: 0, text };
  try {
    const [value, pos] = parseValue(0);
    ws();
    if (i < text.length) fail('unexpected content after the end of the JSON document');
    return { ok: true, value, pos, duplicates, text };
  } catch (err) {
    if (err instanceof SyntaxFault) {
      return { ok: false, reason: err.tooDeep ? 'too-deep' : 'syntax', message: err.message, offset: err.offset, text };
    }
    throw err;
  }
}

/**
 * 1-based line/column of each offset, counting newlines only up to the last offset: a report
 * names a few places, so indexing every line of the file is wasted work.
 */
export function positionsOf(text: string, offsets: readonly number[]): { line: number; column: number }[] {
  const order = offsets.map((_, n) => n).sort((a, b) => offsets[a] - offsets[b]);
  const out: { line: number; column: number }[] = new Array(offsets.length);
  let line = 1;
  let lineStart = 0;
  let next = text.indexOf('\n');
  for (const n of order) {
    const offset = offsets[n];
    while (next !== -1 && next < offset) {
      line++;
      lineStart = next + 1;
      next = text.indexOf('\n', lineStart);
    }
    out[n] = { line, column: offset - lineStart + 1 };
  }
  return out;
}

/** Converts offsets to 1-based line/column and gives line texts, for readers that need many. */
export class LineIndex {
  private readonly starts: number[] = [0];
  constructor(private readonly text: string) {
    for (let k = text.indexOf('\n'); k !== -1; k = text.indexOf('\n', k + 1)) this.starts.push(k + 1);
  }
  position(offset: number): { line: number; column: number } {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - this.starts[lo] + 1 };
  }
  lineText(line: number): string {
    const start = this.starts[line - 1] ?? 0;
    const end = this.starts[line] ?? this.text.length + 1;
    return this.text.slice(start, end - 1).replace(/\r$/, '');
  }
}

/**
 * Offset of the node a JSON Pointer names. When the pointer goes past what exists (a missing
 * property), the deepest existing ancestor is used, which is where the fix belongs.
 */
export function locate(root: PosNode, pointer: string, atKey = false): number {
  let node = root;
  if (pointer === '') return node.at;
  for (const raw of pointer.slice(1).split('/')) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    const next = node.props ? node.props.get(seg) : node.items ? node.items[Number(seg)] : undefined;
    if (!next) return node.at;
    node = next;
  }
  return atKey && node.key !== undefined ? node.key : node.at;
}

/**
 * Counts property names in the text by hopping from string to string: a string followed by ':'
 * is a name. Only called on text the native parser accepted, so every quote found outside a
 * string opens one, and nothing but whitespace, numbers and punctuation lies between strings.
 */
function countNamesInText(text: string): number {
  let names = 0;
  let open = text.indexOf('"');
  while (open !== -1) {
    let close = text.indexOf('"', open + 1);
    // A quote preceded by an odd number of backslashes is escaped, not the end of the string.
    for (;;) {
      let slashes = 0;
      while (text.charCodeAt(close - 1 - slashes) === 92) slashes++;
      if (slashes % 2 === 0) break;
      close = text.indexOf('"', close + 1);
    }
    let k = close + 1;
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
    let slashes = 0;
    while (text.charCodeAt(q - 1 - slashes) === 92) slashes++;
    if (slashes % 2 === 1) continue;
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
 * Property names in the parsed value, or -1 when containers nest deeper than MAX_DEPTH (counted
 * like the text: the document itself is level 1). `for...in` walks the parsed objects' own keys
 * without allocating a key array.
 */
function countNamesInValue(value: unknown, depth: number): number {
  if (typeof value !== 'object' || value === null) return 0;
  if (depth > MAX_DEPTH) return -1;
  let n = 0;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const inner = countNamesInValue(value[i], depth + 1);
      if (inner < 0) return -1;
      n += inner;
    }
    return n;
  }
  const obj = value as Record<string, unknown>;
  for (const key in obj) {
    const inner = countNamesInValue(obj[key], depth + 1);
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
    if (c === 34) {
      // Skip the string: a quote preceded by an odd number of backslashes does not close it.
      for (k = text.indexOf('"', k + 1); ; k = text.indexOf('"', k + 1)) {
        let slashes = 0;
        while (text.charCodeAt(k - 1 - slashes) === 92) slashes++;
        if (slashes % 2 === 0) break;
      }
    } else if (c === 123 || c === 91) {
      if (++depth > MAX_DEPTH) return k;
    } else if (c === 125 || c === 93) depth--;
  }
  return -1;
}

export type FastParse = { ok: true; value: unknown; text: string; shapeAccepted: boolean } | Extract<ParseOutcome, { ok: false }>;

/**
 * The native parser when the document is well-formed and free of duplicate keys, or the
 * too-deep outcome `parseJson` would give; undefined otherwise, and then `parseJson` finds and
 * places the problem. `shapeNames`, when given, is the shape acceptor (shape-accept.ts): the
 * names it counted while accepting the document, or -1; it spares a second walk of the value,
 * and `shapeAccepted` tells the caller that the shape check is done.
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
  let names = counted >= 0 ? counted : countNamesInValue(value, 1);
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
    if (names !== inText && counted >= 0) names = countNamesInValue(value, 1); // the acceptor may skip some names
    if (names !== inText) return undefined;
  }
  return { ok: true, value, text, shapeAccepted: counted >= 0 };
}
