/** The emulated device's file system: enough for push, pull, stat and listing of the folders adb and adbkit use. */
export const S_IFREG = 0o100000;
export const S_IFDIR = 0o040000;

export interface FileEntry {
  mode: number;
  data: Buffer;
  mtime: number;
}

export class DeviceFiles {
  private readonly files = new Map<string, FileEntry>();
  private readonly dirs = new Set(['/', '/data', '/data/local', '/data/local/tmp', '/sdcard', '/sdcard/Download']);

  stat(path: string): { mode: number; size: number; mtime: number } | undefined {
    const p = normalize(path);
    if (this.dirs.has(p)) return { mode: S_IFDIR | 0o771, size: 4096, mtime: 0 };
    const f = this.files.get(p);
    return f && { mode: f.mode, size: f.data.length, mtime: f.mtime };
  }

  read(path: string): Buffer | undefined {
    return this.files.get(normalize(path))?.data;
  }

  write(path: string, data: Buffer, mode = S_IFREG | 0o644, mtime = Math.floor(Date.now() / 1000)): void {
    const p = normalize(path);
    const parent = p.slice(0, p.lastIndexOf('/')) || '/';
    if (!this.dirs.has(parent)) throw new Error(`${parent}: No such file or directory`);
    this.files.set(p, { mode: (mode & 0o170000) === 0 ? S_IFREG | mode : mode, data, mtime });
  }

  remove(path: string): boolean {
    return this.files.delete(normalize(path));
  }

  list(dir: string): { name: string; mode: number; size: number; mtime: number }[] | undefined {
    const d = normalize(dir);
    if (!this.dirs.has(d)) return undefined;
    const prefix = d === '/' ? '/' : `${d}/`;
    const out: { name: string; mode: number; size: number; mtime: number }[] = [];
    for (const sub of this.dirs) {
      if (sub !== d && sub.startsWith(prefix) && !sub.slice(prefix.length).includes('/')) out.push({ name: sub.slice(prefix.length), mode: S_IFDIR | 0o771, size: 4096, mtime: 0 });
    }
    for (const [path, f] of this.files) {
      if (path.startsWith(prefix) && !path.slice(prefix.length).includes('/')) out.push({ name: path.slice(prefix.length), mode: f.mode, size: f.data.length, mtime: f.mtime });
    }
    return out;
  }
}

function normalize(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed.replace(/\/+/g, '/');
}
