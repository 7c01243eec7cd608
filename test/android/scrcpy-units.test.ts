import { test } from 'uvu';
import * as assert from 'uvu/assert';
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

test.run();
