import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { scrcpyServerJar } from '../../src/engine/drivers/android/scrcpy/server-jar.js';
import { DEMO_PACKAGE } from '../../src/engine/drivers/virtual/index.js';
import type { Engine } from '../../src/engine/engine.js';
import type { UiElement } from '../../src/engine/types.js';
import { handleOf, hasFfmpeg, openFails, slowInputServices, take, until } from './scrcpy-support.js';
import { hasAdb, startRig, type AndroidRig } from './setup.js';

const test = suite<{ rig?: AndroidRig }>('scrcpy fallback reasons and recovery');
const ready = hasAdb() && hasFfmpeg();

test.before(async (ctx) => {
  if (ready) ctx.rig = await startRig();
});
test.after(async (ctx) => {
  await ctx.rig?.stop();
});
test.after.each(({ rig }) => {
  if (!rig) return;
  rig.phone.scrcpy.faults = {};
  rig.phone.adbd.faults = {};
  rig.phone.shell.quirks.injectionDenied = false;
  rig.phone.scrcpy.android = { api: 34, release: rig.phone.phone.info.version };
});

/** An engine of its own per test, so no session of another test is reused. */
const engineFor = (rig: AndroidRig, scrcpy: object = {}): Engine => rig.engineWith({ scrcpy: { graceMs: 200, bindTimeoutMs: 1_500, ...scrcpy } });

/** An engine on the rig's phone with the demo app on its sign-in screen; `call` runs a tool on that phone. */
async function onSignIn(rig: AndroidRig, scrcpy: object = {}): Promise<{ engine: Engine; call: (tool: string, params: object) => Promise<Record<string, unknown>> }> {
  const engine = engineFor(rig, scrcpy);
  const call = (tool: string, params: object) => engine.call(tool, { device: rig.phone.serial, ...params }) as Promise<Record<string, unknown>>;
  await call('mobile_launch_app', { packageName: DEMO_PACKAGE });
  await call('mobile_open_url', { url: 'mbdemo://screen/signin' });
  return { engine, call };
}

/** With scrcpy's video running (its control socket open) and the e-mail field of the sign-in screen focused through it. */
async function typingOverScrcpy(rig: AndroidRig, work: (call: (tool: string, params: object) => Promise<Record<string, unknown>>) => Promise<void>): Promise<void> {
  const { engine, call } = await onSignIn(rig, { restartAfterMs: 60_000 });
  const video = await (await handleOf(rig, engine)).openVideo!({ maxSize: 1200, maxFps: 30 });
  try {
    await take(video, 2);
    const email = (((await call('mobile_list_elements_on_screen', {})).elements as UiElement[]).find((e) => e.id === 'email'))!;
    assert.is((await call('mobile_click_on_screen_at_coordinates', email.center)).status, 'success');
    await work(call);
  } finally {
    await video.close();
  }
}

async function opensAgain(rig: AndroidRig, engine: Engine): Promise<void> {
  const video = await (await handleOf(rig, engine)).openVideo!({ maxSize: 1200, maxFps: 30 });
  const [config, key] = await take(video, 2);
  assert.ok(config.config && key.key, 'video works on the next attempt, without a restart');
  await video.close();
}

const noServerLeft = (rig: AndroidRig) => until(() => rig.phone.scrcpy.servers === 0, 'no scrcpy server left on the phone');

