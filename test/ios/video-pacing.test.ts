import { suite } from 'uvu';
import * as assert from 'uvu/assert';

import { startBridge, type Bridge } from '../../src/bridge/index.js';
import { OpenedClients, RawClient, until } from '../bridge/helpers.js';
import { makeRig, SIM_UDID, type Rig } from './rig.js';

/**
 * Full-width `jpeg` subscribers on iOS get WDA's MJPEG pictures. They used to get every part WDA
 * sent: their own maxFps ignored, a still screen sent again and again with new seqs, and the first
 * subscriber's maxFps setting WDA's framerate for everyone after it (audit 24, b3 #1).
 */
const test = suite('iOS live video: each MJPEG subscriber at its own maxFps, a still screen sent once');

let rig: Rig | undefined;
let bridge: Bridge | undefined;
const clients = new OpenedClients();

test.after.each(async () => {
  await clients.closeAll();
  await bridge?.close();
  bridge = undefined;
  await rig?.close().catch(() => undefined);
  rig = undefined;
});

async function setUp(): Promise<void> {
  rig = await makeRig();
  bridge = await startBridge({ engine: rig.engine, port: 0, webRoot: '/nonexistent', log: () => {} });
}

function client(): Promise<RawClient> {
  return clients.open(bridge!.wsUrl);
}

/** Waits until WebDriverAgent's MJPEG server sent `n` more parts. */
function parts(n: number): Promise<number> {
  const target = rig!.wda.mjpeg.partsSent + n;
  return until(`${n} more MJPEG parts`, () => rig!.wda.mjpeg.partsSent >= target && rig!.wda.mjpeg.partsSent, 10_000);
}

test('a still screen is sent once: WDA’s identical parts get no new seq and are not sent', async () => {
  await setUp();
  const c = await client();
  const sub = await c.call('devices.subscribe', { device: SIM_UDID, screen: { format: 'jpeg', maxFps: 30 } });
  assert.is(sub.source, 'wda-mjpeg');
  await until('the first picture', () => c.frames.length > 0, 8000);
  // The first parts may still come at the scale WDA had before the settings (as on a real WDA).
  await parts(5);
  const settled = c.frames.length;
  await parts(15);
  assert.is(c.frames.length, settled, `no picture sent for 15 parts of a still screen (got ${c.frames.length - settled})`);
  const images = new Set(c.frames.map((f) => Buffer.from(f.image).toString('base64')));
  assert.is(images.size, c.frames.length, 'every picture sent differs from the others');
  assert.ok((bridge!.hub.stats().video[SIM_UDID]?.unchanged ?? 0) >= 15);
});

test('a subscriber is sent pictures no faster than its own maxFps while another takes them at 30', async () => {
  await setUp();
  const fast = await client();
  const slow = await client();
  const hello = await slow.call('session.hello', { client: 'slow viewer' });
  await fast.call('devices.subscribe', { device: SIM_UDID, screen: { format: 'jpeg', maxFps: 30 } });
  const sub = await slow.call('devices.subscribe', { device: SIM_UDID, screen: { format: 'jpeg', maxFps: 2 } });
  assert.equal([sub.source, (sub.screen as { maxFps: number }).maxFps], ['wda-mjpeg', 2]);
  // When the bridge sends, not when the test reads (a busy loop would bunch arrivals).
  const conn = bridge!.sessions.get(hello.session as string)!.connection!;
  const sentAt: number[] = [];
  const send = conn.sendBinary.bind(conn);
  conn.sendBinary = (...args) => {
    sentAt.push(performance.now());
    send(...args);
  };
  assert.is(rig!.wda.mjpeg.settings.mjpegServerFramerate, 30);
  await rig!.call('mobile_open_url', { url: 'mbdemo://screen/home' });
  // Every swipe changes the screen, so WDA's parts differ and both subscribers have news to get.
  for (let i = 0; sentAt.length < 5; i++) {
    assert.is((await rig!.call('mobile_swipe_on_screen', { direction: i % 10 < 5 ? 'up' : 'down', distance: 60 })).status, 'success');
    assert.ok(i < 2000, 'the slow subscriber got 5 pictures');
  }
  const gaps = sentAt.slice(1).map((t, i) => t - sentAt[i]);
  // Half an interval is the least the pacing allows between two sends (frame-pacing.ts dueIn); a busy machine only lengthens them.
  assert.ok(Math.min(...gaps) >= 250 - 1, `sends to the 2 fps subscriber ${gaps.map((g) => g.toFixed(0)).join(', ')} ms apart`);
  assert.ok(fast.frames.length > slow.frames.length, `the 30 fps subscriber got more (${fast.frames.length} vs ${slow.frames.length})`);
});

test('a faster subscriber joining raises WDA’s framerate in place, and its leaving lowers it again', async () => {
  await setUp();
  const agent = await client();
  const viewer = await client();
  await agent.call('devices.subscribe', { device: SIM_UDID, screen: { format: 'jpeg', maxFps: 1 } });
  assert.is(rig!.wda.mjpeg.settings.mjpegServerFramerate, 1);
  const sub = await viewer.call('devices.subscribe', { device: SIM_UDID, screen: { format: 'h264', maxFps: 30 } });
  assert.equal([sub.format, sub.source], ['jpeg', 'wda-mjpeg']);
  await until('WDA’s framerate raised to 30', () => rig!.wda.mjpeg.settings.mjpegServerFramerate === 30, 8000);
  assert.is(bridge!.hub.stats().video[SIM_UDID]?.starts, 1, 'raised without reopening the stream');
  assert.is(rig!.wda.mjpeg.clients, 1);
  await viewer.call('devices.unsubscribe', { subscription: sub.subscription });
  await until('WDA’s framerate back to 1', () => rig!.wda.mjpeg.settings.mjpegServerFramerate === 1, 8000);
});

test.run();
