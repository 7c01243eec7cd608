import sharp from 'sharp';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Bridge } from '../../src/bridge/index.js';
import { ANDROID, RawClient, scrollChurn as churn, sleep, testBridge, until } from './helpers.js';

const test = suite('bridge frames');

let bridge: Bridge;

test.before.each(async () => {
  // A reader paused for seconds keeps its connection here; dropping one that stops reading is tested in frame-memory.test.ts.
  ({ bridge } = await testBridge({ frameStallMs: 60_000 }));
});

test.after.each(async () => {
  await bridge.close();
});

test('frames arrive, decode, and match mobile_get_screen_size at full width', async () => {
  const c = await RawClient.open(bridge.wsUrl);
  const size = await c.call('tools.call', { tool: 'mobile_get_screen_size', parameters: { device: ANDROID } });
  const sub = await c.call('devices.subscribe', { device: ANDROID, screen: { format: 'png' } });
  const frame = await until('a frame', () => c.frames[0]);
  assert.is(frame.header.subscription, sub.subscription);
  assert.is(frame.header.device, ANDROID);
  assert.is(frame.header.format, 'png');
  assert.is(frame.header.width, size.width);
  assert.is(frame.header.height, size.height);
  assert.is(frame.header.device_width, size.width);
  assert.ok(Math.abs(frame.header.captured_at - Date.now()) < 5000);
  const meta = await sharp(frame.image).metadata();
  assert.is(meta.format, 'png');
  assert.is(meta.width, size.width);
  assert.is(meta.height, size.height);
  // The frame is the screen: identical pixels to a screenshot taken through the tool. The status bar
  // shows the phone's clock, so when its minute turns between the two (a loaded CI machine took long
  // enough) the bridge sends the new screen as a frame, and that one must equal the screenshot.
  let same = false;
  for (let attempt = 0; attempt < 3 && !same; attempt++) {
    const seen = c.frames.length;
    const latest = c.frames[seen - 1];
    const shot = await c.call('tools.call', { tool: 'mobile_take_screenshot', parameters: { device: ANDROID } });
    const a = await sharp(latest.image).removeAlpha().raw().toBuffer();
    const b = await sharp(Buffer.from(shot.image as string, 'base64')).removeAlpha().raw().toBuffer();
    same = a.equals(b);
    if (!same) await until('a frame of the changed screen', () => c.frames.length > seen);
  }
  assert.ok(same, 'frame pixels equal the screenshot');
  await c.close();
});

test('maxWidth scales down (aspect kept, never up); jpeg and webp decode', async () => {
  const c = await RawClient.open(bridge.wsUrl);
  const jpeg = await c.call('devices.subscribe', { device: ANDROID, screen: { maxWidth: 540, format: 'jpeg', quality: 60 } });
  const webp = await c.call('devices.subscribe', { device: ANDROID, screen: { maxWidth: 5000, format: 'webp' } });
  const fj = await until('jpeg frame', () => c.frames.find((f) => f.header.subscription === jpeg.subscription));
  const fw = await until('webp frame', () => c.frames.find((f) => f.header.subscription === webp.subscription));
  assert.equal([fj.header.width, fj.header.height, fj.header.device_width, fj.header.device_height], [540, 1200, 1080, 2400]);
  assert.is((await sharp(fj.image).metadata()).format, 'jpeg');
  assert.is((await sharp(fj.image).metadata()).width, 540);
  assert.equal([fw.header.width, fw.header.height], [1080, 2400]);
  assert.is((await sharp(fw.image).metadata()).format, 'webp');
  await c.close();
});

test('an unchanged screen is not resent; a change is, with the next seq', async () => {
  const c = await RawClient.open(bridge.wsUrl);
  await c.call('tools.call', { tool: 'mobile_open_url', parameters: { device: ANDROID, url: 'mbdemo://screen/more' } });
  await c.call('devices.subscribe', { device: ANDROID, screen: { maxFps: 30, maxWidth: 270 } });
  await until('first frame', () => c.frames[0]);
  // Captures of the still screen after its first frame (30 a second; fewer on a busy machine).
  const captures = () => bridge.hub.stats().frames[ANDROID].captures;
  const first = captures();
  await until('five more captures', () => captures() >= first + 5, 10_000);
  assert.ok(c.frames.length <= 2, `${c.frames.length} frames for a still screen`);
  const before = c.frames.length;
  const seq = c.frames[before - 1].header.seq;
  await c.call('tools.call', { tool: 'mobile_open_url', parameters: { device: ANDROID, url: 'mbdemo://screen/home' } });
  const next = await until('a frame after the change', () => c.frames[before]);
  assert.is(next.header.seq, seq + 1);
  await c.close();
});

