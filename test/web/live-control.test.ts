import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { GestureRecognizer, type DragEvent } from '../../web/src/gestures.js';
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
