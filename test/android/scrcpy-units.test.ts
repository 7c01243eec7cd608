import { PassThrough } from 'node:stream';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { toVideo, utf8Chunks } from '../../src/engine/drivers/android/scrcpy/control-units.js';
import { InjectionWatch } from '../../src/engine/drivers/android/scrcpy/injection-watch.js';
import { ServerLog } from '../../src/engine/drivers/android/scrcpy/server-log.js';
import { VideoConsumer } from '../../src/engine/drivers/android/scrcpy/video-consumer.js';
import type { VideoPacket } from '../../src/engine/driver.js';
import { ToolError } from '../../src/engine/errors.js';

const packet = (kind: 'config' | 'key' | 'delta', n: number): VideoPacket => ({
  data: Buffer.from(`${kind}${n}`), config: kind === 'config', key: kind === 'key', capturedAt: n, width: 544, height: 1200,
});
const names = (ps: VideoPacket[]) => ps.map((p) => p.data.toString());

async function drain(consumer: VideoConsumer, n: number): Promise<VideoPacket[]> {
  const out: VideoPacket[] = [];
  const it = consumer.packets();
  while (out.length < n) {
    const next = await it.next();
    if (next.done) break;
    out.push(next.value);
  }
  return out;
}

test('a consumer joining mid-GOP waits for a key frame and gets the configuration first', async () => {
  const c = new VideoConsumer(packet('config', 0));
  c.push(packet('delta', 1));
  c.push(packet('delta', 2));
  c.push(packet('key', 3));
  c.push(packet('delta', 4));
  assert.equal(names(await drain(c, 3)), ['config0', 'key3', 'delta4']);
});

test('without any configuration yet, key frames are skipped until one arrives', async () => {
  const c = new VideoConsumer(undefined);
  c.push(packet('key', 1));
  c.push(packet('config', 2));
  c.push(packet('key', 3));
  assert.equal(names(await drain(c, 2)), ['config2', 'key3']);
});

test('a consumer that falls 300 packets behind is skipped to the next key frame, with the latest configuration', async () => {
  let asked = 0;
  const c = new VideoConsumer(undefined, () => asked++);
  c.push(packet('config', 0));
  c.push(packet('key', 1));
  for (let i = 2; i < 400; i++) c.push(packet('delta', i));
  c.push(packet('config', 400));
  c.push(packet('key', 401));
  c.push(packet('delta', 402));
  c.end();
  assert.equal(names(await drain(c, 10_000)), ['config400', 'key401', 'delta402'], 'never a picture without its references');
  assert.is(asked, 1, 'a key frame was requested once, when the consumer was skipped');
});

test('a failed stream throws its reason after the queued packets', async () => {
  const c = new VideoConsumer(packet('config', 0));
  c.push(packet('key', 1));
  c.fail(new ToolError('INTERNAL', 'scrcpy-server on x stopped: boom'));
  const it = c.packets();
  assert.is((await it.next()).value?.data.toString(), 'config0');
  assert.is((await it.next()).value?.data.toString(), 'key1');
  await it.next().then(() => assert.unreachable('should throw'), (err: Error) => assert.match(err.message, /stopped: boom/));
});

/** A server console fed by hand, split across chunks as adb relays it. */
function serverConsole(): { log: ServerLog; watch: InjectionWatch; print(text: string): void } {
  const shell = new PassThrough();
  const log = new ServerLog(shell);
  const watch = new InjectionWatch(log);
  return { log, watch, print: (text) => shell.write(text) };
}

const PROBE = '[server] WARN: Could not inject char u+e000\n';
const never = new AbortController().signal;

test('a refused injection (InputManager 3.3.1 logs it and carries on) is seen by the probe after it, and is not taken as why the server stopped', async () => {
  const { log, watch, print } = serverConsole();
  print('[server] INFO: Device: [Xiaomi] Redmi Note 8 (Android 6.0.1)\n[server] ERROR: Injecting input events requires the caller (or the source of the ');
  print('instrumentation, if any) to have the INJECT_EVENTS permission.\r\n[server] ERROR: Make sure you have enabled "USB debugging (Security Settings)" and then rebooted your device.\n');
  assert.is(await watch.waitForProbes(1, 50, never), false, 'no probe yet');
  print(PROBE);
  assert.is(await watch.waitForProbes(1, 1000, never), true);
  assert.match(watch.refused ?? '', /^Injecting input events requires .*INJECT_EVENTS permission\.$/);
  assert.is(log.error, undefined, 'a refusal is not an error that stopped the server');
  assert.is(log.androidRelease, '6.0.1');
  print('[server] ERROR: Controller error\njava.io.IOException: Broken pipe\n');
  assert.is(log.error, 'Controller error: java.io.IOException: Broken pipe');
});

