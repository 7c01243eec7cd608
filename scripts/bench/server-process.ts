import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

/**
 * Starts a benchmark's server script in its own process (so its RSS and CPU are its own) and
 * resolves with the WebSocket URL it prints.
 */
export async function startServerProcess(script: URL, cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<{ child: ChildProcess; url: string; port: number }> {
  // BENCH_SERVER_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof': node flags for the server only (profiles).
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, fileURLToPath(script)], { cwd, env, stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /ws:\/\/\S+/.exec(out);
      if (m) resolve(m[0]);
    });
    child.once('exit', (code) => reject(new Error(`server exited (${code})`)));
  });
  return { child, url, port: Number(new URL(url).port) };
}

/** Resident memory of a process, in MB (Linux /proc). */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

/** User + system CPU time of a process so far, in seconds (Linux /proc, 100 ticks a second). */
export function cpuSeconds(pid: number): number {
  return ticks(`/proc/${pid}/stat`);
}

/** The same for the process's main thread alone (its event loop), without worker and pool threads. */
export function mainThreadCpuSeconds(pid: number): number {
  return ticks(`/proc/${pid}/task/${pid}/stat`);
}

function ticks(file: string): number {
  const fields = readFileSync(file, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

export interface LoopDelay {
  p50: number;
  p99: number;
  max: number;
}

/**
 * Starts a window of the server's event-loop delay (servers that call `serveLoopDelay`): `report`
 * ends it and resolves with the figures in ms.
 */
export function loopDelayWindow(child: ChildProcess): { report(): Promise<LoopDelay> } {
  child.send('loop-delay-reset');
  return {
    report: () =>
      new Promise((resolve) => {
        child.once('message', (m) => resolve(m as LoopDelay));
        child.send('loop-delay-report');
      }),
  };
}

/** In a server process: answers loopDelayWindow over the IPC channel, from a 1 ms-resolution histogram. */
export function serveLoopDelay(): void {
  const h = monitorEventLoopDelay({ resolution: 1 });
  h.enable();
  process.on('message', (m) => {
    if (m === 'loop-delay-reset') h.reset();
    if (m === 'loop-delay-report') process.send?.({ p50: h.percentile(50) / 1e6, p99: h.percentile(99) / 1e6, max: h.max / 1e6 } satisfies LoopDelay);
  });
}
