import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startBridge } from '../../src/bridge/index.js';
import type { DevicesChangedParams } from '../../src/protocol/notifications.js';
import { connectBridge } from '../../src/protocol/node.js';
import { hasAdb, startRig } from './setup.js';

/**
 * Issue 16 item 9: a device whose adbd dies is announced offline within 2 s, with its state and a
 * reason, over the real adb server (whose track-devices feed alone says so only on reconnect).
 */

async function waitFor(changes: { at: number; c: DevicesChangedParams }[], test: (c: DevicesChangedParams) => boolean, what: string, ms: number): Promise<number> {
  const started = Date.now();
  for (;;) {
    const hit = changes.find((x) => test(x.c));
    if (hit) return hit.at;
    if (Date.now() - started > ms) throw new Error(`no devices.changed within ${ms} ms: ${what}; got ${JSON.stringify(changes.map((x) => x.c))}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function waitUntil(ok: () => boolean, what: string): Promise<void> {
  const end = Date.now() + 5000;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

// A suite of its own: tests on uvu's shared `test` that never run here would run with the next file's.
const offline = suite('a device going offline over the real adb server');

offline('a device whose adbd dies is announced offline within 2 s with state and reason, and comes back', async () => {
  const rig = await startRig();
  const bridge = await startBridge({ engine: rig.engine, host: '127.0.0.1', port: 0, webRoot: '/nonexistent-mobilebridge-web', log: () => undefined });
  const client = await connectBridge(bridge.wsUrl);
  const serial = rig.phone.serial;
  try {
    const changes: { at: number; c: DevicesChangedParams }[] = [];
    client.on('devices.changed', (p) => changes.push({ at: Date.now(), c: p as DevicesChangedParams }));
    await client.requestRaw('session.hello', { client: 'offline watcher' });
    const { devices } = (await client.requestRaw('tools.call', { tool: 'mobile_list_available_devices', parameters: {} })) as { devices: { id: string }[] };
    assert.ok(devices.some((d) => d.id === serial), 'the emulated phone is listed first');
    const paused: unknown[] = [];
    const resumed: unknown[] = [];
    client.on('subscription.paused', (p) => paused.push(p));
    client.on('subscription.resumed', (p) => resumed.push(p));
    await client.requestRaw('devices.subscribe', { device: serial, elements: true });

    const port = rig.phone.adbd.port;
    const killedAt = Date.now();
    await rig.phone.adbd.close();
    const announcedAt = await waitFor(changes, (c) => !!c.gone?.some((g) => g.id === serial), 'offline', 2000);
    assert.ok(announcedAt - killedAt <= 2000, `${announcedAt - killedAt} ms`);
    const change = changes.find((x) => x.c.gone?.some((g) => g.id === serial))!.c;
    const gone = change.gone!.find((g) => g.id === serial)!;
    assert.is(gone.state, 'offline');
    assert.match(gone.reason, serial);
    assert.match(gone.reason, /offline/);
    assert.ok(change.removed.includes(serial));
    assert.is(change.added.find((d) => d.id === serial)?.state, 'offline', 'still listed, as offline');
    await waitUntil(() => paused.length > 0, 'subscription.paused');
    await new Promise((r) => setTimeout(r, 300));
    assert.is(resumed.length, 0, 'an offline device listed again is not back: the subscription stays paused');

    changes.length = 0;
    await rig.phone.adbd.listen(port);
    // The adb server reconnects TCP devices by itself, within about 10 s.
    await waitFor(changes, (c) => c.added.some((d) => d.id === serial && d.state === 'ready'), 'back', 20_000);
    await waitUntil(() => resumed.length > 0, 'subscription.resumed');
    assert.equal((await client.requestRaw('tools.call', { tool: 'mobile_get_screen_size', parameters: { device: serial } })), { width: 1080, height: 2400 });
  } finally {
    await client.close();
    await bridge.close();
    await rig.stop();
  }
});

if (hasAdb()) offline.run();
