import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { GestureRecognizer, type DragEvent } from '../../web/src/gestures.js';
import { InputQueue } from '../../web/src/input-queue.js';
import { shortcutFor, SHORTCUTS } from '../../web/src/shortcuts.js';
import { touchPoints } from '../../web/src/touch-points.js';
import { TouchStreamer, type TouchAction } from '../../web/src/touch-stream.js';
import { wheelDrag } from '../../web/src/wheel-scroll.js';
import { zoomedSize } from '../../web/src/zoom.js';

/** The pure parts of issue 17 item 1 (the Chromium tests drive the whole). */

test('a streamed drag: start once past the slop, moves, end instead of a swipe', () => {
  const events: DragEvent[] = [];
  const g = new GestureRecognizer({ slop: 10, onDrag: (e) => events.push(e) });
  g.down({ x: 100, y: 500 }, 0);
  g.move({ x: 100, y: 495 }, 10);
  assert.equal(events, [], 'inside the slop nothing is streamed');
  g.move({ x: 100, y: 480 }, 20);
  g.move({ x: 100, y: 400 }, 30);
  assert.equal(g.up({ x: 100, y: 390 }, 40), [], 'no swipe on release');
  assert.equal(events, [
    { kind: 'start', from: { x: 100, y: 500 }, at: { x: 100, y: 480 } },
    { kind: 'move', at: { x: 100, y: 400 } },
    { kind: 'end', at: { x: 100, y: 390 } },
  ]);
  g.down({ x: 1, y: 1 }, 100);
  g.move({ x: 50, y: 1 }, 110);
  g.cancel();
  assert.equal(events.at(-1), { kind: 'cancel' });
});

test('a press held still puts the finger down at the press point, so the device times the long press; a drag after it is the same finger', () => {
  const events: DragEvent[] = [];
  const g = new GestureRecognizer({ slop: 10, holdMs: 200, onDrag: (e) => events.push(e) });
  g.down({ x: 300, y: 700 }, 1000);
  assert.is(g.nextDeadline(), 1200, 'the viewer wakes when the hold is long enough');
  assert.equal(g.tick(1199), []);
  assert.equal(events, [], 'a click-length press sends nothing yet');
  assert.equal(g.tick(1200), []);
  assert.equal(events, [{ kind: 'start', from: { x: 300, y: 700 }, at: { x: 300, y: 700 } }], 'down where the press is, before any move');
  assert.is(g.nextDeadline(), undefined);
  g.move({ x: 302, y: 701 }, 1300);
  g.move({ x: 300, y: 500 }, 1900);
  assert.equal(g.up({ x: 300, y: 450 }, 2000), [], 'no swipe or long press gesture: the finger did it');
  assert.equal(events.slice(1), [
    { kind: 'move', at: { x: 302, y: 701 } },
    { kind: 'move', at: { x: 300, y: 500 } },
    { kind: 'end', at: { x: 300, y: 450 } },
  ]);
  events.length = 0;
  // Held and let go in place: the lift waits as long as the down came late, so the device sees the whole hold.
  g.down({ x: 50, y: 60 }, 5000);
  g.tick(5200);
  assert.equal(g.up({ x: 51, y: 60 }, 5700), []);
  assert.equal(events, [
    { kind: 'start', from: { x: 50, y: 60 }, at: { x: 50, y: 60 } },
    { kind: 'end', at: { x: 51, y: 60 }, lateMs: 200 },
  ]);
});

test('clicks stay clicks with holding streamed: a tap after the double-click wait, a double tap; a held second press sends the first tap before its finger', () => {
  const events: DragEvent[] = [];
  const g = new GestureRecognizer({ slop: 10, holdMs: 200, doubleTapMs: 250, onDrag: (e) => events.push(e) });
  g.down({ x: 10, y: 10 }, 0);
  assert.equal(g.up({ x: 10, y: 10 }, 120), []);
  assert.equal(g.tick(370), [{ kind: 'tap', at: { x: 10, y: 10 } }]);
  g.down({ x: 10, y: 10 }, 1000);
  g.up({ x: 10, y: 10 }, 1100);
  g.down({ x: 12, y: 10 }, 1200);
  assert.equal(g.up({ x: 12, y: 10 }, 1290), [{ kind: 'double_tap', at: { x: 10, y: 10 } }]);
  assert.equal(events, [], 'nothing streamed for clicks');
  g.down({ x: 10, y: 10 }, 2000);
  g.up({ x: 10, y: 10 }, 2100);
  g.down({ x: 10, y: 10 }, 2200);
  assert.is(g.nextDeadline(), 2400);
  assert.equal(g.tick(2400), [{ kind: 'tap', at: { x: 10, y: 10 } }], 'the first click is a tap after all');
  assert.equal(events, [{ kind: 'start', from: { x: 10, y: 10 }, at: { x: 10, y: 10 } }]);
});

