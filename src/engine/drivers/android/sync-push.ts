import { untilAborted } from '../../deadline.js';
import { openDeviceStream, type TransportSource } from './adb-client.js';
import { SocketReader } from './socket-reader.js';

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
    const reader = new SocketReader(socket, 'the sync connection');
    socket.write(Buffer.concat(packets));
    const reply = Buffer.from(await untilAborted(signal, reader.readExactly(8)));
    const id = reply.toString('latin1', 0, 4);
    if (id === 'FAIL') throw new Error(Buffer.from(await untilAborted(signal, reader.readExactly(reply.readUInt32LE(4)))).toString('utf8'));
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