test('maxFps is honoured per subscriber while the screen changes continuously', async () => {
  const actor = await RawClient.open(bridge.wsUrl);
  const slow = await RawClient.open(bridge.wsUrl);
  const fast = await RawClient.open(bridge.wsUrl);
  // The slow subscriber's frames are timed where the bridge sends them: client and bridge share one
  // event loop here, and after a stall of it two frames sent 250 ms apart are read in one go.
  const slowHello = await slow.call('session.hello', { client: 'slow' });
  const conn = bridge.sessions.get(slowHello.session as string)!.connection!;
  const sentAt: number[] = [];
  const sendBinary = conn.sendBinary.bind(conn);
  conn.sendBinary = (...args) => (sentAt.push(performance.now()), sendBinary(...args));
  await slow.call('devices.subscribe', { device: ANDROID, screen: { maxFps: 4, maxWidth: 270 } });
  await fast.call('devices.subscribe', { device: ANDROID, screen: { maxFps: 30, maxWidth: 270 } });
  await until('frames', () => slow.frames[0] && fast.frames[0]);
  slow.frames.length = 0;
  fast.frames.length = 0;
  const c = churn(actor);
  const from = performance.now();
  const skipped = () => {
    const slowSeqs = new Set(slow.frames.map((f) => f.header.seq));
    return fast.frames.filter((f) => !slowSeqs.has(f.header.seq)).length;
  };
  // At least 1.5 s of changing screens, and until the fast subscriber got more of them, some the
  // slow one skipped (a busy machine draws fewer screens in that time).
  await sleep(1500);
  await until('more screens for the fast subscriber, some the slow one skipped', () => fast.frames.length > slow.frames.length && skipped() >= 2, 30_000);
  const to = performance.now();
  await c.stop();
  const sent = sentAt.filter((t) => t >= from && t <= to);
  // One send per 250 ms, plus one at each end of the window, however long a busy machine made it.
  const allowed = Math.floor((to - from) / 250) + 2;
  assert.ok(sent.length <= allowed, `maxFps 4 sent ${sent.length} frames in ${((to - from) / 1000).toFixed(1)} s`);
  // Sends keep to a 250 ms grid; one that comes late may catch up by half an interval, never to
  // the 33 ms of 30 fps.
  for (let i = 1; i < sent.length; i++) {
    const gap = sent[i] - sent[i - 1];
    assert.ok(gap >= 120, `frames sent ${gap.toFixed(0)} ms apart at maxFps 4`);
  }
  await Promise.all([actor.close(), slow.close(), fast.close()]);
});

test('actions faster than maxFps do not make captures faster than maxFps (each action nudges the loop)', async () => {
  const actor = await RawClient.open(bridge.wsUrl);
  const viewer = await RawClient.open(bridge.wsUrl);
  await viewer.call('devices.subscribe', { device: ANDROID, screen: { maxFps: 4, maxWidth: 270 } });
  await until('a frame', () => viewer.frames[0]);
  const captures = () => bridge.hub.stats().frames[ANDROID].captures;
  const c = churn(actor);
  await sleep(300);
  const from = performance.now();
  const first = captures();
  await sleep(1500);
  const made = captures() - first;
  const seconds = (performance.now() - from) / 1000;
  const swipes = await c.stop();
  // A nudge captures at once only when the last capture is an interval old: at most 4 a second
  // (plus one either end), however many swipes (each a nudge) came meanwhile.
  assert.ok(swipes > made + 4, `the churn should outpace maxFps 4 (${swipes} swipes, ${made} captures)`);
  assert.ok(made <= Math.floor(seconds * 4) + 2, `${made} captures in ${seconds.toFixed(1)} s at maxFps 4`);
  await Promise.all([actor.close(), viewer.close()]);
});

test('capture stops when the last subscriber leaves, and restarts for a new one', async () => {
  const a = await RawClient.open(bridge.wsUrl);
  const b = await RawClient.open(bridge.wsUrl);
  const sa = await a.call('devices.subscribe', { device: ANDROID, screen: { maxWidth: 200 } });
  const sb = await b.call('devices.subscribe', { device: ANDROID, screen: { maxWidth: 200 } });
  await until('frames', () => a.frames[0] && b.frames[0]);
  assert.is(bridge.hub.stats().frames[ANDROID] !== undefined, true);
  await a.call('devices.unsubscribe', { subscription: sa.subscription });
  assert.ok(bridge.hub.stats().frames[ANDROID], 'still capturing for b');
  await b.call('devices.unsubscribe', { subscription: sb.subscription });
  assert.is(bridge.hub.stats().frames[ANDROID], undefined);
  assert.is(bridge.hub.stats().subscriptions, 0);
  // A closed connection's subscriptions end with its session, not before (resume grace).
  const sc = await a.call('devices.subscribe', { device: ANDROID, screen: { maxWidth: 200 } });
  assert.ok(sc.subscription);
  await until('restarted', () => a.frames.find((f) => f.header.subscription === sc.subscription));
  await Promise.all([a.close(), b.close()]);
});

