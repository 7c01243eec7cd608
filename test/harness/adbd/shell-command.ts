import type { CallContext } from '../../../src/engine/driver.js';

/** What one emulated shell command answers. */
export interface CommandResult {
  out: Buffer | string;
  code: number;
  /** What the command writes to stderr: `exec:` interleaves it with stdout unless redirected. */
  err?: string;
}

export const ok = (out: Buffer | string = ''): CommandResult => ({ out, code: 0 });

export function unknown(words: string[]): CommandResult {
  return { out: `/system/bin/sh: ${words.join(' ')}: not emulated by the test adbd\n`, code: 127 };
}

/** A command drives the virtual phone to its end: nothing aborts it. */
export const ctx = (): CallContext => ({ signal: new AbortController().signal });
