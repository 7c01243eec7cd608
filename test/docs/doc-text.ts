import { readFileSync } from 'node:fs';

/** A file of the repository, read from the compiled test's place (dist/test/docs). */
export function repoFile(path: string): string {
  return readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');
}

/** The first fenced block after the heading line `heading` (e.g. "## Example exchange"). */
export function fencedBlockAfter(markdown: string, heading: string): string {
  const at = markdown.split('\n').findIndex((line) => line.trim() === heading);
  if (at < 0) throw new Error(`no heading "${heading}"`);
  const rest = markdown.split('\n').slice(at + 1).join('\n');
  const m = /^```[^\n]*\n([\s\S]*?)^```/m.exec(rest);
  if (!m) throw new Error(`no fenced block after "${heading}"`);
  return m[1];
}

/**
 * JSON text without the whitespace between tokens; strings keep theirs. Works on cut examples
 * too (an ellipsis outside strings stays where it is), which JSON.parse would refuse.
 */
export function compactJson(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      out += c;
      if (c === '\\') out += text[++i] ?? '';
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
      out += c;
    } else if (!/\s/.test(c)) out += c;
  }
  return out;
}

/**
 * Whether `actual` reads as the documented `expected`, in which each `…` stands for what the doc left
 * out: the pieces between them must appear in order, the first at the start and the last at the end.
 */
export function readsAs(expected: string, actual: string): boolean {
  const pieces = expected.split('…').map((p) => p.replace(/^[\s,]+|[\s,]+$/g, ''));
  if (pieces.length === 1) return expected === actual;
  if (!actual.startsWith(pieces[0]) || !actual.endsWith(pieces[pieces.length - 1])) return false;
  let from = pieces[0].length;
  for (const piece of pieces.slice(1, -1)) {
    const at = actual.indexOf(piece, from);
    if (at < 0) return false;
    from = at + piece.length;
  }
  return from <= actual.length - pieces[pieces.length - 1].length;
}
