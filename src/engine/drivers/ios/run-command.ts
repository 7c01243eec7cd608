import { spawn } from 'node:child_process';

import { ToolError } from '../../errors.js';

export interface CommandResult {
  stdout: string;
  stderr: string;
  code: number;
}

export interface RunOptions {
  signal?: AbortSignal;
  /** Own deadline of this command; the call's signal may end it sooner. */
  timeoutMs: number;
  env?: NodeJS.ProcessEnv;
}

/** Thrown when the executable itself is not on PATH, so callers can name the missing tool and its install command. */
export class MissingExecutableError extends Error {
  constructor(readonly executable: string) {
    super(`${executable} is not on PATH`);
    this.name = 'MissingExecutableError';
  }
}

/**
 * Runs a command without a shell (arguments are never parsed, so bundle ids and paths cannot inject anything),
 * with a deadline: the child is killed when the deadline or the caller's signal fires.
 */
export function runCommand(executable: string, args: readonly string[], options: RunOptions): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(abortReason(options.signal, executable, args));
      return;
    }
    const child = spawn(executable, args, { env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));

    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      fn();
    };
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      finish(() => reject(new ToolError('TIMEOUT', `${describe(executable, args)} did not finish within ${options.timeoutMs} ms`)));
    }, options.timeoutMs);
    const onAbort = () => {
      child.kill('SIGKILL');
      finish(() => reject(abortReason(options.signal!, executable, args)));
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });

    child.on('error', (e: NodeJS.ErrnoException) => {
      finish(() => reject(e.code === 'ENOENT' ? new MissingExecutableError(executable) : e));
    });
    child.on('close', (code) => {
      finish(() => resolve({ stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), code: code ?? -1 }));
    });
  });
}

function abortReason(signal: AbortSignal, executable: string, args: readonly string[]): unknown {
  return signal.reason instanceof Error ? signal.reason : new ToolError('TIMEOUT', `${describe(executable, args)} was cancelled`);
}

export function describe(executable: string, args: readonly string[]): string {
  return [executable, ...args].join(' ');
}

/** The last meaningful line of a tool's error output, to quote in a ToolError message. */
export function lastLine(text: string): string {
  const lines = text.split('\n').map((l) => l.trim()).filter(Boolean);
  return lines[lines.length - 1] ?? '';
}
