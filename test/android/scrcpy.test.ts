import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DEMO_PACKAGE } from '../../src/engine/drivers/virtual/index.js';
import type { UiElement } from '../../src/engine/types.js';
import { parseServerOptions } from '../harness/adbd/scrcpy/options.js';
import { decode, handleOf, hasFfmpeg, slowInputServices, take, until } from './scrcpy-support.js';
import { hasAdb, startRig, type AndroidRig } from './setup.js';

const test = suite<{ rig?: AndroidRig }>('scrcpy on the emulated phone: video and control socket');
const ready = hasAdb() && hasFfmpeg();

test.before(async (ctx) => {
  if (ready) ctx.rig = await startRig();
});
test.after(async (ctx) => {
  await ctx.rig?.stop();
});

/** An engine whose scrcpy stops 300 ms after its last use, with the demo app open at `url`; its tool calls on the phone. */
async function demoOnItsOwnScrcpy(rig: AndroidRig, url: string): Promise<(tool: string, params: object) => Promise<Record<string, unknown>>> {
  const engine = rig.engineWith({ scrcpy: { graceMs: 300 } });
  const call = (tool: string, params: object) => engine.call(tool, { device: rig.phone.serial, ...params }) as Promise<Record<string, unknown>>;
  await call('mobile_launch_app', { packageName: DEMO_PACKAGE });
  await call('mobile_open_url', { url });
  return call;
}

const find = async (rig: AndroidRig, id: string): Promise<UiElement> => {
  const els = (await rig.call('mobile_list_elements_on_screen')).elements as UiElement[];
  const e = els.find((x) => x.id === id);
  if (!e) throw new Error(`no element ${id}`);
  return e;
};

test('openVideo: the verified jar is pushed, the server starts with a hex scid, packets begin with config then key and decode', async ({ rig }) => {
  if (!rig) return;
  const video = await (await handleOf(rig)).openVideo!({ maxSize: 1200, maxFps: 30 });
  try {
    assert.is(video.codec, 'h264');
    assert.is(video.source, 'scrcpy');
    const packets = await take(video, 6);
    assert.is(rig.phone.scrcpy.ranJarSha256, 'a0f70b20aa4998fbf658c94118cd6c8dab6abbb0647a3bdab344d70bc1ebcbb8', 'the release jar was pushed and run');
    const launch = rig.phone.stats.opened.find((s) => s.includes('com.genymobile.scrcpy.Server'))!;
    const scid = /scid=([0-9a-f]{1,8})\b/.exec(launch)![1];
    // One jar per launch: the server unlinks the one it runs from, so a shared file could vanish under a second launch.
    const jarPath = `/data/local/tmp/scrcpy-server-${scid.padStart(8, '0')}.jar`;
    // Other launches' leftover jars are swept in the same shell line: no extra round trip.
    assert.ok(launch.startsWith(`shell:find /data/local/tmp -maxdepth 1 -type f -name 'scrcpy-server-${'[0-9a-f]'.repeat(8)}.jar' -cmin +10 -delete >/dev/null 2>&1; CLASSPATH=${jarPath} app_process / com.genymobile.scrcpy.Server 3.3.1 `), launch);
    assert.is(rig.phone.files.read(jarPath), undefined, 'and unlinked by the server (cleanup)');
    assert.match(launch, /tunnel_forward=true/);
    assert.match(launch, /audio=false/);
    assert.match(launch, /max_size=1200/);
    assert.match(launch, /max_fps=30/);
    assert.match(launch, /video_codec_options=i-frame-interval=2/);
    const words = launch.split(' com.genymobile.scrcpy.Server ')[1].split(' ');
    assert.equal(parseServerOptions(words).unknown, [], 'every option is one Options.parse of 3.3.1 knows (and parses without error)');
    assert.ok(rig.phone.stats.opened.includes(`localabstract:scrcpy_${scid.padStart(8, '0')}`), 'sockets named after the hex scid');
    assert.equal([packets[0].config, packets[0].key], [true, false], 'first: codec configuration');
    assert.equal([packets[1].config, packets[1].key], [false, true], 'second: key frame');
    assert.ok(packets.slice(2).every((p) => !p.config), 'then pictures');
    // 1080×2400 limited to 1200 and rounded to multiples of 8, as Size.limit().round8() does.
    assert.ok(packets.every((p) => p.width === 544 && p.height === 1200), `size ${packets[0].width}x${packets[0].height}`);
    assert.ok(packets.every((p) => p.data.subarray(0, 4).equals(Buffer.from([0, 0, 0, 1]))), 'Annex-B');
    assert.ok(packets.every((p) => Math.abs(p.capturedAt - Date.now()) < 30_000));
    const first = decode(Buffer.concat([packets[0].data, packets[1].data]));
    assert.equal([first.frames, first.width, first.height], [1, 544, 1200], `config + key decode on their own: ${first.error}`);
    const all = decode(Buffer.concat(packets.map((p) => p.data)));
    assert.is(all.frames, packets.length - 1, all.error);
  } finally {
    await video.close();
  }
});

