/**
 * Source offsets for the few JSON Pointers a report names, found by walking the text along those
 * pointers only and skipping every other value without building it. The position-keeping parser
 * (json.ts) makes a node for every value, which for a well-formed file with a single warning cost
 * more than the whole rest of its validation. The answers are those of
 * `locate(parseJson(text).pos, pointer, atKey)`, for text that `fastParse` accepted: well-formed,
 * not too deep, and with no repeated names, so the walk can stop at the last wanted value.
 */
import { skipString } from './json-text.js';

export interface Target {
  /** A JSON Pointer, as issues carry it. */
  path: string;
  /** Place a property on its name rather than its value. */
  atKey?: boolean;
}

/** One pointer segment on the way to one or more targets, and where it was found in the text. */
interface Step {
  children: Map<string, Step>;
  at?: number;
  key?: number;
}

const newStep = (): Step => ({ children: new Map() });

function segments(pointer: string): string[] {
  if (pointer === '') return [];
  const raw = pointer.slice(1).split('/');
  return pointer.includes('~') ? raw.map((seg) => seg.replace(/~1/g, '/').replace(/~0/g, '~')) : raw;
}

function skipValue(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c === 34) return skipString(text, i);
  if (c === 123 || c === 91) {
    // Outside strings there is only punctuation, whitespace and literals, which a plain loop passes
    // faster than a regex search; strings are jumped over natively.
    let depth = 0;
    for (let at = i; ; at++) {
      const s = text.charCodeAt(at);
      if (s === 34) at = skipString(text, at) - 1;
      else if (s === 123 || s === 91) depth++;
      else if ((s === 125 || s === 93) && --depth === 0) return at + 1;
    }
  }
  // A number, true, false or null runs up to the next delimiter.
  let k = i;
  for (;;) {
    const d = text.charCodeAt(k);
    if (d === 44 || d === 125 || d === 93 || d === 32 || d === 10 || d === 13 || d === 9 || Number.isNaN(d)) return k;
    k++;
  }
}

function skipSpace(text: string, i: number): number {
  let c = text.charCodeAt(i);
  while (c === 32 || c === 10 || c === 13 || c === 9) c = text.charCodeAt(++i);
  return i;
}

/** Returned by a walk that found everything it was looking for before the end of its value. */
const DONE = -1;

/**
 * Walks the value at `i` (not whitespace) for the pointers below `step`: the index past the value,
 * or DONE. Recursion is bounded: fastParse refuses documents nested deeper than MAX_DEPTH.
 */
function walk(text: string, i: number, step: Step): number {
  const c = text.charCodeAt(i);
  if (step.children.size === 0 || (c !== 123 && c !== 91)) return skipValue(text, i);
  return c === 123 ? walkObject(text, i, step) : walkArray(text, i, step);
}

/**
 * Descends into a wanted child; DONE when it was the last one the container waited for (names
 * are not repeated, so nothing later can replace it), else the index past the child's value.
 */
function visit(text: string, i: number, child: Step, key: number | undefined, pending: number): number {
  child.at = i;
  child.key = key;
  const end = walk(text, i, child);
  if (pending === 0) return DONE;
  return end === DONE ? skipValue(text, i) : end;
}

function walkObject(text: string, i: number, step: Step): number {
  let pending = step.children.size;
  i = skipSpace(text, i + 1);
  if (text.charCodeAt(i) === 125) return i + 1;
  for (;;) {
    i = skipSpace(text, i);
    const keyAt = i;
    i = skipString(text, keyAt);
    const raw = text.slice(keyAt + 1, i - 1);
    const name = raw.includes('\\') ? (JSON.parse(text.slice(keyAt, i)) as string) : raw;
    i = skipSpace(text, skipSpace(text, i) + 1); // past the ':'
    const child = step.children.get(name);
    i = child ? visit(text, i, child, keyAt, --pending) : skipValue(text, i);
    if (i === DONE) return DONE;
    i = skipSpace(text, i);
    if (text.charCodeAt(i++) === 125) return i;
  }
}

function walkArray(text: string, i: number, step: Step): number {
  // The position parser looks array items up by Number(segment), so "1" and "01" are both item 1.
  const wanted = new Map<number, Step[]>();
  for (const [seg, child] of step.children) {
    const list = wanted.get(Number(seg));
    if (list) list.push(child);
    else wanted.set(Number(seg), [child]);
  }
  let pending = step.children.size;
  i = skipSpace(text, i + 1);
  if (text.charCodeAt(i) === 93) return i + 1;
  for (let index = 0; ; index++) {
    i = skipSpace(text, i);
    const children = wanted.get(index);
    if (children) {
      const start = i;
      for (const child of children) i = visit(text, start, child, undefined, --pending);
    } else {
      i = skipValue(text, i);
    }
    if (i === DONE) return DONE;
    i = skipSpace(text, i);
    if (text.charCodeAt(i++) === 93) return i;
  }
}

/**
 * The offset of each target: its value (or name), or, when the pointer goes past what exists (a
 * missing property), the deepest existing ancestor, which is where the fix belongs.
 */
export function locateAll(text: string, targets: readonly Target[]): number[] {
  const root = newStep();
  const paths = targets.map((t) => segments(t.path));
  for (const path of paths) {
    let step = root;
    for (const seg of path) {
      let next = step.children.get(seg);
      if (!next) step.children.set(seg, (next = newStep()));
      step = next;
    }
  }
  const start = skipSpace(text, 0);
  root.at = start;
  walk(text, start, root);
  return targets.map((t, n) => {
    let step = root;
    for (const seg of paths[n]) {
      const next = step.children.get(seg);
      if (next?.at === undefined) return step.at!;
      step = next;
    }
    return t.atKey && step.key !== undefined ? step.key : step.at!;
  });
}
