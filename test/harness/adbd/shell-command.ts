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
 * What a `cmd`-style shell command prints on stderr when `exception` escapes it, exit 255:
 * - Android 11+ (BasicShellCommandHandler.exec): an empty line, "Exception occurred while executing
 *   '<cmd>':", the stack trace, whatever the exception;
 * - Android 7–10 (frameworks/base core/java/android/os/ShellCommand.java exec): a SecurityException
 *   as "Security exception: <message>", an empty line and the stack trace; any other as an empty
 *   line, "Exception occurred while executing:" ("…while dumping:" on Android 7) and the stack trace.
 */
export function escaped(cmd: string, sdk: number, exception: string, frames: string[] = []): CommandResult {
  const stack = `${exception}\n${frames.map((f) => `\tat ${f}\n`).join('')}`;
  if (sdk >= 30) return { out: '', err: `\nException occurred while executing '${cmd}':\n${stack}`, code: 255 };
  const security = /^java\.lang\.SecurityException: (.*)$/.exec(exception)?.[1];
  if (security !== undefined) return { out: '', err: `Security exception: ${security}\n\n${stack}`, code: 255 };
  return { out: '', err: `\nException occurred while ${sdk >= 26 ? 'executing' : 'dumping'}:\n${stack}`, code: 255 };
}

/**
 * The same for `pm`: from Android 8 it hands every command to the package service's shell command
 * (as `escaped`); before, Pm.java ran them itself, and its main catches what escapes, prints
 * "Error: " + the exception on stderr and exits 1.
 */
export function pmEscaped(cmd: string, sdk: number, exception: string, frames: string[] = []): CommandResult {
  return sdk >= 26 ? escaped(cmd, sdk, exception, frames) : { out: '', err: `Error: ${exception}\n`, code: 1 };
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
