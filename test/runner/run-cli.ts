import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

export interface CliRun {
  code: number | null;
  out: string;
  err: string;
}

export interface CliRunOptions {
  env?: Record<string, string>;
  /** --out folder; default <dir>/out. Runs at the same time need their own: a run claims its --out. */
  out?: string;
  /**
   * MOBILEBRIDGE_STATE_DIR; default <dir>/state. Runs at the same time on one virtual phone need their
   * own: each process picks up the phone state the other saves.
   */
  state?: string;
}

/** Runs at once at most: more only add memory and CPU contention on a 2-core CI machine. */
const MAX_RUNNING = 4;
let running = 0;
const queued: (() => void)[] = [];

async function slot(): Promise<void> {
  if (running < MAX_RUNNING) running++;
  else await new Promise<void>((resolve) => queued.push(resolve));
}

function release(): void {
  const next = queued.shift();
  if (next) next();
  else running--;
}

/**
 * `mobilebridge run` in `dir` on the virtual phones only (a test must never start or reach the
 * developer's own adb server). Asynchronous, so a test can run independent ones side by side; it
 * never rejects, and a run that hangs is killed after 2 minutes, so awaiting it leaves no process.
 */
export async function runCli(dir: string, args: string[], options: CliRunOptions = {}): Promise<CliRun> {
  await slot();
  try {
    return await spawnRun(dir, args, options);
  } finally {
    release();
  }
}

function spawnRun(dir: string, args: string[], { env = {}, out: outDir = join(dir, 'out'), state = join(dir, 'state') }: CliRunOptions): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [MAIN, 'run', ...args, '--out', outDir, '--target-wait', '300', '--no-android', '--no-ios'], {
      cwd: dir,
      env: { ...process.env, MOBILEBRIDGE_STATE_DIR: state, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 120_000,
    });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    child.on('error', (e) => {
      err += `\n${e.message}`;
      // Never started: no 'close' follows.
      if (child.pid === undefined) resolve({ code: null, out, err });
    });
    child.on('close', (code) => resolve({ code, out, err }));
  });
}
