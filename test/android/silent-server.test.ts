import { createServer, type AddressInfo, type Socket } from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { AndroidDriver } from '../../src/engine/drivers/android/android-driver.js';

/**
 * SPEC §10: a slow source never holds anyone. An adb server that accepts connections and never
 * answers (wedged, or not adb at all) used to keep every listing's socket open for ever: one more per
 * retry in `serve`, and `mobilebridge devices` never exited.
 */

async function until(what: string, probe: () => boolean, state?: () => string, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what} (${state?.() ?? ''})`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** What `work` settled to, or 'still waiting' after a while: a test that fails must not hang. */
function settledWithin(work: Promise<string>): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string>((r) => (timer = setTimeout(() => r('still waiting'), 5000)));
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

test('an adb server that never answers: listings and the hot-plug feed let go of their sockets when given up', async () => {
  const open = new Set<Socket>();
  let accepted = 0;
  const silent = createServer((socket) => {
    accepted++;
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    socket.on('error', () => undefined);
    // Reads what it is sent (so that it sees the client hang up) and answers nothing.
    socket.resume();
  });
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  const { port } = silent.address() as AddressInfo;
  const driver = new AndroidDriver({ host: '127.0.0.1', port, reportUnreachable: true, uiServer: 'off' });
  try {
    // A listing whose deadline passes.
    const listing = driver.listDevices({ signal: AbortSignal.timeout(200) }).then(() => 'listed', () => 'gave up');
    assert.is(await settledWithin(listing), 'gave up');
    await until('the given-up listing closed its socket', () => accepted === 1 && open.size === 0, () => `accepted ${accepted}, open ${open.size}`);

    // A listing still waiting when the driver closes.
    const pending = driver.listDevices({ signal: new AbortController().signal }).then(() => 'listed', () => 'gave up');
    await until('the second listing connected', () => accepted === 2);
    await driver.close();
    assert.is(await settledWithin(pending), 'gave up');
    await until('the closed driver\'s listing closed its socket', () => open.size === 0);

    // The hot-plug feed waiting for the server's answer, then nobody watching any more.
    const stopWatching = driver.watch(() => undefined);
    await until('the feed connected', () => accepted === 3);
    stopWatching();
    await until('the feed closed its socket', () => open.size === 0);
  } finally {
    await driver.close();
    for (const socket of open) socket.destroy();
    await new Promise((r) => silent.close(r));
  }
});

test.run();
