import { randomBytes } from 'node:crypto';
import { closeSync, linkSync, openSync, readFileSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { processAlive, THIS_PROCESS } from '../process-alive.js';

/** What a lock, takeover marker or queue ticket holds: enough to tell a live holder from a dead one. */
export interface Owner {
  pid: number;
  host: string;
  /** The holder's start time (Linux), so a process that got a dead holder's pid does not keep its lock. */
  started?: string | null;
  since: string;
  /** Platform a queue ticket waits for ("android", "ios") or the device a lock is on. */
  what: string;
  /** Unique per record: a takeover removes the very record it judged dead, never a newer one. */
  token?: string;
  /** What a queue ticket's waiter would take (absent in a previous version's tickets). */
  wants?: Wants;
}

/** A waiter's devices: any of a platform (`cross-platform`: either), or the one phone kept under `key`. */
export interface Wants {
  platform?: 'android' | 'ios' | 'cross-platform';
  key?: string;
}

/** Records of a previous version have no token; their pid and time tell them apart well enough. */
const tokenOf = (o: Owner) => o.token ?? `${o.pid}-${o.since}`;

/** A takeover whose holder was killed in turn leaves a marker to reap; past this many, give up (the next try goes on). */
const MAX_NESTED_TAKEOVERS = 4;

export function ownRecord(what: string): Owner {
  const { pid, host, started } = THIS_PROCESS;
  return { pid, host, started, since: new Date().toISOString(), what, token: randomBytes(8).toString('hex') };
}

/** Whether a record's process may still hold it (processAlive: pid and start time; another host's always). */
export const holderAlive = (o: Owner): boolean => processAlive(o);

/**
 * Creates `file` holding `owner` unless it exists. Written aside and hard-linked into place, so the
 * file never exists half written: an empty lock would look held, by nobody, for ever.
 */
export function createRecord(file: string, owner: Owner): boolean {
  const aside = join(dirname(file), `.${basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  writeFileSync(aside, JSON.stringify(owner), { flag: 'wx' });
  try {
    linkSync(aside, file);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP' || code === 'ENOSYS') return createExclusive(file, owner);
    throw err;
  } finally {
    rm(aside);
  }
}

/** O_EXCL create then write: for unique names (queue tickets) and filesystems without hard links. */
export function createExclusive(file: string, owner: Owner): boolean {
  let fd: number;
  try {
    fd = openSync(file, 'wx');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  try {
    writeSync(fd, JSON.stringify(owner));
  } finally {
    closeSync(fd);
  }
  return true;
}

/**
 * Removes `file` if it still holds `stale`, a record whose process is gone. Several processes may
 * find one dead record at once: only the one that creates its takeover marker (O_EXCL, named after
 * the record's token) removes it, and only after reading again that the file still holds that very
 * record. So a taker that comes late, still believing the dead holder's record is there, never
 * removes the lock another taker has just made. A taker killed in the middle leaves its marker
 * behind; that marker, its holder dead, is reaped the same way. `marked`: a test seam, called while
 * the marker is held.
 */
export function reap(file: string, stale: Owner, marked?: () => void, depth = 0): void {
  const marker = `${file}.takeover-${encodeURIComponent(tokenOf(stale)).replace(/\./g, '%2E')}`;
  const mine = ownRecord(`takeover of ${basename(file)}`);
  if (!createRecord(marker, mine)) {
    const other = readOwner(marker);
    if (!other || holderAlive(other) || depth >= MAX_NESTED_TAKEOVERS) return;
    reap(marker, other, undefined, depth + 1);
    if (!createRecord(marker, mine)) return;
  }
  try {
    marked?.();
    const now = readOwner(file);
    if (now && tokenOf(now) === tokenOf(stale)) rm(file);
  } finally {
    rm(marker);
  }
}

export function readOwner(file: string): Owner | undefined {
  try {
    const o = JSON.parse(readFileSync(file, 'utf8')) as Owner;
    return typeof o.pid === 'number' ? o : undefined;
  } catch {
    return undefined;
  }
}

export function rm(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // Already gone: released by a cleaner that found its process dead.
  }
}
