import { readdir, unlink } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { makeFolders, readInside, writeInside } from '../files/safe-fs.js';
import { Recorder } from './recording.js';
import type { RecorderSnapshot } from './recording-types.js';
import { isSelf, ownerAlive, parseOwner, recordingId, SELF, type RecordingOwner } from './recording-owner.js';
import { VerbError } from './types.js';

/** A recording of this process and the sessions refused a second one of its device (see release). */
interface Claim {
  recorder: Recorder;
  refused: number;
  /** The file on disk was found to be free (or this recording's) before the first write. */
  checked: boolean;
}

/**
 * The recordings this process holds, by file, across every store of the process (a bridge
 * restarted in the same process makes a new store on the same folder).
 */
const claims = new Map<string, Claim>();
/** Recorders already counted in a claim's `refused`. */
const counted = new WeakSet<Recorder>();

interface OnDisk {
  snapshot: RecorderSnapshot;
  owner?: RecordingOwner;
}

/**
 * Recordings kept on disk as they grow (issue 16): one JSON file per device in the state folder,
 * rewritten atomically after every recorded step, so a crash or restart of the bridge loses
 * nothing. Each file names its owner process (pid, host, start time). A file whose owner is
 * alive belongs to it: no other process adopts, overwrites or deletes it. A file whose owner
 * is gone (or that names none), or whose session of this process ended, is an orphan: adopted by
 * the first agent that asks about that device, or, where a user is asked first (the viewer),
 * continued or discarded as they choose. Within one process a device has one recording: a
 * second session is refused.
 */
export class RecordingStore {
  private writes = new Map<string, Promise<void>>();
  /** The last write failure (a full disk): the recording goes on in memory and says so. */
  lastError?: Error;

  constructor(readonly dir: string) {}

  private file(device: string): string {
    return resolve(join(this.dir, `${encodeURIComponent(device)}.recording.json`));
  }

  private where() {
    return { roots: [this.dir], param: 'recording' };
  }

  private async read(device: string): Promise<OnDisk | undefined> {
    try {
      const data = JSON.parse((await readInside(this.file(device), this.where(), { maxBytes: 16 * 1024 * 1024 })).toString('utf8')) as RecorderSnapshot & { owner?: unknown };
      const { owner, ...snapshot } = data;
      return { snapshot, owner: parseOwner(owner) };
    } catch {
      return undefined;
    }
  }

  /** The other live process that owns this device's file, if one does. */
  private async otherOwner(device: string): Promise<{ owner: RecordingOwner; name?: string } | undefined> {
    const found = await this.read(device);
    if (!found?.owner || isSelf(found.owner) || !ownerAlive(found.owner)) return undefined;
    return { owner: found.owner, name: found.snapshot.options?.name };
  }

  /**
   * Why this device's file is not the caller's to write (`recorder`) or delete (no recorder: any
   * recording of this process): a live process's recording, or one left behind that only
   * adoption may take. Unreadable files are nobody's.
   */
  private async notOurs(device: string, recorder?: Recorder): Promise<VerbError | undefined> {
    const found = await this.read(device);
    if (!found) return undefined;
    const { owner } = found;
    const name = found.snapshot.options?.name;
    if (owner && !isSelf(owner) && ownerAlive(owner)) return this.otherProcess(device, { owner, name });
    if (owner && isSelf(owner) && (!recorder || owner.recording === recordingId(recorder))) return undefined;
    return new VerbError(
      'INVALID_PARAMETER',
      `a recording of ${device}${name ? ` (${JSON.stringify(name)})` : ''} left by ${leftBy(owner)} is in the state folder and is not this session's; ` +
        `call recording_stop for ${device} to get it back, then start again (over the bridge: recording.adopt continues it, recording.discard deletes it)`,
    );
  }

  private otherProcess(device: string, { owner, name }: { owner: RecordingOwner; name?: string }): VerbError {
    const who = `another process (pid ${owner.pid}${owner.host === SELF.host ? '' : ` on ${owner.host}`})`;
    const gone = owner.host === SELF.host
      ? 'or end that process: its recording is then adopted by the next session that asks'
      : `its host cannot be checked from here; if that process is gone, delete ${this.file(device)}`;
    return new VerbError('INVALID_PARAMETER', `${who} is recording ${device}${name ? ` (${JSON.stringify(name)})` : ''} in the same state folder; this process cannot start, stop or take over that recording. Stop it from the agent or bridge session that started it, ${gone}`);
  }

  private otherSession(device: string, holder: Recorder): VerbError {
    return new VerbError('INVALID_PARAMETER', `another agent session of this process is already recording ${device} (${JSON.stringify(holder.options.name)}); a device has one recording at a time. Stop it in that session (recording_stop / recording.stop) first`);
  }

  /**
   * Throws VerbError when the device's recording belongs to another session of this process or
   * to another live process (`recorder`, the caller's own, is no conflict). A session asks
   * before it starts a recording, so nothing is done to the device for a start that is refused.
   */
  async ensureFree(device: string, recorder?: Recorder): Promise<void> {
    const claim = claims.get(this.file(device));
    if (claim && claim.recorder !== recorder) throw this.otherSession(device, claim.recorder);
    if (claim) return;
    const other = await this.otherOwner(device);
    if (other) throw this.otherProcess(device, other);
  }

