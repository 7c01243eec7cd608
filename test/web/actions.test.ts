import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { gestureToCall, inputsToCalls, keyToInput } from '../../web/src/actions.js';
import { InputQueue } from '../../web/src/input-queue.js';
import type { ToolCall } from '../../web/src/actions.js';

const SCREEN = { width: 1080, height: 2400 };

test('each gesture becomes its engine tool call', () => {
  assert.equal(gestureToCall('d1', { kind: 'tap', at: { x: 5, y: 6 } }, SCREEN), { tool: 'mobile_click_on_screen_at_coordinates', parameters: { device: 'd1', x: 5, y: 6 } });
  assert.equal(gestureToCall('d1', { kind: 'double_tap', at: { x: 5, y: 6 } }, SCREEN), { tool: 'mobile_double_tap_on_screen', parameters: { device: 'd1', x: 5, y: 6 } });
  assert.equal(gestureToCall('d1', { kind: 'long_press', at: { x: 5, y: 6 }, durationMs: 800 }, SCREEN), {
    tool: 'mobile_long_press_on_screen_at_coordinates',
    parameters: { device: 'd1', x: 5, y: 6, duration: 800 },
  });
  assert.equal(gestureToCall('d1', { kind: 'swipe', from: { x: 0, y: 2000 }, to: { x: 0, y: 1000 }, direction: 'up', distance: 1000 }, SCREEN), {
    tool: 'mobile_swipe_on_screen',
    parameters: { device: 'd1', direction: 'up', distance: 1000 },
  });
  assert.equal(gestureToCall('d1', { kind: 'pinch', at: { x: 540, y: 1200 }, scale: 2 }, SCREEN), { tool: 'mobile_pinch_on_screen', parameters: { device: 'd1', x: 540, y: 1200, scale: 2 } });
});

test('a swipe longer than the screen is shortened to what the tool accepts', () => {
  const long = gestureToCall('d1', { kind: 'swipe', from: { x: 0, y: 0 }, to: { x: 1079, y: 0 }, direction: 'right', distance: 5000 }, SCREEN);
  assert.is(long.parameters.distance, 1079);
  const tall = gestureToCall('d1', { kind: 'swipe', from: { x: 0, y: 0 }, to: { x: 0, y: 2399 }, direction: 'down', distance: 2399 }, SCREEN);
  assert.is(tall.parameters.distance, 2399);
});

test('keys: printable characters are text, Enter is ENTER, editing keys go to the device, the rest is left to the browser', () => {
  assert.equal(keyToInput({ key: 'a' }), { kind: 'text', text: 'a' });
  assert.equal(keyToInput({ key: 'É' }), { kind: 'text', text: 'É' });
  assert.equal(keyToInput({ key: '😀' }), { kind: 'text', text: '😀' });
  assert.equal(keyToInput({ key: ' ' }), { kind: 'text', text: ' ' });
  assert.equal(keyToInput({ key: 'Enter' }), { kind: 'button', button: 'ENTER' });
  assert.equal(keyToInput({ key: '@', ctrlKey: true, altKey: true }), { kind: 'text', text: '@' }, 'AltGr');
  for (const key of ['Shift', 'Escape', 'F5']) assert.is(keyToInput({ key }), undefined, key);
  assert.equal(keyToInput({ key: 'Backspace' }), { kind: 'key', key: 'BACKSPACE' });
  assert.equal(keyToInput({ key: 'Delete' }), { kind: 'key', key: 'DELETE' });
  assert.equal(keyToInput({ key: 'ArrowLeft' }), { kind: 'key', key: 'LEFT' });
  assert.equal(keyToInput({ key: 'ArrowDown' }), { kind: 'key', key: 'DOWN' });
  assert.equal(keyToInput({ key: 'Tab' }), { kind: 'key', key: 'TAB' });
  assert.is(keyToInput({ key: 'Tab', shiftKey: true }), undefined, 'Shift+Tab leaves the screen');
  assert.is(keyToInput({ key: 'v', ctrlKey: true }), undefined, 'Ctrl+V stays the browser\'s paste (the host clipboard is typed)');
  assert.is(keyToInput({ key: 'v', metaKey: true }), undefined);
  assert.is(keyToInput({ key: 't', ctrlKey: true }), undefined, 'other Ctrl shortcuts stay the browser\'s');
  assert.is(keyToInput({ key: 'a', isComposing: true }), undefined);
});

