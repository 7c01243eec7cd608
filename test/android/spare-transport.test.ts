import net from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createAdbClient, execOnDevice, type Connection } from '../../src/engine/drivers/android/adb-client.js';
import { SpareTransport } from '../../src/engine/drivers/android/spare-transport.js';
import { hasAdb, startRig, until, type AndroidRig } from './setup.js';

const signal = () => AbortSignal.timeout(10_000);
const settle = () => new Promise((r) => setTimeout(r, 50));
/**
 * A few lines of the adb server's smart socket (a 4-hex-digit length, then the request; OKAY or
 * FAIL with a length-prefixed message): `host:transport:` is accepted, `exec:` is answered by
 * `answer(n)` for the n-th connection, which either refuses or prints and closes.
 */
async function fakeAdbServer(answer: (connection: number) => 'fail' | string) {
  const state = { connections: 0, ran: [] as number[], ended: 0 };
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    const n = ++state.connections;
    sockets.add(socket);
    socket.on('close', () => (state.ended++, sockets.delete(socket)));
    let buffered = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      buffered = Buffer.concat([buffered, chunk]);
      while (buffered.length >= 4) {
        const length = parseInt(buffered.subarray(0, 4).toString('ascii'), 16);
        if (buffered.length < 4 + length) return;
        const request = buffered.subarray(4, 4 + length).toString('utf8');
        buffered = buffered.subarray(4 + length);
        if (request.startsWith('host:transport:')) socket.write('OKAY');
        else if (request.startsWith('exec:')) {
          const reply = answer(n);
          if (reply === 'fail') socket.write('FAIL0012device offline (x)');
          else {
            state.ran.push(n);
            socket.end(`OKAY${reply}`);
          }
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    state,
    device: createAdbClient({ host: '127.0.0.1', port, source: 'test' }, undefined).getDevice('fake-1'),
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const spare = suite('spare adb connections (opened before the next command)');

spare('the next command starts on the connection opened after the previous one', async () => {
  const fake = await fakeAdbServer((n) => `out ${n}`);
  const connections = new SpareTransport(fake.device);
  try {
    assert.is((await execOnDevice(connections, 'echo', signal())).toString(), 'out 1');
    await until(() => fake.state.connections === 2, 'a spare opened once the command was over');
    assert.is((await execOnDevice(connections, 'echo', signal())).toString(), 'out 2', 'ran on the spare');
    await until(() => fake.state.connections === 3, 'the next spare opened');
  } finally {
    connections.close();
    await fake.close();
  }
});

spare('a spare the server refuses is asked again on a new connection, and the command runs once', async () => {
  const fake = await fakeAdbServer((n) => (n === 2 ? 'fail' : `out ${n}`));
  const connections = new SpareTransport(fake.device);
  try {
    await execOnDevice(connections, 'echo', signal());
    await until(() => fake.state.connections === 2, 'a spare opened');
    assert.is((await execOnDevice(connections, 'echo', signal())).toString(), 'out 3');
    assert.equal(fake.state.ran, [1, 3]);
  } finally {
    connections.close();
    await fake.close();
  }
});

spare('a refusal on a new connection is the answer: the command fails with the server\'s message', async () => {
  const fake = await fakeAdbServer(() => 'fail');
  const connections = new SpareTransport(fake.device);
  try {
    await execOnDevice(connections, 'echo', signal()).then(
      () => assert.unreachable('a refused command succeeded'),
      (err: Error) => assert.match(err.message, /device offline/),
    );
    await until(() => fake.state.connections === 2, 'a spare opened');
    // The spare is refused too, then one new connection: the message is still the server's.
    await execOnDevice(connections, 'echo', signal()).then(
      () => assert.unreachable('a refused command succeeded'),
      (err: Error) => assert.match(err.message, /device offline/),
    );
    assert.equal(fake.state.ran, []);
  } finally {
    connections.close();
    await fake.close();
  }
});

spare('close() ends the spare and opens no other', async () => {
  const fake = await fakeAdbServer((n) => `out ${n}`);
  const connections = new SpareTransport(fake.device);
  try {
    await execOnDevice(connections, 'echo', signal());
    await until(() => fake.state.connections === 2, 'a spare opened');
    connections.close();
    await until(() => fake.state.ended === 2, 'the used connection and the spare closed');
    // Still usable afterwards, on connections of its own, without leaving spares behind.
    assert.is((await execOnDevice(connections, 'echo', signal())).toString(), 'out 3');
    await settle();
    assert.is(fake.state.connections, 3);
  } finally {
    await fake.close();
  }
});

spare('a spare that a closed server connection left dead is not used', async () => {
  const fake = await fakeAdbServer((n) => `out ${n}`);
  const connections = new SpareTransport(fake.device);
  let taken: Connection | undefined;
  try {
    await execOnDevice(connections, 'echo', signal());
    await until(() => fake.state.connections === 2, 'a spare opened');
    await fake.close().then(() => undefined, () => undefined); // the server went away and took the spare with it
    await until(() => fake.state.ended === 2, 'the server closed both connections');
    await settle();
    taken = await connections.transport().then((c) => c, () => undefined);
    assert.is(taken, undefined, 'no connection to a server that is gone');
  } finally {
    taken?.end();
    connections.close();
  }
});

const real = suite<{ rig?: AndroidRig }>('spare adb connections against the real adb server', {});
real.before(async (ctx) => {
  ctx.rig = await startRig();
});
real.after(async (ctx) => {
  await ctx.rig?.stop();
});

real('a spare switched to a phone that was unplugged and plugged in again is not what runs the command', async (ctx) => {
  const rig = ctx.rig!;
  const device = createAdbClient({ host: '127.0.0.1', port: rig.server.port, source: 'test' }, undefined).getDevice(rig.phone.serial);
  const connections = new SpareTransport(device);
  try {
    assert.match((await execOnDevice(connections, 'getprop ro.product.model', signal())).toString(), /Pixel/);
    await settle(); // the spare opens meanwhile
    await rig.server.disconnect(rig.phone.serial);
    await rig.server.connect(rig.phone.serial);
    assert.match((await execOnDevice(connections, 'getprop ro.product.model', signal())).toString(), /Pixel/);
    await rig.server.disconnect(rig.phone.serial);
    await settle();
    await execOnDevice(connections, 'getprop ro.product.model', signal()).then(
      () => assert.unreachable('a command ran on an unplugged phone'),
      (err: Error) => assert.match(err.message, /not found|offline|closed/i),
    );
    await rig.server.connect(rig.phone.serial);
  } finally {
    connections.close();
  }
});

spare.run();
if (hasAdb()) real.run();
