import { randomUUID } from 'node:crypto';
import { processAlive, THIS_PROCESS } from '../process-alive.js';

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

export const SELF: RecordingOwner = THIS_PROCESS;

/** This very process (not merely the same pid: a container restart reuses low pids). */
export function isSelf(owner: RecordingOwner): boolean {
  return owner.pid === SELF.pid && owner.host === SELF.host && owner.started === SELF.started;
}

/**
 * Whether the owner process may still be running. A process on another host cannot be looked at,
 * so it counts as running: its recording is never taken over on a guess.
 */
export function ownerAlive(owner: RecordingOwner): boolean {
  // Our own pid with another start time (or none) is an earlier process, e.g. before a container restart.
  if (owner.host === SELF.host && owner.pid === SELF.pid) return owner.started === SELF.started;
  return processAlive(owner);
}

export function parseOwner(value: unknown): RecordingOwner | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const o = value as Record<string, unknown>;
  if (typeof o.pid !== 'number' || typeof o.host !== 'string') return undefined;
  const owner: RecordingOwner = { pid: o.pid, host: o.host, started: typeof o.started === 'string' ? o.started : null };
  if (typeof o.recording === 'string') owner.recording = o.recording;
  return owner;
}