test('Ctrl+A, C, X, Z (⌘ on a Mac) go to the device as its Ctrl shortcuts, in their place between the text around them', () => {
  assert.equal(keyToInput({ key: 'a', ctrlKey: true }), { kind: 'key', key: 'A', modifiers: ['CTRL'] });
  assert.equal(keyToInput({ key: 'c', metaKey: true }), { kind: 'key', key: 'C', modifiers: ['CTRL'] });
  assert.equal(keyToInput({ key: 'X', ctrlKey: true }), { kind: 'key', key: 'X', modifiers: ['CTRL'] });
  assert.equal(keyToInput({ key: 'z', ctrlKey: true, repeat: true }), { kind: 'key', key: 'Z', modifiers: ['CTRL'], repeat: true });
  assert.is(keyToInput({ key: 'Z', ctrlKey: true, shiftKey: true }), undefined, 'Ctrl+Shift+Z is no shortcut the device is sent');
  assert.equal(inputsToCalls('d1', [{ kind: 'key', key: 'A', modifiers: ['CTRL'] }, { kind: 'text', text: 'new' }]), [
    { tool: 'input.key', parameters: { device: 'd1', key: 'A', modifiers: ['CTRL'] } },
    { tool: 'mobile_type_keys', parameters: { device: 'd1', text: 'new' } },
  ]);
});

test('keys go as input.key in their place between the text around them', () => {
  assert.equal(inputsToCalls('d1', [{ kind: 'text', text: 'ab' }, { kind: 'key', key: 'BACKSPACE' }, { kind: 'text', text: 'c' }]), [
    { tool: 'mobile_type_keys', parameters: { device: 'd1', text: 'ab' } },
    { tool: 'input.key', parameters: { device: 'd1', key: 'BACKSPACE' } },
    { tool: 'mobile_type_keys', parameters: { device: 'd1', text: 'c' } },
  ]);
});

test('runs of text merge into one mobile_type_keys; ENTER keeps its place', () => {
  const calls = inputsToCalls('d1', [
    { kind: 'text', text: 'h' },
    { kind: 'text', text: 'i' },
    { kind: 'button', button: 'ENTER' },
    { kind: 'text', text: '!' },
  ]);
  assert.equal(calls, [
    { tool: 'mobile_type_keys', parameters: { device: 'd1', text: 'hi' } },
    { tool: 'mobile_press_button', parameters: { device: 'd1', button: 'ENTER' } },
    { tool: 'mobile_type_keys', parameters: { device: 'd1', text: '!' } },
  ]);
});

test('InputQueue sends one call at a time, merging keys typed meanwhile, in order', async () => {
  const sent: ToolCall[] = [];
  let release: (() => void) | undefined;
  const queue = new InputQueue(
    () => 'd1',
    (call) => {
      sent.push(call);
      return new Promise<void>((r) => (release = r));
    },
  );
  queue.push({ kind: 'text', text: 'a' });
  assert.is(sent.length, 1, 'the first key goes out at once');
  queue.push({ kind: 'text', text: 'b' });
  queue.push({ kind: 'text', text: 'c' });
  queue.push({ kind: 'button', button: 'ENTER' });
  assert.is(sent.length, 1, 'nothing overtakes the running call');
  release!();
  await new Promise((r) => setImmediate(r));
  assert.equal(sent[1], { tool: 'mobile_type_keys', parameters: { device: 'd1', text: 'bc' } });
  release!();
  await new Promise((r) => setImmediate(r));
  assert.equal(sent[2], { tool: 'mobile_press_button', parameters: { device: 'd1', button: 'ENTER' } });
  release!();
  await queue.idle();
  assert.is(sent.length, 3);
});

