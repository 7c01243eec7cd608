import type { CallContext } from '../../../src/engine/driver.js';

/** What one emulated shell command answers. */
export interface CommandResult {
  out: Buffer | string;
  code: number;
  /** What the command writes to stderr: `exec:` interleaves it with stdout unless redirected. */
  err?: string;
  /** `err` was written after `out` (am's "Starting:" line comes before its refusal); by default it comes first, as a warning before a capture. */
  errLast?: boolean;
  /** The command printed `out` and keeps running until the host closes the stream (e.g. `am start -W` whose wait nothing ends). */
  open?: boolean;
}

export const ok = (out: Buffer | string = ''): CommandResult => ({ out, code: 0 });

export function unknown(words: string[]): CommandResult {
  return { out: `/system/bin/sh: ${words.join(' ')}: not emulated by the test adbd\n`, code: 127 };
}

/**
 * What a `cmd`-style shell command prints on stderr when `exception` escapes it, exit 255
 * (BasicShellCommandHandler.exec from Android 11: an empty line, "Exception occurred while executing
 * '<cmd>':", the stack trace; ShellCommand.exec on Android 8–10 leaves the command name out).
 */
export function escaped(cmd: string, sdk: number, exception: string, frames: string[] = []): CommandResult {
  const header = sdk >= 30 ? `Exception occurred while executing '${cmd}':` : 'Exception occurred while executing:';
  return { out: '', err: `\n${header}\n${exception}\n${frames.map((f) => `\tat ${f}\n`).join('')}`, code: 255 };
}

/** A command drives the virtual phone to its end: nothing aborts it. */
export const ctx = (): CallContext => ({ signal: new AbortController().signal });

/**
 * Whether a simple command's stdout and stderr still reach the stream after its redirections, applied in
 * order as sh does: `>/dev/null` and `2>/dev/null` silence one, `2>&1` sends stderr where stdout goes now
 * (so `>/dev/null 2>&1` silences both, `2>&1 >/dev/null` only stdout), `>&2` the other way round.
 */
export function reachingStream(words: string[]): { out: boolean; err: boolean } {
  const fds: Record<number, boolean> = { 1: true, 2: true };
  for (const word of words) {
    const redirect = /^(\d?)>(&?)(.*)$/.exec(word);
    if (!redirect) continue;
    const fd = Number(redirect[1] || 1);
    fds[fd] = redirect[2] ? fds[Number(redirect[3])] ?? false : false;
  }
  return { out: fds[1], err: fds[2] };
}
