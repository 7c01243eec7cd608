import type { Socket } from 'node:net';
import { untilAborted } from '../../deadline.js';
import { openDeviceStream, type TransportSource } from './adb-client.js';

/** adb's sync protocol caps one DATA packet at 64 KiB (file_sync_protocol.h SYNC_DATA_MAX). */
const DATA_MAX = 64 * 1024;

/**
 * Writes `data` to `path` on the device through the `sync:` service (adb's SYNC.TXT, v1): SEND with
 * "path,mode", DATA packets, DONE with the mtime, then the device's OKAY or FAIL with its reason.
 * adbkit's `push` takes no signal, so a device that stops answering held its caller for ever; here
 * the signal ends every wait and closes the connection.
 */
export async function pushBytes(device: TransportSource, data: Buffer, path: string, mode: number, signal: AbortSignal): Promise<void> {
  const socket = await openDeviceStream(device, 'sync:', signal);
  const onAbort = () => socket.destroy();
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    // adb sends st_mode, file type included (file_sync_client.cpp).
    const packets = [request('SEND', Buffer.from(`${path},${(mode & 0o7777) | 0o100000}`, 'utf8'))];
    for (let at = 0; at < data.length; at += DATA_MAX) packets.push(request('DATA', data.subarray(at, at + DATA_MAX)));
    packets.push(word('DONE', Math.floor(Date.now() / 1000)));
    socket.write(Buffer.concat(packets));
    const reply = await untilAborted(signal, readExactly(socket, 8));
    const id = reply.toString('latin1', 0, 4);
    if (id === 'FAIL') throw new Error((await untilAborted(signal, readExactly(socket, reply.readUInt32LE(4)))).toString('utf8'));
    if (id !== 'OKAY') throw new Error(`unexpected sync reply ${JSON.stringify(id)}`);
    socket.end(word('QUIT', 0));
  } catch (err) {
    socket.destroy();
    if (signal.aborted) throw signal.reason;
    throw err;
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

function word(id: string, value: number): Buffer {
  const b = Buffer.alloc(8);
  b.write(id, 0, 'latin1');
  b.writeUInt32LE(value >>> 0, 4);
  return b;
}

function request(id: string, body: Buffer): Buffer {
  return Buffer.concat([word(id, body.length), body]);
}

/** The next `n` bytes, or an error when the stream ends first. */
function readExactly(socket: Socket, n: number): Promise<Buffer> {
  if (n === 0) return Promise.resolve(Buffer.alloc(0));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let have = 0;
    const done = (err?: Error) => {
      socket.off('data', onData);
      socket.off('end', onEnd);
      socket.off('close', onEnd);
      socket.off('error', done);
      if (err) return reject(err);
      const all = Buffer.concat(chunks);
      // What came after belongs to the next read: put it back.
      if (all.length > n) socket.unshift(all.subarray(n));
      resolve(all.subarray(0, n));
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      have += chunk.length;
      if (have >= n) {
        socket.pause();
        done();
      }
    };
    const onEnd = () => done(new Error(`the device closed the sync connection after ${have} of ${n} bytes`));
    socket.on('data', onData);
    socket.once('end', onEnd);
    socket.once('close', onEnd);
    socket.once('error', done);
    socket.resume();
  });
}
