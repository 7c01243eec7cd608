import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { processExists } from '../process-alive.js';

/**
 * Which process writes a recording's recovery file, so that another process on the same state
 * folder can tell a live recording (not its to take) from one left by a crash (an orphan to adopt).
 */
export interface RecordingOwner {
  pid: number;
  host: string;
  /** The process's start time (Linux: /proc/<pid>/stat), so a reused pid is not taken for the owner. */
  started: string | null;
  /** Which recording of the process wrote it (recordingId), so a session never writes over another's. */
  recording?: string;
}

const ids = new WeakMap<object, string>();

/** A recording's identity within its process, kept for as long as the recorder lives. */
export function recordingId(recorder: object): string {
  let id = ids.get(recorder);
  if (!id) {
    id = randomUUID();
    ids.set(recorder, id);
  }
  return id;
}

/** Start time of a process in clock ticks since boot, field 22 of /proc/<pid>/stat; null where there is no /proc. */
function startTime(pid: number | 'self'): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count from after it.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

export const SELF: RecordingOwner = { pid: process.pid, host: hostname(), started: startTime('self') };

/** This very process (not merely the same pid: a container restart reuses low pids). */
export function isSelf(owner: RecordingOwner): boolean {
  return owner.pid === SELF.pid && owner.host === SELF.host && owner.started === SELF.started;
}

/**
 * Whether the owner process may still be running. A process on another host cannot be looked at,
 * so it counts as running: its recording is never taken over on a guess.
 */
export function ownerAlive(owner: RecordingOwner): boolean {
  if (owner.host !== SELF.host) return true;
  if (owner.pid === SELF.pid) return owner.started === SELF.started;
  if (!processExists(owner.pid)) return false;
  const now = startTime(owner.pid);
  return owner.started === null || now === null || now === owner.started;
}

export function parseOwner(value: unknown): RecordingOwner | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const o = value as Record<string, unknown>;
  if (typeof o.pid !== 'number' || typeof o.host !== 'string') return undefined;
  const owner: RecordingOwner = { pid: o.pid, host: o.host, started: typeof o.started === 'string' ? o.started : null };
  if (typeof o.recording === 'string') owner.recording = o.recording;
  return owner;
}