test('a slow reader (paused socket) does not delay a fast one, and its buffer stays bounded', async () => {
  const actor = await RawClient.open(bridge.wsUrl);
  const fast = await RawClient.open(bridge.wsUrl);
  const slow = await RawClient.open(bridge.wsUrl);
  const slowHello = await slow.call('session.hello', { client: 'slow' });
  // Full-width PNG: the biggest frames, so a backlog would show quickly.
  const screen = { format: 'png', maxFps: 30 };
  await fast.call('devices.subscribe', { device: ANDROID, screen });
  await slow.call('devices.subscribe', { device: ANDROID, screen });
  await until('first frames', () => fast.frames[0] && slow.frames[0], 15_000);
  const frameBytes = fast.frames[0].image.length;

  // Age at arrival (capture → the client has it) of the fast reader's frames from index `from` on.
  const medianAge = (from: number, to: number) => {
    const ages = fast.frames.slice(from, to).map((f, i) => performance.timeOrigin + fast.frameTimes[from + i] - f.header.captured_at).sort((a, b) => a - b);
    return ages[Math.floor(ages.length / 2)];
  };
  const c = churn(actor);
  // How fresh the fast reader's frames are while both read, on this machine as loaded as it is now.
  const reference = fast.frames.length;
  await until('frames while both read', () => fast.frames.length >= reference + 10, 30_000);
  const referenceAge = medianAge(reference, fast.frames.length);

  (slow.ws as unknown as { _socket: { pause(): void; resume(): void } })._socket.pause();
  const slowBefore = slow.frames.length;
  const fastBefore = fast.frames.length;
  const rssBefore = process.memoryUsage().rss;
  let maxBuffered = 0;
  // The fast reader's frame count when the bridge first held bytes for the paused reader: from
  // then on its kernel buffers are full and newer screens replace older ones in its slot.
  let fastWhenHeld = -1;
  const sampler = setInterval(() => {
    const held = bridge.bufferedBySession().get(slowHello.session as string) ?? 0;
    if (held > 0 && fastWhenHeld < 0) fastWhenHeld = fast.frames.length;
    maxBuffered = Math.max(maxBuffered, held);
  }, 20);
  const started = Date.now();
  // 4 s of changing screens at least, and 20 frames for the fast reader (5 a second on an idle
  // machine; a busy one draws and encodes fewer in that time, but a reader held back by its paused
  // neighbour gets none once that neighbour's socket is full).
  await sleep(4000);
  await until('20 frames for the fast reader while its neighbour is paused', () => fast.frames.length >= fastBefore + 20, 60_000);
  // Loopback buffers take several MB (tcp_rmem/tcp_wmem autotuning); stay paused until they are
  // full and a few screens more were sent, so that there was something to drop.
  await until('the bridge holds bytes for the paused reader, then 10 more frames', () => fastWhenHeld >= 0 && fast.frames.length >= fastWhenHeld + 10, 60_000);
  const fastAfter = fast.frames.length;
  const changes = await c.stop();
  const seconds = (Date.now() - started) / 1000;
  clearInterval(sampler);
  const fastFrames = fast.frames.length - fastBefore;
  // Not delayed: what the fast reader gets is as fresh (capture → arrival) with a paused neighbour as without.
  const pausedAge = medianAge(fastBefore, fastAfter);
  assert.ok(
    pausedAge < referenceAge + 500,
    `fast reader's frames were ${pausedAge.toFixed(0)} ms old at arrival (median) beside a paused reader, ${referenceAge.toFixed(0)} ms beside a reading one (${fastFrames} frames in ${seconds.toFixed(1)} s for ${changes} screen changes)`,
  );
  assert.ok(maxBuffered <= 2 * frameBytes + 64 * 1024, `slow reader's server buffer peaked at ${maxBuffered} bytes (frame ${frameBytes})`);
  const rssGrowth = process.memoryUsage().rss - rssBefore;
  assert.ok(rssGrowth < 150 * 1024 * 1024, `rss grew ${Math.round(rssGrowth / 1e6)} MB`);
  assert.is(slow.closeEvent, undefined, 'the slow reader keeps its connection');

  // Once it reads again it gets the newest screen, not a backlog of stale ones.
  const latestSeq = fast.frames[fast.frames.length - 1].header.seq;
  (slow.ws as unknown as { _socket: { resume(): void } })._socket.resume();
  await until('slow reader catches up', () => slow.frames.some((f) => f.header.seq >= latestSeq), 15_000);
  // What the kernel's socket buffers had taken arrives in order; screens sent once they were full
  // replaced each other in the slot, so the slow reader misses screens the fast one got.
  const after = slow.frames.slice(slowBefore);
  const slowSeqs = new Set(after.map((f) => f.header.seq));
  const missed = fast.frames.slice(fastBefore).filter((f) => !slowSeqs.has(f.header.seq)).length;
  const bytes = after.reduce((n, f) => n + f.image.length, 0);
  assert.ok(missed > 0, `slow reader got ${after.length} frames (${bytes} bytes, seqs ${after.map((f) => f.header.seq).join(',')}) and missed none of the fast reader's ${fastFrames}: stale frames must be dropped`);
  await Promise.all([actor.close(), fast.close(), slow.close()]);
});

test.run();