test('taps, double tap, long press, swipe, keys and text go through the control socket: no input or monkey process', async ({ rig }) => {
  if (!rig) return;
  const video = await (await handleOf(rig)).openVideo!({ maxSize: 1200, maxFps: 30 });
  try {
    await take(video, 2);
    await rig.call('mobile_launch_app', { packageName: DEMO_PACKAGE });
    await rig.call('mobile_open_url', { url: 'mbdemo://screen/signin' });
    const email = await find(rig, 'email');
    const injected = rig.phone.scrcpy.injected;
    injected.length = 0;
    rig.phone.stats.reset();
    assert.is((await rig.call('mobile_click_on_screen_at_coordinates', email.center)).status, 'success');
    assert.is((await rig.call('mobile_type_keys', { text: 'ab c@d.e' })).status, 'success');
    await until(() => rig.phone.phone.fieldValue('email') === 'ab c@d.e', 'typed text in the field');
    assert.is((await rig.call('mobile_double_tap_on_screen', { x: 540, y: 1800 })).status, 'success');
    assert.is((await rig.call('mobile_long_press_on_screen_at_coordinates', { x: 540, y: 1800, duration: 1000 })).status, 'success');
    assert.is((await rig.call('mobile_swipe_on_screen', { direction: 'up' })).status, 'success');
    assert.is((await rig.call('mobile_press_button', { button: 'BACK' })).status, 'success');
    await until(() => injected.includes('key 4'), 'BACK');
    // Video space is 544x1200 for a 1080x2400 screen: coordinates survive the round trip within a pixel or two.
    const tap = /^tap (\d+),(\d+)$/.exec(injected[0]);
    assert.ok(tap, injected.join(' | '));
    assert.ok(Math.abs(Number(tap![1]) - email.center.x) <= 2 && Math.abs(Number(tap![2]) - email.center.y) <= 2, injected[0]);
    assert.equal(injected.filter((e) => e.startsWith('text')), ['text ab c@d.e']);
    assert.is(injected.filter((e) => e === 'tap 540,1800').length, 2, 'double tap');
    assert.ok(injected.some((e) => /^longPress 540,1800$/.test(e)), 'long press');
    assert.ok(injected.some((e) => e.startsWith('swipe ')), 'swipe as down-move-up');
    assert.equal(slowInputServices(rig.phone.stats.opened), [], 'no input/monkey service opened');
    assert.ok(!injected.some((e) => e.startsWith('dropped')), 'every event carried the current video size');
  } finally {
    await video.close();
  }
});

test('Unicode typing without a viewer: scrcpy starts for input, pastes through the clipboard, stops after the grace period', async ({ rig }) => {
  if (!rig) return;
  const call = await demoOnItsOwnScrcpy(rig, 'mbdemo://screen/signin');
  const before = rig.phone.scrcpy.launches;
  await call('mobile_click_on_screen_at_coordinates', (await find(rig, 'email')).center);
  const text = 'Zürich straße 東京 😀 ok';
  const r = await call('mobile_type_keys', { text });
  assert.is(r.status, 'success', JSON.stringify(r));
  await until(() => rig.phone.phone.fieldValue('email') === text, `every character in order, got ${JSON.stringify(rig.phone.phone.fieldValue('email'))}`);
  assert.is(rig.phone.scrcpy.launches, before + 1);
  assert.ok(rig.phone.scrcpy.injected.includes(`paste ${text}`), rig.phone.scrcpy.injected.join(' | '));
  await until(() => !rig.phone.scrcpy.alive.includes(before + 1), 'the server to stop after the grace period');
});

test('pasting text the clipboard already holds counts as typed: the server neither sets nor logs it again, but pastes', async ({ rig }) => {
  if (!rig) return;
  const call = await demoOnItsOwnScrcpy(rig, 'mbdemo://screen/signin');
  await call('mobile_click_on_screen_at_coordinates', (await find(rig, 'email')).center);
  for (const text of ['日本', '日本']) {
    const r = await call('mobile_type_keys', { text });
    assert.is(r.status, 'success', JSON.stringify(r));
  }
  // Copied on the phone while the session runs: the server's clipboard listener reports it (clipboard_autosync).
  rig.phone.scrcpy.copy('ß!');
  const r = await call('mobile_type_keys', { text: 'ß!' });
  assert.is(r.status, 'success', JSON.stringify(r));
  await until(() => rig.phone.phone.fieldValue('email') === '日本日本ß!', `each text once, got ${JSON.stringify(rig.phone.phone.fieldValue('email'))}`);
});