test('a streamed finger goes down after what was made before it, and a late lift still comes before what is made after it', async () => {
  const sent: string[] = [];
  const streamer = new TouchStreamer(async (action, p) => (sent.push(`${action} ${p.x},${p.y}`), { streamed: true }), () => undefined);
  let tapped!: () => void;
  const tap = new Promise<void>((r) => (tapped = r)).then(() => sent.push('tap'));
  streamer.start({ x: 5, y: 5 }, { x: 5, y: 5 }, tap);
  await new Promise((r) => setImmediate(r));
  assert.equal(sent, [], 'the down waits for the tap made before it');
  tapped();
  await streamer.idle();
  assert.equal(sent, ['tap', 'down 5,5'], 'a held press has no move to send yet');
  streamer.end({ x: 5, y: 5 }, 30);
  const queue = new InputQueue(() => 'd1', async (call) => void sent.push(call.tool), () => streamer.lifted());
  queue.push({ kind: 'button', button: 'BACK' });
  await new Promise((r) => setImmediate(r));
  assert.equal(sent.slice(2), [], 'the lift is waiting its turn, and Back waits behind it');
  await queue.idle();
  assert.equal(sent.slice(2), ['up 5,5', 'mobile_press_button']);
});

test('InputQueue.sent waits for what was queued so far, not for what comes later', async () => {
  const sent: string[] = [];
  const releases: (() => void)[] = [];
  const queue = new InputQueue(() => 'd1', (call) => (sent.push(String(call.parameters.text)), new Promise<void>((r) => releases.push(r))));
  queue.push({ kind: 'text', text: 'a' });
  let ready = false;
  void queue.sent().then(() => (ready = true));
  queue.push({ kind: 'text', text: 'b' });
  releases.shift()!();
  await new Promise((r) => setImmediate(r));
  assert.ok(ready, '"a" was sent; "b" is still going and was made later');
  releases.shift()!();
  await queue.idle();
  assert.equal(sent, ['a', 'b']);
});

test('the touch streamer keeps one move in flight and sends only the latest point; up follows the down', async () => {
  const sent: string[] = [];
  const answers: (() => void)[] = [];
  const streamer = new TouchStreamer((action: TouchAction, p) => {
    sent.push(`${action} ${p.x},${p.y}`);
    return new Promise((resolve) => answers.push(() => resolve({ streamed: true })));
  }, () => undefined);
  streamer.start({ x: 0, y: 100 }, { x: 0, y: 90 });
  for (let y = 80; y >= 10; y -= 10) streamer.move({ x: 0, y });
  await new Promise((r) => setTimeout(r, 0));
  assert.equal(sent, ['down 0,100']);
  answers.shift()!();
  await new Promise((r) => setTimeout(r, 0));
  assert.equal(sent, ['down 0,100', 'move 0,10'], 'the moves made meanwhile collapsed into the latest');
  streamer.end({ x: 0, y: 5 });
  answers.shift()!();
  await new Promise((r) => setTimeout(r, 0));
  answers.shift()?.();
  await streamer.idle();
  assert.equal(sent, ['down 0,100', 'move 0,10', 'up 0,5']);
});

test('a refused down stops the stream: no moves, no up', async () => {
  const sent: string[] = [];
  const streamer = new TouchStreamer(async (action) => (sent.push(action), undefined), () => undefined);
  streamer.start({ x: 0, y: 0 }, { x: 0, y: 50 });
  streamer.move({ x: 0, y: 60 });
  streamer.end({ x: 0, y: 70 });
  await streamer.idle();
  assert.equal(sent, ['down']);
});

