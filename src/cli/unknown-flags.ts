/**
 * Rejects long options a command does not know, so a typo (`--tokn`) fails loudly instead of
 * being silently ignored (a bridge started without its token is an open bridge).
 */
import { editDistance } from '../validate/suggest.js';

/** Names of the `--x` options in `args`, as written (`--no-video` stays `no-video`); stops at `--`. */
function writtenFlags(args: readonly string[]): string[] {
  const out: string[] = [];
  for (const arg of args) {
    if (arg === '--') break;
    if (!arg.startsWith('--') || arg.length === 2) continue;
    const eq = arg.indexOf('=');
    out.push(arg.slice(2, eq > 0 ? eq : undefined));
  }
  return out;
}

/** The spellings a command accepts: each known name, and `no-NAME` for each (parseFlags turns it into NAME=false). */
function accepted(known: readonly string[]): string[] {
  return [...known, ...known.map((k) => `no-${k}`)];
}

function suggestion(name: string, known: readonly string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const candidate of accepted(known)) {
    const distance = candidate.startsWith(name) || name.startsWith(candidate) ? 1 : editDistance(name, candidate);
    if (!best || distance < best.distance) best = { name: candidate, distance };
  }
  // Two edits turn any short name into another (--foo into --ios): one for a name of four letters or less.
  const near = name.length <= 4 ? 1 : Math.max(2, Math.floor(name.length / 3));
  return best && best.distance <= near ? best.name : undefined;
}

/** How `usage` (the command's --help) writes the option: `--no-video` for one documented only as a way to turn something off. */
function spelled(name: string, usage: string | undefined): string {
  if (!usage?.includes(`--no-${name}`)) return `--${name}`;
  return new RegExp(`(^|[^\\w-])--${name}(?![\\w-])`).test(usage) ? `--${name}` : `--no-${name}`;
}

/** An error message for the first option in `args` that `command` does not declare, else undefined. */
export function unknownFlagProblem(command: string, args: readonly string[], known: readonly string[], usage?: string): string | undefined {
  const ok = new Set(accepted(known));
  const bad = writtenFlags(args).find((name) => !ok.has(name));
  if (bad === undefined) return undefined;
  const near = suggestion(bad, known);
  const options = known.length ? `its options: ${known.map((k) => spelled(k, usage)).join(', ')}` : 'it takes no options';
  return `unknown flag --${bad} for ${command}; ${near ? `did you mean --${near}?` : `${options}.`} See mobilebridge ${command} --help`;
}
