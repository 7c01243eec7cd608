import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CaptureChoice } from '../../../src/engine/drivers/android/capture-choice.js';

const choice = suite('screencap auto: raw or PNG measured per device');

choice('warm-up raw, then PNG and raw alternate; a clear winner after one each, else the faster after two each', async () => {
  const clear = new CaptureChoice('auto');
  const seen: string[] = [];
  const times: Record<string, number> = { raw: 100, png: 1500 };
  for (let i = 0; i < 6; i++) {
    const way = clear.next();
    seen.push(way);
    clear.record(way, times[way]);
  }
  assert.equal(seen, ['raw', 'png', 'raw', 'raw', 'raw', 'raw']);
  assert.is(clear.decided, 'raw');
  const close = new CaptureChoice('auto');
  const order: string[] = [];
  const close_: Record<string, number[]> = { raw: [40, 30, 31], png: [35, 33] };
  while (!close.decided) {
    const way = close.next();
    order.push(way);
    close.record(way, close_[way].shift()!);
  }
  assert.equal(order, ['raw', 'png', 'raw', 'png', 'raw']);
  assert.is(close.decided, 'raw', 'min 30 beats min 33');
  assert.is(new CaptureChoice('png').next(), 'png');
});

choice.run();
