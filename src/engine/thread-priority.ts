import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { ToolError } from './errors.js';

/**
 * Threads that make pictures (virtual-phone renderers, the frame downscaler, libvips' workers)
 * run at a lower CPU priority than the event loop. On two cores a frame's drawing and encoding
 * want both at the moment a tool call arrives, and the call waited its turn behind them: the
 * scheduler now lets the event loop (calls, protocol traffic, the runner) go first and the frames
 * take what is left, so under contention frames slow down before calls do (issue 18).
 *
 * Linux only (a thread's id is a process id to `setpriority`; raising one's own nice value needs
 * no privilege). Elsewhere, or with MOBILEBRIDGE_BACKGROUND_NICE=0, nothing changes.
 */
export const BACKGROUND_NICE = niceFromEnv(process.env.MOBILEBRIDGE_BACKGROUND_NICE);

function niceFromEnv(value: string | undefined): number {
  if (value === undefined || value === '') return 5;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 19) throw new ToolError('INVALID_PARAMETER', `MOBILEBRIDGE_BACKGROUND_NICE must be a whole number from 0 to 19 (got "${value}"); 0 keeps every thread at the event loop's priority`);
  return n;
}

const enabled = process.platform === 'linux' && BACKGROUND_NICE > 0;

/**
 * To BACKGROUND_NICE steps below the event loop (the main thread, whose id is the process id), at
 * most 19, and never up: a bridge started with `nice` keeps its threads in the same order, and a
 * thread that inherited a lowered priority (libvips starts workers from the renderer thread) is
 * not lowered twice. An absolute value would raise threads above the event loop of a process
 * started at nice > 5 (refused without privilege, granted to root).
 */
function lower(tid: number): void {
  const target = Math.min(19, getPriority(process.pid) + BACKGROUND_NICE);
  if (getPriority(tid) < target) setPriority(tid, target);
}

/** Lowers the calling thread (a worker thread at its start). False when it could not. */
export function lowerThisThread(): boolean {
  if (!enabled) return false;
  try {
    // "<pid>/task/<tid>": the calling thread's own entry.
    lower(Number(readlinkSync('/proc/thread-self').split('/').pop()));
    return true;
  } catch {
    return false;
  }
}

/** libvips names its pool threads so; sharp's work runs on them (and on libuv's pool, which we leave alone: file I/O runs there too). */
const LIBVIPS_THREAD = 'libvips worker';
const SCAN_EVERY_MS = 2_000;
let lastScan = -Infinity;
const lowered = new Set<number>();

/**
 * Lowers libvips' worker threads, which libvips starts and ends on its own: called after image
 * work, it looks at the process's threads at most every 2 s (a few dozen small reads).
 */
export function lowerImageThreads(now = Date.now()): void {
  if (!enabled || now - lastScan < SCAN_EVERY_MS) return;
  lastScan = now;
  let tids: string[];
  try {
    tids = readdirSync('/proc/self/task');
  } catch {
    return;
  }
  const alive = new Set<number>();
  for (const t of tids) {
    const tid = Number(t);
    alive.add(tid);
    if (lowered.has(tid)) continue;
    try {
      if (readFileSync(`/proc/self/task/${t}/comm`, 'utf8').trim() !== LIBVIPS_THREAD) continue;
      lower(tid);
      lowered.add(tid);
    } catch {
      // The thread ended meanwhile.
    }
  }
  for (const tid of lowered) if (!alive.has(tid)) lowered.delete(tid);
}