test('an error the server recovered from (a new configuration came after it) is no longer the reason; one printed since, even in part, is', () => {
  const { log, print } = serverConsole();
  print('[server] ERROR: Capture/encoding error: android.media.MediaCodec$CodecException: Error 0xfffffc0e\n[server] INFO: Retrying with -m1024...\n');
  assert.is(log.error, 'Capture/encoding error: android.media.MediaCodec$CodecException: Error 0xfffffc0e');
  log.errorsRecovered();
  assert.is(log.error, undefined, 'nothing has failed since');
  print('[server] ERROR: Capture/encoding err');
  log.errorsRecovered();
  print('or: java.lang.IllegalStateException: null\n');
  assert.is(log.error, 'Capture/encoding error: java.lang.IllegalStateException: null', 'a line that was still arriving is a new error');
});

test('"Could not invoke method" counts as a failed injection only with InputManager.injectInputEvent in its stack', async () => {
  const { watch, print } = serverConsole();
  print('[server] ERROR: Could not invoke method\njava.lang.reflect.InvocationTargetException\n\tat java.lang.reflect.Method.invoke(Native Method)\n\tat com.genymobile.scrcpy.wrappers.ContentProvider.call(ContentProvider.java:100)\n');
  print(PROBE);
  assert.ok(await watch.waitForProbes(1, 1000, never));
  assert.is(watch.failures, 0, 'a settings call failed, not an injection');
  print('[server] ERROR: Could not invoke method\njava.lang.reflect.InvocationTargetException\n\tat java.lang.reflect.Method.invoke(Native Method)\n\tat com.genymobile.scrcpy.wrappers.InputManager.injectInputEvent(InputManager.java:51)\nCaused by: java.lang.IllegalArgumentException: bad event\n\t... 8 more\n');
  print(PROBE);
  assert.ok(await watch.waitForProbes(2, 1000, never));
  assert.equal([watch.failures, watch.lastFailure, watch.refused], [1, 'java.lang.IllegalArgumentException: bad event', undefined]);
});

test('a failed injection still counts when another thread logs between Ln.e\'s message and its stack (log_level=verbose)', async () => {
  const { watch, print } = serverConsole();
  print('[server] ERROR: Could not invoke method\n');
  print('[server] VERBOSE: DisplaySizeMonitor: onDisplayChanged(0)\n[server] DEBUG: DisplaySizeMonitor: Size not changed (1080x2400): do not restart\n');
  print('java.lang.reflect.InvocationTargetException\n\tat com.genymobile.scrcpy.wrappers.InputManager.injectInputEvent(InputManager.java:51)\nCaused by: java.lang.IllegalArgumentException: Invalid input event\n');
  print(PROBE);
  assert.ok(await watch.waitForProbes(1, 1000, never));
  assert.equal([watch.failures, watch.lastFailure], [1, 'java.lang.IllegalArgumentException: Invalid input event']);
});

test('a point on the screen stays inside the video (the last row does not round up past it); one outside is sent as it is', () => {
  assert.is(toVideo(2399, 2400, 1200), 1199);
  assert.is(toVideo(1200, 2400, 1200), 600);
  assert.is(toVideo(0, 2400, 1200), 0);
  assert.is(toVideo(2500, 2400, 1200), 1250);
  assert.is(toVideo(-10, 2400, 1200), -5);
});

test('text is cut into pieces of at most the byte limit, never inside a character or a surrogate pair', () => {
  assert.equal([...utf8Chunks('abcdef', 4)], ['abcd', 'ef']);
  assert.equal([...utf8Chunks('aé😀b', 4)], ['aé', '😀', 'b']);
  assert.equal([...utf8Chunks('', 4)], []);
});

test.run();
