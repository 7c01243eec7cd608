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
  if (!offsets.length) return out;
  let line = 1;
  let lineStart = 0;
  const first = text.indexOf('\n');
  // An offset on a line break (a string cut by it) stays on the line the break ends.
  if (lfOnly(text, first)) {
    // Inline: reports with warnings of valid files come here too.
    let next = first;
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
  const breakEnd = lineBreaks(text);
  let next = breakEnd(0);
  for (const n of order) {
    const offset = offsets[n];
    while (next !== -1 && next <= offset) {
      line++;
      lineStart = next;
      next = breakEnd(next);
    }
    out[n] = { line, column: offset - lineStart + 1 };
  }
  return out;
}

/**
 * A file whose first line ends in a bare LF is taken for an LF file, so that the common case does
 * not scan all of it for a CR. `lf`: the first LF.
 */
const lfOnly = (text: string, lf: number): boolean => lf !== -1 && text.lastIndexOf('\r', lf) === -1;

/**
 * For `text`, a function giving where the first line break at or after `from` ends (-1: none). LF,
 * CRLF and a lone CR (old Mac files) each end one line, as in editors. Calls must not go backwards;
 * each character is scanned once, by indexOf.
 */
function lineBreaks(text: string): (from: number) => number {
  let lf = text.indexOf('\n');
  let cr = lfOnly(text, lf) ? -1 : text.indexOf('\r');
  return (from) => {
    if (lf !== -1 && lf < from) lf = text.indexOf('\n', from);
    if (cr !== -1 && cr < from) cr = text.indexOf('\r', from);
    if (cr === -1 || (lf !== -1 && lf < cr)) return lf === -1 ? -1 : lf + 1;
    return text.charCodeAt(cr + 1) === 10 ? cr + 2 : cr + 1;
  };
}

/** Converts offsets to 1-based line/column and gives line texts, for readers that need many. */
export class LineIndex {
  private readonly starts: number[] = [0];
  constructor(private readonly text: string) {
    const breakEnd = lineBreaks(text);
    for (let k = breakEnd(0); k !== -1; k = breakEnd(k)) this.starts.push(k);
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
    const end = this.starts[line] ?? this.text.length;
    return this.text.slice(start, end).replace(/(?:\r\n?|\n)$/, '');
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
