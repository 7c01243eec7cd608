import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { GestureRecognizer, MAX_LONG_PRESS_MS, pinchAround, swipeBetween } from '../../web/src/gestures.js';

const make = () => new GestureRecognizer({ slop: 10, longPressMs: 500, doubleTapMs: 250 });

test('click → tap, released only after the double-tap window', () => {
  const g = make();
  assert.equal(g.down({ x: 100, y: 200 }, 0), []);
  assert.equal(g.up({ x: 102, y: 201 }, 80), [], 'held back: it may become a double tap');
  assert.is(g.nextDeadline(), 330);
  assert.equal(g.tick(329), []);
  assert.equal(g.tick(330), [{ kind: 'tap', at: { x: 100, y: 200 } }]);
  assert.is(g.nextDeadline(), undefined);
});

test('a key pressed during the double-click wait releases the held-back tap at once', () => {
  const g = make();
  g.down({ x: 100, y: 200 }, 0);
  g.up({ x: 100, y: 200 }, 50);
  assert.equal(g.flush(), [{ kind: 'tap', at: { x: 100, y: 200 } }]);
  assert.is(g.nextDeadline(), undefined, 'released once: the timer has nothing left to send');
  assert.equal(g.tick(10_000), []);
  assert.equal(g.flush(), []);
});

test('double-click → one double tap, no single taps', () => {
  const g = make();
  g.down({ x: 100, y: 200 }, 0);
  g.up({ x: 100, y: 200 }, 60);
  assert.equal(g.down({ x: 104, y: 203 }, 160), []);
  assert.equal(g.up({ x: 104, y: 203 }, 220), [{ kind: 'double_tap', at: { x: 100, y: 200 } }]);
  assert.equal(g.tick(10_000), []);
});

test('two clicks far apart are two taps', () => {
  const g = make();
  g.down({ x: 100, y: 200 }, 0);
  g.up({ x: 100, y: 200 }, 50);
  assert.equal(g.down({ x: 600, y: 900 }, 100), [{ kind: 'tap', at: { x: 100, y: 200 } }]);
  g.up({ x: 600, y: 900 }, 150);
  assert.equal(g.tick(400), [{ kind: 'tap', at: { x: 600, y: 900 } }]);
});

test('two clicks slower than the window are two taps', () => {
  const g = make();
  g.down({ x: 100, y: 200 }, 0);
  g.up({ x: 100, y: 200 }, 50);
  assert.equal(g.down({ x: 100, y: 200 }, 400), [{ kind: 'tap', at: { x: 100, y: 200 } }]);
  assert.equal(g.up({ x: 100, y: 200 }, 450), []);
  assert.equal(g.tick(700), [{ kind: 'tap', at: { x: 100, y: 200 } }]);
});

test('hold → long press with the held duration, capped at the tool limit', () => {
  const g = make();
  g.down({ x: 10, y: 20 }, 1000);
  g.move({ x: 14, y: 22 }, 1300);
  assert.equal(g.up({ x: 14, y: 22 }, 1750), [{ kind: 'long_press', at: { x: 10, y: 20 }, durationMs: 750 }]);
  g.down({ x: 10, y: 20 }, 0);
  assert.equal(g.up({ x: 10, y: 20 }, 60_000), [{ kind: 'long_press', at: { x: 10, y: 20 }, durationMs: MAX_LONG_PRESS_MS }]);
});

test('drag → swipe in the finger’s direction, with the dragged length', () => {
  const g = make();
  g.down({ x: 540, y: 1800 }, 0);
  g.move({ x: 545, y: 1200 }, 100);
  assert.equal(g.up({ x: 550, y: 600 }, 200), [{ kind: 'swipe', from: { x: 540, y: 1800 }, to: { x: 550, y: 600 }, direction: 'up', distance: 1200 }]);
  assert.is(g.nextDeadline(), undefined, 'a swipe is never held back');
  assert.is(swipeBetween({ x: 0, y: 0 }, { x: 0, y: 300 }).direction, 'down');
  assert.is(swipeBetween({ x: 500, y: 0 }, { x: 100, y: 30 }).direction, 'left');
  assert.is(swipeBetween({ x: 100, y: 0 }, { x: 500, y: -30 }).direction, 'right');
});

test('a slow drag is still a swipe, not a long press; wandering within the slop is still a tap', () => {
  const g = make();
  g.down({ x: 100, y: 100 }, 0);
  g.move({ x: 100, y: 400 }, 900);
  assert.is(g.up({ x: 100, y: 800 }, 2000)[0]?.kind, 'swipe');
  g.down({ x: 100, y: 100 }, 3000);
  g.move({ x: 109, y: 100 }, 3050);
  assert.equal(g.up({ x: 106, y: 100 }, 3100), []);
  assert.equal(g.tick(4000), [{ kind: 'tap', at: { x: 100, y: 100 } }]);
});

test('dragging away and back sends nothing: no direction, and not a tap', () => {
  const g = make();
  g.down({ x: 100, y: 100 }, 0);
  g.move({ x: 100, y: 300 }, 50);
  assert.equal(g.up({ x: 102, y: 100 }, 100), []);
  assert.is(g.nextDeadline(), undefined);
});

test('cancel sends nothing for the press but still releases an earlier tap', () => {
  const g = make();
  g.down({ x: 1, y: 1 }, 0);
  assert.equal(g.cancel(), []);
  assert.is(g.pressing, false);
  g.down({ x: 1, y: 1 }, 100);
  g.up({ x: 1, y: 1 }, 150);
  g.down({ x: 1, y: 1 }, 200);
  assert.equal(g.cancel(), [{ kind: 'tap', at: { x: 1, y: 1 } }]);
});

test('Ctrl + drag is scrcpy\'s pinch: the virtual finger mirrors the pointer through the centre, scale is the change of distance', () => {
  const c = { x: 540, y: 1200 };
  assert.equal(pinchAround(c, { x: 540, y: 1000 }, { x: 540, y: 800 }), { kind: 'pinch', at: c, scale: 2 });
  assert.equal(pinchAround(c, { x: 740, y: 1200 }, { x: 640, y: 1200 }), { kind: 'pinch', at: c, scale: 0.5 });
  assert.is(pinchAround(c, { x: 540, y: 1000 }, { x: 540, y: 995 }), undefined, 'a slip, not a pinch');
  assert.is(pinchAround(c, { x: 541, y: 1201 }, { x: 900, y: 1200 }), undefined, 'no span to scale from at the centre');
  assert.equal(pinchAround(c, { x: 540, y: 1180 }, { x: 540, y: 100 })?.scale, 5, 'held to the tool\'s bounds');
});

test.run();
