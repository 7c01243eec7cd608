import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DeviceVideo } from '../../src/bridge/video-hub.js';
import { VIDEO_DEFAULTS } from '../../src/bridge/video-settings.js';
import type { Engine } from '../../src/engine/engine.js';
import { handleOf, hasFfmpeg, openFails, take, until } from './scrcpy-support.js';
import { hasAdb, startRig, type AndroidRig } from './setup.js';

/** scrcpy 3.3.1's SurfaceEncoder writes the video header before it configures the encoder and starts the capture. */
const test = suite<{ rig?: AndroidRig }>('scrcpy: openVideo waits for the first picture, not the header');

test.before(async (ctx) => {
  if (hasAdb() && hasFfmpeg()) ctx.rig = await startRig();
});
test.after(async (ctx) => {
  await ctx.rig?.stop();
});
test.after.each(({ rig }) => {
  if (rig) rig.phone.scrcpy.faults = {};
});

const engineFor = (rig: AndroidRig, scrcpy: object = {}): Engine => rig.engineWith({ scrcpy: { graceMs: 200, bindTimeoutMs: 1_500, ...scrcpy } });
const noServerLeft = (rig: AndroidRig) => until(() => rig.phone.scrcpy.servers === 0, 'no scrcpy server left on the phone');

test('a capture that never starts after the header: openVideo rejects saying no picture came, and the server is stopped', async ({ rig }) => {
  if (!rig) return;
  const engine = engineFor(rig);
  rig.phone.scrcpy.faults = { holdCapture: true };
  const started = Date.now();
  assert.match(await openFails(rig, engine), /scrcpy-server on .* did not start its video: the encoder produced no picture within 1\.5 s$/);
  assert.ok(Date.now() - started < 4_000, `within the start timeout (${Date.now() - started} ms)`);
  await noServerLeft(rig);
});

test('an encoder that refuses every size SurfaceEncoder falls back to: openVideo rejects with the server\'s error, not a stream that breaks at once', async ({ rig }) => {
  if (!rig) return;
  const engine = engineFor(rig);
  // MediaCodec.configure refuses 1200, 1024 and 800; after -m800 there is no smaller fallback.
  rig.phone.scrcpy.faults = { encoderMaxSize: 700 };
  assert.match(await openFails(rig, engine), /did not start its video: Capture\/encoding error: android\.media\.MediaCodec\$CodecException: Error 0xfffffc0e/);
  await noServerLeft(rig);
});

test('a capture that starts late, within the timeout: openVideo resolves then, and its first packets are that configuration and key frame', async ({ rig }) => {
  if (!rig) return;
  const engine = engineFor(rig);
  rig.phone.scrcpy.faults = { holdCapture: true };
  const launches = rig.phone.scrcpy.launches;
  const captures = rig.phone.scrcpy.captures.length;
  let resolved = false;
  const opening = (await handleOf(rig, engine)).openVideo!({ maxSize: 1200, maxFps: 30 }).finally(() => (resolved = true));
  await until(() => rig.phone.scrcpy.alive.includes(launches + 1), 'the server to start');
  await new Promise((r) => setTimeout(r, 400));
  assert.not.ok(resolved, 'not open on the header alone');
  rig.phone.scrcpy.faults = {};
  const video = await opening;
  try {
    const [config, key] = await take(video, 2);
    assert.equal([config.config, key.key], [true, true]);
    // The consumer that waited got the first picture itself: no RESET_VIDEO (a second capture) was needed.
    assert.equal(rig.phone.scrcpy.captures.slice(captures), ['544x1200']);
  } finally {
    await video.close();
  }
});

test('the bridge does not flip a viewer between h264 and screenshots when every start fails after the header', async ({ rig }) => {
  if (!rig) return;
  const engine = engineFor(rig);
  const handle = await handleOf(rig, engine);
  rig.phone.scrcpy.faults = { encoderMaxSize: 700 };
  const routes: string[] = [];
  const video = new DeviceVideo(rig.phone.serial, {
    open: (maxFps) => handle.openVideo!({ maxSize: 1200, maxFps }),
    route: (_sub, r) => routes.push(r.live ? 'live' : r.reason),
    deviceSize: () => ({ width: 1080, height: 2400 }),
    log: () => undefined,
  }, { ...VIDEO_DEFAULTS, retryMs: 300, retryMaxMs: 600 });
  try {
    await video.add({ id: 's', delivering: false, session: {}, screen: { maxFps: 30 } } as never);
    await until(() => video.stats().failures >= 2, 'two failed starts', 10_000);
    assert.not.ok(routes.includes('live'), routes.join(' | '));
    assert.match(routes[0], /video could not start: .*Capture\/encoding error/);
  } finally {
    await video.stop();
  }
});

test.run();