  /**
   * Writes the recording, claiming its device for it on the first write (chained, in order). A
   * device held by another session or process, or a recording left on disk that only adoption
   * may take, is refused: the promise rejects with a VerbError and nothing is written. The
   * rejection is marked handled, so a caller that does not wait for the write does not crash.
   */
  save(recorder: Recorder): Promise<void> {
    const device = recorder.device;
    const file = this.file(device);
    const claim = claims.get(file);
    if (claim && claim.recorder !== recorder) {
      if (!counted.has(recorder)) {
        counted.add(recorder);
        claim.refused++;
      }
      return handled(Promise.reject(this.otherSession(device, claim.recorder)));
    }
    // Claimed at once, so a second session saving in the same tick is refused.
    if (!claim) claims.set(file, { recorder, refused: 0, checked: false });
    const content = JSON.stringify({ ...recorder.snapshot(), owner: { ...SELF, recording: recordingId(recorder) } });
    const previous = this.writes.get(device) ?? Promise.resolve();
    const next = previous.then(async () => {
      const now = claims.get(file);
      if (now && now.recorder !== recorder) throw this.otherSession(device, now.recorder);
      // Until a write went through, the disk is looked at first; released meanwhile (its session
      // ended) it is looked at again and still writes its own file, for a later adopter.
      if (!now?.checked) {
        const refusal = await this.notOurs(device, recorder);
        if (refusal) {
          if (claims.get(file)?.recorder === recorder) claims.delete(file);
          throw refusal;
        }
        if (now) now.checked = true;
      }
      try {
        await makeFolders(this.dir);
        await writeInside(file, content, this.where());
        this.lastError = undefined;
      } catch (err) {
        this.lastError = err as Error;
      }
    });
    this.writes.set(device, next.catch(() => undefined));
    return handled(next);
  }

  /** This device's orphaned recording (its session or process is gone, nobody holds it), read without taking it. */
  async orphan(device: string): Promise<{ recorder: Recorder; leftBy: string } | undefined> {
    if (claims.has(this.file(device))) return undefined;
    const found = await this.read(device);
    if (!found || (found.owner && !isSelf(found.owner) && ownerAlive(found.owner))) return undefined;
    try {
      return { recorder: Recorder.restore(found.snapshot), leftBy: leftBy(found.owner) };
    } catch {
      return undefined;
    }
  }

  /** An orphaned recording of this device (its process is gone), taken over by the caller. */
  async adopt(device: string): Promise<Recorder | undefined> {
    const file = this.file(device);
    const recorder = (await this.orphan(device))?.recorder;
    if (!recorder || claims.has(file)) return undefined;
    claims.set(file, { recorder, refused: 0, checked: true });
    // Written again at once with this process as owner, so other processes leave it alone.
    await this.save(recorder).catch(() => undefined);
    return recorder;
  }

  /** Devices with a recording on disk that no session of this process and no other live process holds. */
  async orphans(): Promise<string[]> {
    const names = await readdir(this.dir).catch(() => [] as string[]);
    const devices = names.filter((n) => n.endsWith('.recording.json')).map((n) => decodeURIComponent(n.slice(0, -'.recording.json'.length)));
    const free: string[] = [];
    for (const device of devices) {
      if (!claims.has(this.file(device)) && !(await this.otherOwner(device))) free.push(device);
    }
    return free;
  }

  /**
   * The recording was stopped: its file goes. Throws VerbError when the file is not this
   * process's (another live process's, or one left by an ended process that only adoption may
   * take), which is then left as it is.
   */
  async remove(device: string): Promise<void> {
    await this.writes.get(device);
    const file = this.file(device);
    if (!claims.has(file)) {
      const refusal = await this.notOurs(device);
      if (refusal) throw refusal;
    }
    this.writes.delete(device);
    claims.delete(file);
    await unlink(file).catch(() => undefined);
  }

  /**
   * Deletes this device's orphaned recording, for a user who chose not to continue it. Throws
   * VerbError when there is none, or when a session or a live process holds it (only an orphan is
   * nobody's to keep). Claimed while it goes, so nobody adopts what is being deleted.
   */
  async discard(device: string): Promise<Recorder> {
    await this.writes.get(device);
    const file = this.file(device);
    const claim = claims.get(file);
    if (claim) throw this.otherSession(device, claim.recorder);
    const other = await this.otherOwner(device);
    if (other) throw this.otherProcess(device, other);
    const orphan = await this.orphan(device);
    if (!orphan || claims.has(file)) throw new VerbError('INVALID_PARAMETER', `no recording left by an ended session or process is open on ${device}; nothing was discarded`);
    claims.set(file, { recorder: orphan.recorder, refused: 0, checked: true });
    try {
      await unlink(file).catch(() => undefined);
    } finally {
      claims.delete(file);
    }
    return orphan.recorder;
  }

  /**
   * A session that held a recording of this device ended without stopping it: the file stays
   * for a later adopter. The store is told the device only, and a session refused a second
   * recording of it (see save) also releases it when it ends, so the claim is kept until every
   * such session is accounted for: a live recording is never handed to another session.
   */
  release(device: string): void {
    const file = this.file(device);
    const claim = claims.get(file);
    if (!claim) return;
    if (claim.refused > 0) claim.refused--;
    else claims.delete(file);
  }
}

/** Who left a recording that nobody holds now, for messages: its file's owner, when it names one. */
function leftBy(owner: RecordingOwner | undefined): string {
  return !owner ? 'an earlier process' : isSelf(owner) ? 'a session of this process that ended' : `process ${owner.pid}, which has ended`;
}

function handled<T>(p: Promise<T>): Promise<T> {
  p.catch(() => undefined);
  return p;
}
