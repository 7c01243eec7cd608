import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';

/**
 * Whether a process with this pid exists on this host. Signal 0 checks without sending anything;
 * EPERM means it exists but belongs to another user. (A pid can be reused: callers that must know
 * it is the same process also compare its start time, see processAlive.)
 */
export function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Which process wrote a record (a lock, a recovery file), told apart from a later one given the same pid. */
export interface ProcessIdentity {
  pid: number;
  host: string;
  /** The process's start time (Linux: /proc/<pid>/stat); null where there is no /proc. */
  started: string | null;
}

/** Start time of a process in clock ticks since boot, field 22 of /proc/<pid>/stat; null where there is no /proc. */
export function processStartTime(pid: number | 'self'): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count from after it.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

export const THIS_PROCESS: ProcessIdentity = { pid: process.pid, host: hostname(), started: processStartTime('self') };

/**
 * Whether the process that wrote a record may still be running. One on another host cannot be
 * looked at, so it counts as running (never taken over on a guess). A record without a start time
 * (written where there is no /proc, or by an older version) is judged by its pid alone.
 */
export function processAlive(owner: { pid: number; host: string; started?: string | null }): boolean {
  if (owner.host !== THIS_PROCESS.host) return true;
  if (!processExists(owner.pid)) return false;
  if (owner.started === null || owner.started === undefined) return true;
  const now = processStartTime(owner.pid);
  return now === null || now === owner.started;
}
