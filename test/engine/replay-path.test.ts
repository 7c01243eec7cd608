import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { replayPath } from '../../src/engine/replay-path.js';

/** A finger path replayed on release (iOS): the hold before the drag is kept, the whole bounded. */

const from = { x: 100, y: 1000 };

test('jitter while holding is the hold, kept as long as it lasted; the drag keeps its timing', () => {
  const r = replayPath([{ ...from, t: 0 }, { x: 101, y: 1000, t: 1300 }, { x: 100, y: 900, t: 1400 }, { x: 100, y: 700, t: 1600 }], from, 8, 500, 10_000);
  assert.equal(r.path, [{ ...from, t: 0 }, { ...from, t: 1300 }, { x: 100, y: 900, t: 1400 }, { x: 100, y: 700, t: 1600 }]);
  assert.equal({ hold: r.holdMs, held: r.heldMs, sped: r.sped }, { hold: 1300, held: undefined, sped: undefined });
});

test('over the limit the hold gives way first, then the drag plays faster, never losing the long press', () => {
  const longHold = replayPath([{ ...from, t: 0 }, { x: 99, y: 1002, t: 12_000 }, { x: 100, y: 900, t: 12_500 }, { x: 100, y: 700, t: 14_000 }], from, 8, 500, 10_000);
  assert.equal(longHold.path.map((p) => p.t), [0, 8000, 8500, 10_000]);
  assert.equal({ hold: longHold.holdMs, held: longHold.heldMs, sped: longHold.sped }, { hold: 8000, held: 12_000, sped: undefined });
  const slowDrag = replayPath([{ ...from, t: 0 }, { x: 101, y: 1000, t: 2000 }, { x: 100, y: 900, t: 8000 }, { x: 100, y: 700, t: 14_000 }], from, 8, 500, 10_000);
  assert.equal(slowDrag.path.map((p) => p.t), [0, 500, 5250, 10_000]);
  assert.equal({ hold: slowDrag.holdMs, held: slowDrag.heldMs, sped: slowDrag.sped }, { hold: 500, held: 2000, sped: true });
});

test('a drag from the first move has no hold point', () => {
  const r = replayPath([{ ...from, t: 0 }, { x: 100, y: 900, t: 50 }], from, 8, 500, 10_000);
  assert.equal(r.path, [{ ...from, t: 0 }, { x: 100, y: 900, t: 50 }]);
});

test.run();