test('a line longer than a SET_CLIPBOARD may carry (256 KiB per control message) is pasted in pieces, each within the limit, none cut', async ({ rig }) => {
  if (!rig) return;
  const call = await demoOnItsOwnScrcpy(rig, 'mbdemo://screen/signin');
  await call('mobile_click_on_screen_at_coordinates', (await find(rig, 'email')).center);
  rig.phone.scrcpy.injected.length = 0;
  // 90 000 three-byte characters and an emoji: 270 004 bytes, over ControlMessageReader.CLIPBOARD_TEXT_MAX_LENGTH (2^18 - 14).
  const text = `${'日'.repeat(90_000)}😀`;
  const r = await call('mobile_type_keys', { text });
  assert.is(r.status, 'success', JSON.stringify(r));
  const pastes = rig.phone.scrcpy.injected.filter((e) => e.startsWith('paste ')).map((e) => e.slice('paste '.length));
  assert.is(pastes.length, 2, `pieces: ${pastes.map((p) => Buffer.byteLength(p)).join(', ')}`);
  assert.ok(pastes.every((p) => Buffer.byteLength(p) <= (1 << 18) - 14), 'each SET_CLIPBOARD within the protocol limit');
  assert.is(pastes.join(''), text, 'in order, no character split or lost');
  await until(() => rig.phone.phone.fieldValue('email') === text, 'the whole text in the field');
});

test('pinch: scrcpy starts for it, two pointers (the generic and the virtual finger) go down together, and the photo zooms', async ({ rig }) => {
  if (!rig) return;
  const call = await demoOnItsOwnScrcpy(rig, 'mbdemo://item/3');
  const photo = await find(rig, 'detail_image');
  const log = rig.phone.scrcpy.touchLog;
  log.length = 0;
  rig.phone.stats.reset();
  const r = await call('mobile_pinch_on_screen', { ...photo.center, scale: 2 });
  assert.is(r.status, 'success', JSON.stringify(r));
  await until(() => rig.phone.scrcpy.injected.some((e) => e.startsWith('pinch ')), 'the pinch at the server');
  const downs = log.filter((l) => l.startsWith('down '));
  // control_msg.h: SC_POINTER_ID_GENERIC_FINGER -2, SC_POINTER_ID_VIRTUAL_FINGER -3.
  assert.equal(downs.map((l) => l.split(' id=')[1]), ['-2', '-3'], log.join(' | '));
  assert.equal(slowInputServices(rig.phone.stats.opened), [], 'no input/monkey service opened');
  assert.is((await find(rig, 'zoom_level')).text, 'Zoom 200 %');
});

test('an aborted pinch lifts its fingers (the server frees a pointer only on ACTION_UP): the next tap is a tap, not a second finger', async ({ rig }) => {
  if (!rig) return;
  const engine = rig.engineWith({ scrcpy: { graceMs: 10_000 } });
  try {
    await engine.call('mobile_launch_app', { device: rig.phone.serial, packageName: DEMO_PACKAGE });
    await engine.call('mobile_open_url', { device: rig.phone.serial, url: 'mbdemo://item/3' });
    const { x, y } = (await find(rig, 'detail_image')).center;
    const handle = await handleOf(rig, engine);
    const log = rig.phone.scrcpy.touchLog;
    log.length = 0;
    const abort = new AbortController();
    const pinch = handle.pinch!([{ from: { x: x - 100, y }, to: { x: x - 300, y } }, { from: { x: x + 100, y }, to: { x: x + 300, y } }], 5_000, { signal: abort.signal });
    await until(() => log.some((l) => /^move .* id=-3$/.test(l)), 'the pinch under way');
    abort.abort(new Error('stopped by the test'));
    await pinch.then(() => assert.unreachable('the pinch should reject'), () => undefined);
    await until(() => log.filter((l) => l.startsWith('up ')).length === 2, `both fingers lifted: ${log.slice(-4).join(' | ')}`);
    assert.ok(log.filter((l) => l.startsWith('up ')).every((l) => / p=0\.00 /.test(l)), 'with pressure 0');
    const injected = rig.phone.scrcpy.injected;
    injected.length = 0;
    assert.is(((await engine.call('mobile_click_on_screen_at_coordinates', { device: rig.phone.serial, x: 540, y: 1800 })) as { status: string }).status, 'success');
    assert.ok(injected.includes('tap 540,1800'), `a one-finger tap at the server: ${injected.join(' | ')}`);
  } finally {
    await engine.close();
  }
});