test('the jar is checked before any push: a missing or altered jar is refused with the reason', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mb-jar-'));
  try {
    const altered = path.join(dir, 'scrcpy-server.jar');
    fs.writeFileSync(altered, 'not the release');
    assert.throws(() => scrcpyServerJar(() => altered), /SHA-256 [0-9a-f]{64}, not the release's a0f70b20/);
    assert.throws(() => scrcpyServerJar(() => path.join(dir, 'absent.jar')), /scrcpy-server 3\.3\.1 is not installed/);
    assert.is(scrcpyServerJar().length > 50_000, true, 'the packaged jar passes');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('altered jar: openVideo rejects with the hash mismatch and pushes nothing', async ({ rig }) => {
  if (!rig) return;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mb-jar-'));
  try {
    const altered = path.join(dir, 'scrcpy-server.jar');
    fs.writeFileSync(altered, 'not the release');
    const engine = engineFor(rig, { serverJar: () => scrcpyServerJar(() => altered) });
    rig.phone.stats.reset();
    assert.match(await openFails(rig, engine), /has SHA-256 [0-9a-f]{64}, not the release's/);
    assert.ok(!rig.phone.stats.opened.includes('sync:'), 'nothing pushed');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('push refused: openVideo rejects with the reason, works once the device accepts pushes again, and stops after the grace period', async ({ rig }) => {
  if (!rig) return;
  const engine = engineFor(rig);
  rig.phone.adbd.faults = { refuse: /^sync:/ };
  assert.match(await openFails(rig, engine), /pushing scrcpy-server to .* failed/);
  rig.phone.adbd.faults = {};
  await opensAgain(rig, engine);
  await noServerLeft(rig);
});

test('version mismatch: the server prints it and exits; the reason reaches the caller', async ({ rig }) => {
  if (!rig) return;
  const engine = engineFor(rig);
  rig.phone.scrcpy.faults = { version: '3.3' };
  assert.match(await openFails(rig, engine), /The server version \(3\.3\) does not match the client \(3\.3\.1\)/);
  await noServerLeft(rig);
  rig.phone.scrcpy.faults = {};
  await opensAgain(rig, engine);
});

test('no video encoder: the server logs why and closes its sockets before any header; openVideo rejects with that line', async ({ rig }) => {
  if (!rig) return;
  const engine = engineFor(rig);
  rig.phone.scrcpy.faults = { noEncoder: true };
  assert.match(await openFails(rig, engine), /did not start its video: Could not create default video encoder for h264$/);
  await noServerLeft(rig);
});

test('socket never bound: a timeout with the reason, and the waiting server is not left behind', async ({ rig }) => {
  if (!rig) return;
  // The socket never opens, so the bind timeout always runs out: a short one.
  const engine = engineFor(rig, { bindTimeoutMs: 500 });
  rig.phone.scrcpy.faults = { neverBind: true };
  assert.match(await openFails(rig, engine), /never opened localabstract:scrcpy_[0-9a-f]{8}/);
  await noServerLeft(rig);
});

test('server death mid-stream breaks the packet iterator with the reason; the next openVideo starts a new server', async ({ rig }) => {
  if (!rig) return;
  const engine = engineFor(rig, { restartAfterMs: 60_000 });
  const video = await (await handleOf(rig, engine)).openVideo!({ maxSize: 1200, maxFps: 30 });
  const it = video.packets()[Symbol.asyncIterator]();
  await take(it, 2);
  rig.phone.scrcpy.kill();
  const broke = await take(it, 1_000, 10_000).then(() => 'no break', (err: Error) => err.message);
  assert.match(broke, /scrcpy-server on .* stopped/);
  await video.close();
  await opensAgain(rig, engine);
});

test('a death after encoder errors the server recovered from is not blamed on them: the reason is the latest failure, or plainly unknown', async ({ rig }) => {
  if (!rig) return;
  const engine = engineFor(rig, { restartAfterMs: 60_000 });
  const handle = await handleOf(rig, engine);
  const broken = (it: AsyncIterator<unknown>) => take(it as AsyncIterator<never>, 1_000, 10_000).then(() => 'no break', (err: Error) => err.message);
  // MediaCodec.configure refuses 544x1200 (retried at -m1024), then the codec fails once mid-stream (retried at once).
  rig.phone.scrcpy.faults = { encoderMaxSize: 1100 };
  let video = await handle.openVideo!({ maxSize: 1200, maxFps: 30 });
  try {
    let it = video.packets()[Symbol.asyncIterator]();
    await take(it, 2);
    rig.phone.scrcpy.faults.encoderErrors = 1;
    let packet = (await take(it, 1))[0];
    while (!packet.config) packet = (await take(it, 1))[0];
    assert.ok((await take(it, 1))[0].key, 'the restarted encoder streams again');
    rig.phone.scrcpy.kill();
    const killed = await broken(it);
    assert.match(killed, /scrcpy-server on .* stopped: .*the server printed no error, so the cause is unknown/);
    assert.not.match(killed, /Capture\/encoding error/, 'not an error the server had recovered from');
    await video.close();

    // Three codec failures in a row: SurfaceEncoder gives up, and that is the reason, not the configure error before.
    video = await handle.openVideo!({ maxSize: 1200, maxFps: 30 });
    it = video.packets()[Symbol.asyncIterator]();
    await take(it, 2);
    rig.phone.scrcpy.faults.encoderErrors = 3;
    const failed = await broken(it);
    assert.match(failed, /scrcpy-server on .* stopped: Capture\/encoding error: java\.lang\.IllegalStateException/);
    assert.not.match(failed, /CodecException/);
  } finally {
    await video.close();
  }
});

test('a server that dies after streaming a while is restarted for its viewer: a new configuration and key frame follow', async ({ rig }) => {
  if (!rig) return;
  const engine = engineFor(rig, { restartAfterMs: 0 });
  const video = await (await handleOf(rig, engine)).openVideo!({ maxSize: 1200, maxFps: 30 });
  try {
    const it = video.packets()[Symbol.asyncIterator]();
    await take(it, 2);
    const launches = rig.phone.scrcpy.launches;
    rig.phone.scrcpy.kill();
    let packet = (await take(it, 1))[0];
    while (!packet.config) packet = (await take(it, 1))[0];
    assert.ok((await take(it, 1))[0].key, 'a key frame right after the new configuration');
    assert.is(rig.phone.scrcpy.launches, launches + 1);
  } finally {
    await video.close();
  }
});

test('injection refused: the server logs it and keeps streaming; the refused tap is not reported as done but goes through monkey/input, and so does all later input', async ({ rig }) => {
  if (!rig) return;
  const { engine, call } = await onSignIn(rig, { restartAfterMs: 60_000 });
  const video = await (await handleOf(rig, engine)).openVideo!({ maxSize: 1200, maxFps: 30 });
  try {
    const it = video.packets()[Symbol.asyncIterator]();
    await take(it, 2);
    const server = rig.phone.scrcpy.launches;
    // Only scrcpy's injector is refused here, so the fallback's effect on the app can be seen.
    rig.phone.scrcpy.faults = { refuseInjection: true };
    rig.phone.stats.reset();
    const email = (((await call('mobile_list_elements_on_screen', {})).elements as { id: string; center: object }[]).find((e) => e.id === 'email'))!;
    assert.is((await call('mobile_click_on_screen_at_coordinates', email.center)).status, 'success');
    assert.is(rig.phone.phone.focusedField, 'email', 'the tap reached the app, through another path');
    assert.ok(slowInputServices(rig.phone.stats.opened).length > 0, 'through monkey/input');
    assert.is((await call('mobile_type_keys', { text: 'a@b.c' })).status, 'success');
    assert.is(rig.phone.phone.fieldValue('email'), 'a@b.c');
    assert.equal(rig.phone.scrcpy.injected, [], 'scrcpy injected nothing');
    await take(it, 3);
    assert.ok(rig.phone.scrcpy.alive.includes(server), 'the server and its video keep running');
  } finally {
    await video.close();
  }
});

test('injection refused, first logged when the server woke the screen at start: that line counts, so the next tap within the 3 s the refusal is not logged again goes another way instead of "success"', async ({ rig }) => {
  if (!rig) return;
  const { engine, call } = await onSignIn(rig, { restartAfterMs: 60_000 });
  const email = (((await call('mobile_list_elements_on_screen', {})).elements as { id: string; center: object }[]).find((e) => e.id === 'email'))!;
  // Controller.control presses POWER before reading any message when the screen is off; the refusal is logged then.
  rig.phone.scrcpy.faults = { refuseInjection: true };
  rig.phone.shell.quirks.screenOff = true;
  const video = await (await handleOf(rig, engine)).openVideo!({ maxSize: 1200, maxFps: 30 });
  try {
    await take(video, 2);
    rig.phone.shell.quirks.screenOff = false;
    const tap = await call('mobile_click_on_screen_at_coordinates', email.center);
    assert.is(tap.status, 'success', JSON.stringify(tap));
    assert.is(rig.phone.phone.focusedField, 'email', 'the tap reached the app, through another path');
    assert.equal(rig.phone.scrcpy.injected, [], 'scrcpy injected nothing');
  } finally {
    rig.phone.shell.quirks.screenOff = false;
    await video.close();
  }
});

test('a server that never logs the input probe: found out when the channel opens, so the first tap goes through monkey/input at once, not "maybe done" after it was sent', async ({ rig }) => {
  if (!rig) return;
  const { engine, call } = await onSignIn(rig, { restartAfterMs: 60_000 });
  rig.phone.scrcpy.faults = { silentSkips: true };
  const video = await (await handleOf(rig, engine)).openVideo!({ maxSize: 1200, maxFps: 30 });
  try {
    const it = video.packets()[Symbol.asyncIterator]();
    await take(it, 2);
    rig.phone.stats.reset();
    const email = (((await call('mobile_list_elements_on_screen', {})).elements as { id: string; center: object }[]).find((e) => e.id === 'email'))!;
    const tap = await call('mobile_click_on_screen_at_coordinates', email.center);
    assert.is(tap.status, 'success', JSON.stringify(tap));
    assert.is(rig.phone.phone.focusedField, 'email', 'the tap reached the app');
    assert.ok(slowInputServices(rig.phone.stats.opened).length > 0, 'through monkey/input');
    assert.equal(rig.phone.scrcpy.injected, [], 'nothing went over the unconfirmable channel');
  } finally {
    await video.close();
  }
});

test('injection refused on a MIUI phone (input refused too): taps, keys and text are PERMISSION_DENIED naming the setting, not success', async ({ rig }) => {
  if (!rig) return;
  const engine = engineFor(rig);
  const call = (tool: string, params: object) => engine.call(tool, { device: rig.phone.serial, ...params }) as Promise<Record<string, unknown>>;
  const video = await (await handleOf(rig, engine)).openVideo!({ maxSize: 1200, maxFps: 30 });
  try {
    await take(video, 2);
    rig.phone.scrcpy.faults = { refuseInjection: true };
    rig.phone.shell.quirks.injectionDenied = true;
    for (const [tool, params] of [
      ['mobile_click_on_screen_at_coordinates', { x: 540, y: 1100 }],
      ['mobile_press_button', { button: 'BACK' }],
      ['mobile_type_keys', { text: 'hello' }],
    ] as const) {
      const r = await call(tool, params);
      assert.is(r.code, 'PERMISSION_DENIED', `${tool}: ${JSON.stringify(r)}`);
      assert.match(String(r.message), /USB debugging \(Security settings\)/);
    }
  } finally {
    rig.phone.shell.quirks.injectionDenied = false;
    await video.close();
  }
});

test('touches before the capture starts (video header read, no configuration yet) wait for it, and take another path if it does not come: the server would take them unscaled', async ({ rig }) => {
  if (!rig) return;
  const call = (engine: Engine, tool: string, params: object) => engine.call(tool, { device: rig.phone.serial, ...params }) as Promise<Record<string, unknown>>;
  const engine = engineFor(rig, { bindTimeoutMs: 800 });
  await call(engine, 'mobile_launch_app', { packageName: DEMO_PACKAGE });
  await call(engine, 'mobile_open_url', { url: 'mbdemo://item/3' });
  const photo = (((await call(engine, 'mobile_list_elements_on_screen', {})).elements as UiElement[]).find((e) => e.id === 'detail_image'))!;
  const log = rig.phone.scrcpy.touchLog;
  log.length = 0;
  rig.phone.scrcpy.faults = { holdCapture: true };
  const refused = await call(engine, 'mobile_pinch_on_screen', { ...photo.center, scale: 2 });
  assert.is(refused.code, 'UNSUPPORTED', JSON.stringify(refused));
  assert.match(String(refused.message), /has not started its screen capture yet/);
  assert.equal(log, [], 'no touch went out');
  await noServerLeft(rig);

  // The capture starts while the pinch waits (well within the wait): the touches go out mapped.
  const patient = engineFor(rig, { bindTimeoutMs: 5_000 });
  const launches = rig.phone.scrcpy.launches;
  const pinch = call(patient, 'mobile_pinch_on_screen', { ...photo.center, scale: 2 });
  await until(() => rig.phone.scrcpy.alive.includes(launches + 1), 'the server to start');
  rig.phone.scrcpy.faults = {};
  const r = await pinch;
  assert.is(r.status, 'success', JSON.stringify(r));
  const downs = log.filter((l) => l.startsWith('down ')).map((l) => /^down (\d+),(\d+)/.exec(l)!.slice(1).map(Number));
  assert.is(downs.length, 2, log.join(' | '));
  for (const [x, y] of downs) assert.ok(x >= photo.x && x <= photo.x + photo.width && y >= photo.y && y <= photo.y + photo.height, `a finger on the photo, at device pixels: ${x},${y}`);
});

test('an encoder that refuses the requested size: the stream comes smaller than the video header said, and taps follow the stream', async ({ rig }) => {
  if (!rig) return;
  const { engine, call } = await onSignIn(rig);
  const field = ((await call('mobile_list_elements_on_screen', {})).elements as UiElement[]).find((e) => e.type === 'edittext')!;
  // SurfaceEncoder writes the header (544x1200) before MediaCodec.configure refuses it, then retries at -m1024.
  rig.phone.scrcpy.faults = { encoderMaxSize: 1100 };
  const video = await (await handleOf(rig, engine)).openVideo!({ maxSize: 1200, maxFps: 30 });
  try {
    const [config, key] = await take(video, 2);
    assert.equal([config.config, key.key, key.width, key.height], [true, true, 464, 1024]);
    const log = rig.phone.scrcpy.touchLog;
    log.length = 0;
    const r = await call('mobile_click_on_screen_at_coordinates', field.center);
    assert.is(r.status, 'success', JSON.stringify(r));
    assert.ok(!rig.phone.scrcpy.injected.some((e) => e.startsWith('dropped')), 'the touches carried the size the stream has');
    const [x, y] = /^down (\d+),(\d+)/.exec(log[0] ?? '')?.slice(1).map(Number) ?? [];
    assert.ok(Math.abs(x - field.center.x) <= 3 && Math.abs(y - field.center.y) <= 3, `${log[0]} for ${JSON.stringify(field.center)}`);
  } finally {
    await video.close();
  }
});

test('clipboard refused: Unicode typing is an error, not a success', async ({ rig }) => {
  if (!rig) return;
  const engine = engineFor(rig);
  const call = (tool: string, params: object) => engine.call(tool, { device: rig.phone.serial, ...params }) as Promise<Record<string, unknown>>;
  await call('mobile_launch_app', { packageName: DEMO_PACKAGE });
  rig.phone.scrcpy.faults = { refuseClipboard: true };
  const r = await call('mobile_type_keys', { text: '日本' });
  assert.is(r.status, 'error');
  assert.match(String(r.message), /refused to set its clipboard.*yet scrcpy pressed PASTE, which pasted .*what the clipboard held before: check the field/);
});

test('an injection that fails early in a text whose end is pasted: the paste\'s confirmation still counts it, so typing is an error, not success', async ({ rig }) => {
  if (!rig) return;
  await typingOverScrcpy(rig, async (call) => {
    // The "a" of "ab" throws inside InputManager.injectInputEvent; the rest (b, TAB, the pasted Zürich) goes in.
    rig.phone.scrcpy.faults = { invokeFails: 1 };
    const r = await call('mobile_type_keys', { text: 'ab\tZürich' });
    assert.is(r.status, 'error', JSON.stringify(r));
    assert.match(String(r.message), /failed to inject the input \(java\.lang\.IllegalArgumentException: Invalid input event\); it may have been performed only in part/);
  });
});

test('characters the key map has no keys for: scrcpy skips them and types the rest, so typing is UNSUPPORTED naming them, not success', async ({ rig }) => {
  if (!rig) return;
  await typingOverScrcpy(rig, async (call) => {
    rig.phone.scrcpy.faults = { untypable: '`~' };
    const r = await call('mobile_type_keys', { text: 'a`b~c`' });
    assert.is(r.code, 'UNSUPPORTED', JSON.stringify(r));
    assert.match(String(r.message), /typed the text without 3 characters \(u\+0060 u\+007e u\+0060\): its key character map has no keys for them, so scrcpy skipped them and typed the rest; the field holds an incomplete text/);
    assert.is(rig.phone.phone.fieldValue('email'), 'abc', 'the rest was typed, as on the device');
    // Only those characters: the channel stays in use, and the next text goes through it.
    rig.phone.scrcpy.injected.length = 0;
    const next = await call('mobile_type_keys', { text: 'd' });
    assert.is(next.status, 'success', JSON.stringify(next));
    assert.equal(rig.phone.scrcpy.injected, ['text d']);
  });
});

test('Android 6: scrcpy sets the clipboard but presses PASTE only from Android 7, so Unicode typing says it cannot, instead of reporting it typed', async ({ rig }) => {
  if (!rig) return;
  const { call } = await onSignIn(rig);
  const email = (((await call('mobile_list_elements_on_screen', {})).elements as UiElement[]).find((e) => e.id === 'email'))!;
  await call('mobile_click_on_screen_at_coordinates', email.center);
  rig.phone.scrcpy.android = { api: 23, release: '6.0.1' };
  const before = rig.phone.phone.fieldValue('email');
  const r = await call('mobile_type_keys', { text: '日本' });
  assert.is(r.code, 'UNSUPPORTED', JSON.stringify(r));
  assert.match(String(r.message), /runs Android 6\.0\.1: scrcpy sets the clipboard there but presses PASTE only from Android 7/);
  assert.is(rig.phone.phone.fieldValue('email'), before, 'nothing typed');
  assert.not.ok(rig.phone.scrcpy.clipboard === '日本', 'nothing sent: the clipboard is left alone');
});

test('no scrcpy: Unicode typing says why it cannot be done', async ({ rig }) => {
  if (!rig) return;
  const engine = engineFor(rig);
  rig.phone.scrcpy.faults = { version: '2.7' };
  const r = (await engine.call('mobile_type_keys', { device: rig.phone.serial, text: 'ß' })) as Record<string, unknown>;
  assert.is(r.code, 'UNSUPPORTED');
  assert.match(String(r.message), /cannot type non-ASCII text .*The server version \(2\.7\) does not match/);
});

test.run();
