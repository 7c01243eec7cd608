/** The emulated device's file system: enough for push, pull, stat and listing of the folders adb and adbkit use. */
export const S_IFREG = 0o100000;
export const S_IFDIR = 0o040000;

export interface FileEntry {
  mode: number;
  data: Buffer;
  /** Seconds since the epoch: what the writer said (adb's sync DONE carries the pushing host's clock). */
  mtime: number;
  /** Seconds since the epoch, the phone's clock: the kernel sets it on every change (a push's write and utime). */
  ctime: number;
}

/** A directory entry as LIST and find see it. */
export interface ListedEntry {
  name: string;
  mode: number;
  size: number;
  mtime: number;
  ctime: number;
}

export class DeviceFiles {
  private readonly files = new Map<string, FileEntry>();
  private readonly dirs = new Set(['/', '/data', '/data/local', '/data/local/tmp', '/sdcard', '/sdcard/Download']);

  stat(path: string): Omit<ListedEntry, 'name'> | undefined {
    const p = normalize(path);
    if (this.dirs.has(p)) return { mode: S_IFDIR | 0o771, size: 4096, mtime: 0, ctime: 0 };
    const f = this.files.get(p);
    return f && { mode: f.mode, size: f.data.length, mtime: f.mtime, ctime: f.ctime };
  }

  read(path: string): Buffer | undefined {
    return this.files.get(normalize(path))?.data;
  }

  write(path: string, data: Buffer, mode = S_IFREG | 0o644, mtime = now()): void {
    const p = normalize(path);
    const parent = p.slice(0, p.lastIndexOf('/')) || '/';
    if (!this.dirs.has(parent)) throw new Error(`${parent}: No such file or directory`);
    this.files.set(p, { mode: (mode & 0o170000) === 0 ? S_IFREG | mode : mode, data, mtime, ctime: now() });
  }

  /** As if the file had last been written `seconds` ago (its mtime and ctime move back), for tests. */
  backdate(path: string, seconds: number): void {
    const f = this.files.get(normalize(path));
    if (!f) throw new Error(`${path}: No such file or directory`);
    f.mtime -= seconds;
    f.ctime -= seconds;
  }

  remove(path: string): boolean {
    return this.files.delete(normalize(path));
  }

  list(dir: string): ListedEntry[] | undefined {
    const d = normalize(dir);
    if (!this.dirs.has(d)) return undefined;
    const prefix = d === '/' ? '/' : `${d}/`;
    const out: ListedEntry[] = [];
    for (const sub of this.dirs) {
      if (sub !== d && sub.startsWith(prefix) && !sub.slice(prefix.length).includes('/')) out.push({ name: sub.slice(prefix.length), mode: S_IFDIR | 0o771, size: 4096, mtime: 0, ctime: 0 });
    }
    for (const [path, f] of this.files) {
      if (path.startsWith(prefix) && !path.slice(prefix.length).includes('/')) out.push({ name: path.slice(prefix.length), mode: f.mode, size: f.data.length, mtime: f.mtime, ctime: f.ctime });
    }
    return out;
  }
}

const now = (): number => Math.floor(Date.now() / 1000);

function normalize(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed.replace(/\/+/g, '/');
}
