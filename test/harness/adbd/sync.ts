import type { DeviceStream } from './adbd.js';
import { ByteQueue } from './byte-queue.js';
import type { DeviceFiles } from './files.js';

/**
 * The `sync:` service (AOSP adb SYNC.TXT, v1 only since we do not advertise stat_v2/ls_v2):
 * requests are a 4-byte id, a u32le length and a path; the byte stream ignores WRTE boundaries.
 */
export async function runSync(stream: DeviceStream, files: DeviceFiles): Promise<void> {
  const input = new ByteQueue(stream);
  for (;;) {
    const head = await input.read(8);
    if (!head) return;
    const id = head.toString('latin1', 0, 4);
    const arg = await input.read(head.readUInt32LE(4));
    if (!arg) return;
    const path = arg.toString('utf8');
    switch (id) {
      case 'STAT': {
        const st = files.stat(path);
        await stream.write(words('STAT', st?.mode ?? 0, st?.size ?? 0, st?.mtime ?? 0));
        break;
      }
      case 'LIST': {
        for (const e of files.list(path) ?? []) {
          const name = Buffer.from(e.name);
          await stream.write(Buffer.concat([words('DENT', e.mode, e.size, e.mtime, name.length), name]));
        }
        await stream.write(words('DONE', 0, 0, 0, 0));
        break;
      }
      case 'SEND':
        if (!(await receiveFile(stream, input, files, path))) return;
        break;
      case 'RECV': {
        const data = files.read(path);
        if (!data) {
          await fail(stream, `open failed: No such file or directory: ${path}`);
          break;
        }
        for (let at = 0; at < data.length; at += 64 * 1024) {
          const chunk = data.subarray(at, at + 64 * 1024);
          await stream.write(Buffer.concat([words('DATA', chunk.length), chunk]));
        }
        await stream.write(words('DONE', 0));
        break;
      }
      case 'QUIT':
        return;
      default:
        await fail(stream, `unknown sync request ${JSON.stringify(id)}`);
        return;
    }
  }
}

/** SEND carries `path,mode`, then DATA chunks, then DONE with the mtime. Returns false when the stream ended. */
async function receiveFile(stream: DeviceStream, input: ByteQueue, files: DeviceFiles, spec: string): Promise<boolean> {
  const comma = spec.lastIndexOf(',');
  const path = comma >= 0 ? spec.slice(0, comma) : spec;
  const mode = comma >= 0 ? Number(spec.slice(comma + 1)) : 0o644;
  const chunks: Buffer[] = [];
  for (;;) {
    const head = await input.read(8);
    if (!head) return false;
    const id = head.toString('latin1', 0, 4);
    const n = head.readUInt32LE(4);
    if (id === 'DATA') {
      const chunk = await input.read(n);
      if (!chunk) return false;
      chunks.push(Buffer.from(chunk));
    } else if (id === 'DONE') {
      try {
        files.write(path, Buffer.concat(chunks), mode, n);
        await stream.write(words('OKAY', 0));
      } catch (err) {
        await fail(stream, (err as Error).message);
      }
      return true;
    } else {
      await fail(stream, `expected DATA or DONE in SEND, got ${JSON.stringify(id)}`);
      return false;
    }
  }
}

function words(id: string, ...values: number[]): Buffer {
  const out = Buffer.alloc(4 + values.length * 4);
  out.write(id, 0, 'latin1');
  values.forEach((v, i) => out.writeUInt32LE(v >>> 0, 4 + i * 4));
  return out;
}

async function fail(stream: DeviceStream, message: string): Promise<void> {
  const text = Buffer.from(message);
  await stream.write(Buffer.concat([words('FAIL', text.length), text]));
}
