import { readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { makeFolders, readInside, writeInside } from '../files/safe-fs.js';
import { Recorder, type RecorderSnapshot } from './recording.js';

/**
 * Recordings kept on disk as they grow (issue 16): one JSON file per device in the state folder,
 * rewritten atomically after every recorded step, so a crash or restart of the bridge loses
 * nothing. Recordings this process did not start are orphans (left by a previous process); the
 * first agent that asks about that device adopts them.
 */
export class RecordingStore {
  private readonly live = new Set<string>();
  private writes = new Map<string, Promise<void>>();
  /** The last write failure (a full disk): the recording goes on in memory and says so. */
  lastError?: Error;

  constructor(readonly dir: string) {}

  private file(device: string): string {
    return join(this.dir, `${encodeURIComponent(device)}.recording.json`);
  }

  private where() {
    return { roots: [this.dir], param: 'recording' };
  }

  /** Marks the device's recording as this process's and writes it (chained, never rejects). */
  save(recorder: Recorder): Promise<void> {
    this.live.add(recorder.device);
    const content = JSON.stringify(recorder.snapshot());
    const previous = this.writes.get(recorder.device) ?? Promise.resolve();
    const next = previous.then(async () => {
      try {
        await makeFolders(this.dir);
        await writeInside(this.file(recorder.device), content, this.where());
        this.lastError = undefined;
      } catch (err) {
        this.lastError = err as Error;
      }
    });
    this.writes.set(recorder.device, next);
    return next;
  }

  /** A recording left by an earlier process for this device, taken over by the caller. */
  async adopt(device: string): Promise<Recorder | undefined> {
    if (this.live.has(device)) return undefined;
    try {
      const snapshot = JSON.parse((await readInside(this.file(device), this.where(), { maxBytes: 16 * 1024 * 1024 })).toString('utf8')) as RecorderSnapshot;
      const recorder = Recorder.restore(snapshot);
      this.live.add(device);
      return recorder;
    } catch {
      return undefined;
    }
  }

  /** Devices with a recording on disk that no agent of this process holds. */
  async orphans(): Promise<string[]> {
    const names = await readdir(this.dir).catch(() => [] as string[]);
    return names
      .filter((n) => n.endsWith('.recording.json'))
      .map((n) => decodeURIComponent(n.slice(0, -'.recording.json'.length)))
      .filter((d) => !this.live.has(d));
  }

  async remove(device: string): Promise<void> {
    await this.writes.get(device);
    this.writes.delete(device);
    this.live.delete(device);
    await unlink(this.file(device)).catch(() => undefined);
  }

  /** The agent that held it is gone (session ended) without stopping: the file stays for a later adopter. */
  release(device: string): void {
    this.live.delete(device);
  }
}