test('a drag the connection dropped under sends nothing more: the bridge lifted that finger itself', async () => {
  const sent: string[] = [];
  const streamer = new TouchStreamer(async (action) => (sent.push(action), { streamed: true }), () => undefined);
  streamer.start({ x: 0, y: 0 }, { x: 0, y: 50 });
  await streamer.idle();
  streamer.abandon();
  streamer.move({ x: 0, y: 60 });
  streamer.end({ x: 0, y: 70 });
  await streamer.idle();
  assert.equal(sent, ['down', 'move']);
  streamer.start({ x: 5, y: 5 }, { x: 5, y: 40 });
  streamer.end({ x: 5, y: 45 });
  await streamer.idle();
  assert.equal(sent.slice(2), ['down', 'up'], 'the next drag streams again');
});

test('wheel: scrolling down moves the finger up from the pointer, kept on the screen', () => {
  const screen = { width: 1080, height: 2400 };
  assert.equal(wheelDrag({ x: 500, y: 1200 }, 0, 300, screen), { from: { x: 500, y: 1200 }, to: { x: 500, y: 900 } });
  assert.equal(wheelDrag({ x: 500, y: 100 }, 0, 300, screen), { from: { x: 500, y: 100 }, to: { x: 500, y: 0 } });
  assert.equal(wheelDrag({ x: 500, y: 2300 }, 0, -300, screen)?.to, { x: 500, y: 2399 });
  assert.is(wheelDrag({ x: 500, y: 0 }, 0, 300, screen), undefined, 'nowhere to move: nothing sent');
});

test('zoom: fit contains, 1:1 is one device pixel per display pixel', () => {
  assert.equal(zoomedSize('fit', { width: 500, height: 700 }, { width: 1080, height: 2400 }, 2), { width: 315, height: 700 });
  assert.equal(zoomedSize('actual', { width: 500, height: 700 }, { width: 1080, height: 2400 }, 2), { width: 540, height: 1200 });
});

test('shortcuts: Alt plus the physical key, nothing else held; each documented once', () => {
  const key = (code: string, more: Partial<Record<'altKey' | 'ctrlKey' | 'metaKey' | 'shiftKey', boolean>> = {}) => ({ code, altKey: true, ctrlKey: false, metaKey: false, shiftKey: false, ...more });
  assert.is(shortcutFor(key('KeyB'))?.action, 'back');
  assert.is(shortcutFor(key('KeyG'))?.action, 'zoom_actual');
  assert.is(shortcutFor(key('KeyB', { ctrlKey: true })), undefined);
  assert.is(shortcutFor({ ...key('KeyB'), altKey: false }), undefined);
  assert.is(shortcutFor(key('ArrowLeft')), undefined, 'Alt+Left stays browser history');
  assert.is(shortcutFor(key('ArrowUp'))?.action, 'volume_up', 'scrcpy\'s MOD+↑');
  assert.is(shortcutFor(key('ArrowDown'))?.action, 'volume_down');
  assert.is(shortcutFor(key('ArrowDown', { shiftKey: true })), undefined);
  assert.is(new Set(SHORTCUTS.map((s) => s.code)).size, SHORTCUTS.length);
});

test('tap markers come from activity: taps at their point, a drag at both ends, failures nowhere', () => {
  const ok = { status: 'success' as const };
  assert.equal(touchPoints({ tool: 'mobile_click_on_screen_at_coordinates', parameters: { x: 5, y: 6 }, outcome: ok }), [{ x: 5, y: 6 }]);
  assert.equal(touchPoints({ tool: 'input.touch', parameters: { action: 'up', from: { x: 1, y: 2 }, to: { x: 3, y: 4 } }, outcome: ok }), [{ x: 1, y: 2 }, { x: 3, y: 4 }]);
  assert.equal(touchPoints({ tool: 'mobile_click_on_screen_at_coordinates', parameters: { x: 5, y: 6 }, outcome: { status: 'error' } }), []);
  assert.equal(touchPoints({ tool: 'mobile_type_keys', parameters: { text: 'x' }, outcome: ok }), []);
});

test.run();