test('a tap waits for the keys typed before it, and the keys typed after it wait for the tap', async () => {
  const sent: ToolCall[] = [];
  let release: (() => void) | undefined;
  const queue = new InputQueue(
    () => 'd1',
    (call) => {
      sent.push(call);
      return new Promise<void>((r) => (release = r));
    },
  );
  queue.push({ kind: 'text', text: 'fir' });
  queue.push({ kind: 'text', text: 'st' });
  queue.push({ kind: 'gesture', gesture: { kind: 'tap', at: { x: 540, y: 788 } }, screen: SCREEN });
  queue.push({ kind: 'text', text: 'second' });
  const step = async () => {
    release!();
    await new Promise((r) => setImmediate(r));
  };
  await step();
  await step();
  await step();
  release!();
  await queue.idle();
  assert.equal(sent, [
    { tool: 'mobile_type_keys', parameters: { device: 'd1', text: 'fir' } },
    { tool: 'mobile_type_keys', parameters: { device: 'd1', text: 'st' } },
    { tool: 'mobile_click_on_screen_at_coordinates', parameters: { device: 'd1', x: 540, y: 788 } },
    { tool: 'mobile_type_keys', parameters: { device: 'd1', text: 'second' } },
  ]);
});

test('a held key repeats no faster than the device presses it: one repeat waits, the others are dropped; separate presses all go', async () => {
  assert.equal(keyToInput({ key: 'Backspace', repeat: true }), { kind: 'key', key: 'BACKSPACE', repeat: true });
  assert.equal(keyToInput({ key: 'Enter', repeat: true }), { kind: 'button', button: 'ENTER', repeat: true });
  const sent: ToolCall[] = [];
  let release: (() => void) | undefined;
  const queue = new InputQueue(
    () => 'd1',
    (call) => {
      sent.push(call);
      return new Promise<void>((r) => (release = r));
    },
  );
  const step = async () => {
    release!();
    await new Promise((r) => setImmediate(r));
  };
  queue.push({ kind: 'key', key: 'BACKSPACE' });
  // A second of auto-repeat while the device still presses the first Backspace.
  for (let i = 0; i < 30; i++) queue.push({ kind: 'key', key: 'BACKSPACE', repeat: true });
  await step();
  for (let i = 0; i < 30; i++) queue.push({ kind: 'key', key: 'BACKSPACE', repeat: true });
  await step();
  // Let go, then two quick presses of their own.
  queue.push({ kind: 'key', key: 'BACKSPACE' });
  queue.push({ kind: 'key', key: 'BACKSPACE' });
  await step();
  await step();
  release!();
  await queue.idle();
  assert.is(sent.length, 5, `the first press, one repeat per call the device finished, then both presses: ${sent.length} sent`);
  assert.ok(sent.every((c) => c.tool === 'input.key' && c.parameters.key === 'BACKSPACE' && !('repeat' in c.parameters)));
});

test('InputQueue keeps going after a failed call and drops keys when no device is chosen', async () => {
  const sent: string[] = [];
  let device: string | undefined = 'd1';
  const queue = new InputQueue(
    () => device,
    async (call) => {
      sent.push(String(call.parameters.text ?? call.parameters.button));
      if (call.parameters.text === 'x') throw new Error('no focused field');
    },
  );
  queue.push({ kind: 'text', text: 'x' });
  await queue.idle();
  queue.push({ kind: 'text', text: 'y' });
  await queue.idle();
  device = undefined;
  queue.push({ kind: 'text', text: 'z' });
  await queue.idle();
  assert.equal(sent, ['x', 'y']);
});

test.run();
