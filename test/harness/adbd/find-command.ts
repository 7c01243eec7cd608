import { S_IFDIR, type DeviceFiles, type ListedEntry } from './files.js';
import { unknown, type CommandResult } from './shell-command.js';

/**
 * Which Android ships which toybox find (system/core shell_and_utilities/README.md; the toybox version of
 * each release's external/toybox): none before Android 6 (toolbox had no find), toybox 0.6 on Android 6
 * (no -delete: added in 0.7.0), 0.7.0/0.7.1 on Android 7 (no -amin/-cmin/-mmin: added in 0.7.3), 0.7.3 on Android 8.
 */
const FIND_FROM_SDK = 23;
const DELETE_FROM_SDK = 24;
const MINUTES_FROM_SDK = 26;

type Test =
  | { kind: 'maxdepth'; depth: number }
  | { kind: 'type'; type: string }
  | { kind: 'name'; pattern: RegExp }
  | { kind: 'minutes'; stamp: 'mtime' | 'ctime'; spec: string }
  | { kind: 'delete' }
  | { kind: 'print' };

interface Visited {
  path: string;
  entry: ListedEntry;
  depth: number;
}

class FindError extends Error {}

/**
 * toybox `find` (toys/posix/find.c) over the emulated files, for the primaries the driver uses: paths,
 * then -maxdepth, -type, -name, -cmin/-mmin, -delete and -print joined by an implicit AND. The first
 * pass refuses what this release's toybox does not know ("bad arg"); like toybox and unlike GNU find,
 * -delete does not turn off the default -print, so deleted paths are printed. Ages are whole seconds
 * compared with N minutes: +N is older than N×60 s, -N younger, N exactly that.
 */
export function findCommand(files: DeviceFiles, args: string[], sdk: number, now = Math.floor(Date.now() / 1000)): CommandResult {
  if (sdk < FIND_FROM_SDK) return { out: '', err: '/system/bin/sh: find: not found\n', code: 127 };
  const first = args.findIndex((a) => '-!('.includes(a[0]));
  const paths = first < 0 ? args : args.slice(0, first);
  let tests: Test[];
  try {
    tests = parseExpression(first < 0 ? [] : args.slice(first), sdk);
  } catch (err) {
    if (!(err instanceof FindError)) return unknown(['find', ...args]);
    return { out: '', err: `find: ${err.message}\n`, code: 1 };
  }
  if (!paths.length) return unknown(['find', ...args]);
  const depthFirst = tests.some((t) => t.kind === 'delete');
  const prints = tests.some((t) => t.kind === 'print');
  let out = '';
  let err = '';
  const matches = (v: Visited): boolean => {
    for (const t of tests) if (!apply(t, v, files, now)) return false;
    return true;
  };
  for (const root of paths) {
    const stat = files.stat(root);
    if (!stat) {
      err += `find: ${root}: No such file or directory\n`;
      continue;
    }
    const top = root.replace(/(.)\/+$/, '$1');
    walk(files, { path: top, entry: { name: top, ...stat }, depth: 0 }, tests, depthFirst, (v) => {
      try {
        if (matches(v) && !prints) out += `${v.path}\n`;
      } catch (e) {
        err += `find: ${(e as Error).message}\n`;
      }
    });
  }
  return { out, err, code: err ? 1 : 0 };
}

function parseExpression(words: string[], sdk: number): Test[] {
  const tests: Test[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i];
    const needsValue = ['-maxdepth', '-type', '-name', '-cmin', '-mmin'].includes(word);
    if ((word === '-cmin' || word === '-mmin') && sdk < MINUTES_FROM_SDK) throw new FindError(`bad arg '${word}'`);
    if (word === '-delete' && sdk < DELETE_FROM_SDK) throw new FindError(`bad arg '${word}'`);
    const value = needsValue ? words[++i] : undefined;
    if (needsValue && value === undefined) throw new FindError(`'${word}' needs 1 arg`);
    if (word === '-maxdepth') tests.push({ kind: 'maxdepth', depth: Number.parseInt(value!, 10) || 0 });
    else if (word === '-type') tests.push({ kind: 'type', type: value! });
    else if (word === '-name') tests.push({ kind: 'name', pattern: globPattern(value!) });
    else if (word === '-cmin' || word === '-mmin') tests.push({ kind: 'minutes', stamp: word === '-cmin' ? 'ctime' : 'mtime', spec: value! });
    else if (word === '-delete') tests.push({ kind: 'delete' });
    else if (word === '-print') tests.push({ kind: 'print' });
    else throw new Error(`${word} is not emulated`);
  }
  return tests;
}

/** Visits `at` and what lies below it, children first when -delete asked for depth-first order; -maxdepth stops the descent. */
function walk(files: DeviceFiles, at: Visited, tests: Test[], depthFirst: boolean, visit: (v: Visited) => void): void {
  const limit = tests.find((t): t is Extract<Test, { kind: 'maxdepth' }> => t.kind === 'maxdepth')?.depth ?? Infinity;
  const isDir = (at.entry.mode & 0o170000) === S_IFDIR;
  const below = () => {
    if (!isDir || at.depth >= limit) return;
    for (const entry of files.list(at.path) ?? []) walk(files, { path: `${at.path === '/' ? '' : at.path}/${entry.name}`, entry, depth: at.depth + 1 }, tests, depthFirst, visit);
  };
  if (!depthFirst) visit(at);
  below();
  if (depthFirst) visit(at);
}

function apply(t: Test, v: Visited, files: DeviceFiles, now: number): boolean {
  switch (t.kind) {
    case 'maxdepth':
      return v.depth <= t.depth;
    case 'type': {
      const types: Record<string, number> = { f: 0o100000, d: 0o040000, l: 0o120000 };
      if (types[t.type] === undefined) throw new Error(`bad -type '${t.type}'`);
      return (v.entry.mode & 0o170000) === types[t.type];
    }
    case 'name':
      return t.pattern.test(v.entry.name);
    case 'minutes':
      return compareNumSign(now - v.entry[t.stamp], 60, t.spec);
    case 'delete':
      // unlinkat without AT_REMOVEDIR; the emulated folders are never empty enough to go.
      return (v.entry.mode & 0o170000) !== S_IFDIR && files.remove(v.path);
    case 'print':
      return true;
  }
}

/** toybox compare_numsign: [+-]N, N times `units` when it ends in a digit; + is greater, - less, none equal. */
function compareNumSign(value: number, units: number, spec: string): boolean {
  const sign = spec[0] === '+' || spec[0] === '-' ? spec[0] : '';
  const digits = spec.slice(sign.length);
  if (!/^\d+$/.test(digits)) throw new Error(`${digits} not [+-]N`);
  const limit = Number(digits) * units;
  return sign === '+' ? value > limit : sign === '-' ? value < limit : value === limit;
}

/** fnmatch(3) without flags: * and ? match any character (a leading dot too), [...] and [!...] sets, \ quotes. */
function globPattern(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*') re += '.*';
    else if (c === '?') re += '.';
    else if (c === '\\' && i + 1 < glob.length) re += escape(glob[++i]);
    else if (c === '[' && glob.indexOf(']', i + 2) > 0) {
      const end = glob.indexOf(']', i + 2);
      const body = glob.slice(i + 1, end);
      re += `[${body[0] === '!' ? `^${body.slice(1)}` : body}]`;
      i = end;
    } else re += escape(c);
  }
  return new RegExp(`^${re}$`, 's');
}

function escape(c: string): string {
  return c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