test('a late consumer starts at a configuration and a key frame; rotation brings a new size, and taps follow it', async ({ rig }) => {
  if (!rig) return;
  const handle = await handleOf(rig);
  const first = await handle.openVideo!({ maxSize: 1200, maxFps: 30 });
  try {
    await take(first, 3);
    const late = await handle.openVideo!({ maxSize: 1200, maxFps: 30 });
    try {
      const [config, key] = await take(late, 2, 5_000);
      assert.equal([config.config, key.key], [true, true]);
      assert.is(decode(Buffer.concat([config.data, key.data])).frames, 1);
      rig.phone.scrcpy.injected.length = 0;
      rig.phone.stats.reset();
      await rig.call('mobile_set_orientation', { orientation: 'landscape' });
      // Right after rotating, before the video shows it: the tap must not go out with the old video size.
      await rig.call('mobile_click_on_screen_at_coordinates', { x: 1800, y: 300 });
      await until(() => rig.phone.scrcpy.injected.length > 0 || slowInputServices(rig.phone.stats.opened).length > 0, 'the tap right after rotating');
      assert.ok(!rig.phone.scrcpy.injected.some((e) => e.startsWith('dropped')), `no tap dropped for a stale size: ${rig.phone.scrcpy.injected.join(' | ')}`);
      const it = late.packets()[Symbol.asyncIterator]();
      let packet = (await take(it, 1))[0];
      while (packet.width !== 1200) packet = (await take(it, 1))[0];
      assert.equal([packet.config, packet.width, packet.height], [true, 1200, 544], 'new CONFIG with the rotated size');
      const [next] = await take(it, 1);
      assert.ok(next.key, 'then a key frame');
      rig.phone.scrcpy.injected.length = 0;
      await rig.call('mobile_click_on_screen_at_coordinates', { x: 2000, y: 500 });
      await until(() => rig.phone.scrcpy.injected.length > 0, 'the tap');
      assert.match(rig.phone.scrcpy.injected[0], /^tap (199\d|200\d),(49\d|50\d)$/);
    } finally {
      await late.close();
      await rig.call('mobile_set_orientation', { orientation: 'portrait' });
    }
  } finally {
    await first.close();
  }
});

test('a tap the server ignores for a stale video size (the phone rotated, its new configuration not read yet) is redone at the new size, not reported done', async ({ rig }) => {
  if (!rig) return;
  const scrcpy = rig.phone.scrcpy;
  const video = await (await handleOf(rig)).openVideo!({ maxSize: 1200, maxFps: 30 });
  const ctx = { signal: new AbortController().signal };
  try {
    await take(video, 3);
    // The encoder outputs nothing for now, so the client still has the portrait size when the server already maps landscape.
    scrcpy.faults = { holdOutput: true };
    const captures = scrcpy.captures.length;
    await rig.phone.phone.setOrientation('landscape', ctx);
    await until(() => scrcpy.captures.slice(captures).includes('1200x544'), 'the capture restarted landscape');
    scrcpy.injected.length = 0;
    const tap = rig.call('mobile_click_on_screen_at_coordinates', { x: 500, y: 500 });
    await until(() => scrcpy.injected.includes('dropped touch for 544x1200'), 'the tap made for the portrait video, ignored by the server');
    scrcpy.faults = {};
    assert.is((await tap).status, 'success');
    await until(() => scrcpy.injected.some((e) => e.startsWith('tap ')), `the tap redone: ${scrcpy.injected.join(' | ')}`);
    assert.equal(scrcpy.injected.filter((e) => !e.startsWith('dropped')), ['tap 500,500']);
  } finally {
    scrcpy.faults = {};
    await video.close();
    await rig.phone.phone.setOrientation('portrait', ctx);
  }
});

test('closing the engine leaves no scrcpy server on the phone', async ({ rig }) => {
  if (!rig) return;
  const engine = rig.engineWith({});
  const handle = await engine.withDevice(rig.phone.serial, 'h', async (d) => d);
  const video = await handle.openVideo!({ maxSize: 800, maxFps: 15 });
  await take(video, 2);
  const mine = rig.phone.scrcpy.launches;
  assert.ok(rig.phone.scrcpy.alive.includes(mine));
  await engine.close();
  await until(() => !rig.phone.scrcpy.alive.includes(mine), 'no server left');
  const after = await take(video, 1, 2_000).then(() => 'packet', (err: Error) => err.message);
  assert.match(after, /ended/, 'the stream ends with the engine');
});

test.run();
