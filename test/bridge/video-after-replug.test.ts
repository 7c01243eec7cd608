import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startBridge, type Bridge } from '../../src/bridge/index.js';
import { hasFfmpeg } from '../android/scrcpy-support.js';
import { hasAdb, startRig, type AndroidRig } from '../android/setup.js';
import { RawClient, until, type Json } from './helpers.js';

/**
 * The whole chain: bridge → engine → AndroidDriver → private adb server → emulated adbd and
 * scrcpy-server. Unplugging closes the driver's handle for the phone and replugging makes a new
 * one; live video used to keep asking the closed one, so it never came back (audit 23, h6 #1).
 */
const test = suite('bridge live video comes back after an Android phone is unplugged and plugged back in');

let rig: AndroidRig | undefined;
let bridge: Bridge | undefined;
let client: RawClient | undefined;
const logs: string[] = [];

test.after.each(async () => {
  await client?.close();
  await bridge?.close();
  await rig?.stop();
  client = bridge = rig = undefined;
});

/** Subscribes with h264, unplugs the phone until the driver lets it go, plugs it back, and checks that video returns. */
async function replug(retry: { retryMs: number; retryMaxMs: number }): Promise<void> {
  rig = await startRig();
  logs.length = 0;
  // The start timeout is long so that a slow first start on a busy machine still counts as video.
  bridge = await startBridge({
    engine: rig.engine,
    host: '127.0.0.1',
    port: 0,
    webRoot: '/nonexistent-mobilebridge-web',
    log: (line) => logs.push(line),
    video: { ...retry, startTimeoutMs: 10_000 },
  });
  const serial = rig.phone.serial;
  client = await RawClient.open(bridge.wsUrl);
  const c = client;
  const sub = await c.call('devices.subscribe', { device: serial, screen: { format: 'h264', maxFps: 10 } });
  const id = sub.subscription;
  const mine = (p: Json) => p.subscription === id;
  if (sub.format !== 'h264') await c.notification('stream.changed', (p) => mine(p) && p.format === 'h264', 15_000);
  await until('video frames before the unplug', () => c.frames.find((f) => f.header.format === 'h264' && f.header.key), 15_000);
  const launchesBefore = rig.phone.scrcpy.launches;
  assert.ok(launchesBefore >= 1, 'a scrcpy-server was started for the first subscriber');

  const port = rig.phone.adbd.port;
  await rig.phone.adbd.close();
  const down = await c.notification('stream.changed', (p) => mine(p) && p.format === 'jpeg', 15_000);
  assert.is(down.source, 'screencap');
  await c.notification('subscription.paused', mine, 15_000);
  // Replugged only once the driver let the phone go (offline or removed): that closes its handle.
  await c.notification('devices.changed', (p) => ((p.gone ?? []) as Json[]).some((g) => g.id === serial), 30_000);

  // Counted at the replug: video may come back (and send its first picture) before the subscription resumes.
  const after = c.frames.length;
  await rig.phone.adbd.listen(port);
  await c.notification('subscription.resumed', mine, 40_000);
  const videoLog = () => logs.filter((l) => /video/.test(l)).join('\n');
  const up = await c.notification('stream.changed', (p) => mine(p) && p.format === 'h264', 20_000).catch((err: Error) => {
    throw new Error(`${err.message}: video did not come back after the replug; the bridge logged:\n${videoLog()}`);
  });
  assert.equal(up, { subscription: id, device: serial, format: 'h264', source: 'scrcpy' });
  const first = await until('video frames after the replug', () => c.frames.slice(after).find((f) => f.header.format === 'h264'), 15_000);
  assert.ok(first.header.key && first.header.config, 'the first picture after the replug decodes on its own');
  assert.ok(rig.phone.scrcpy.launches > launchesBefore, `a new scrcpy-server was started (launches ${launchesBefore} → ${rig.phone.scrcpy.launches})`);
  assert.is(rig.phone.scrcpy.servers, 1, 'one scrcpy-server runs on the phone');
}

test('after a replug the bridge starts a new scrcpy-server and h264 subscribers get video again', async () => {
  if (!hasAdb() || !hasFfmpeg()) return;
  // Short retries: a retry after the replug must reach the new connection.
  await replug({ retryMs: 300, retryMaxMs: 600 });
});

test('video is tried again as soon as the replugged phone is back, not after the backoff', async () => {
  if (!hasAdb() || !hasFfmpeg()) return;
  // The next timed retry is a minute away, past every wait in replug(): only the return of the device can bring video back.
  await replug({ retryMs: 60_000, retryMaxMs: 60_000 });
});

test.run();
