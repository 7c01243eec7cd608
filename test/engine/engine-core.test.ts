import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Engine } from '../../src/engine/engine.js';
import { ToolError } from '../../src/engine/errors.js';
import { TOOLS } from '../../src/engine/tools/index.js';
import { RecordingDriver } from './recording-driver.js';

const tap = (device: string, x = 1) => ({ device, x, y: 1 });

test('calls on one device run one at a time, in arrival order', async () => {
  const driver = new RecordingDriver(['a']);
  const engine = new Engine({ drivers: [driver] });
  await Promise.all([1, 2, 3].map((x) => engine.call('mobile_click_on_screen_at_coordinates', tap('a', x))));
  assert.equal(driver.log, ['start a tap 1,1', 'end a tap 1,1', 'start a tap 2,1', 'end a tap 2,1', 'start a tap 3,1', 'end a tap 3,1']);
  await engine.close();
});

test('calls on different devices run in parallel', async () => {
  const driver = new RecordingDriver(['a', 'b']);
  const engine = new Engine({ drivers: [driver] });
  await Promise.all([engine.call('mobile_click_on_screen_at_coordinates', tap('a')), engine.call('mobile_click_on_screen_at_coordinates', tap('b'))]);
  assert.equal(driver.log.slice(0, 2).sort(), ['start a tap 1,1', 'start b tap 1,1']);
  await engine.close();
});

test('a call over its deadline is TIMEOUT and frees the device for the next call', async () => {
  const driver = new RecordingDriver(['a']);
  driver.delayMs = 200;
  const engine = new Engine({ drivers: [driver], timeoutMs: 30 });
  const slow = (await engine.call('mobile_click_on_screen_at_coordinates', tap('a'))) as { code: string; message: string };
  assert.is(slow.code, 'TIMEOUT');
  assert.match(slow.message, /mobile_click_on_screen_at_coordinates on a did not finish within 30 ms/);
  driver.delayMs = 1;
  assert.is(((await engine.call('mobile_click_on_screen_at_coordinates', tap('a'))) as { status: string }).status, 'success');
  await engine.close();
});

test('unknown device is DEVICE_NOT_FOUND and names the devices that exist', async () => {
  const engine = new Engine({ drivers: [new RecordingDriver(['a', 'b'])] });
  const r = (await engine.call('mobile_get_screen_size', { device: 'zz' })) as { code: string; message: string };
  assert.is(r.code, 'DEVICE_NOT_FOUND');
  assert.match(r.message, /"zz" not found; connected devices: a, b/);
  await engine.close();
});

test('driver exceptions never escape: ToolError keeps its code, anything else is INTERNAL', async () => {
  const driver = new RecordingDriver(['a']);
  const engine = new Engine({ drivers: [driver] });
  driver.throwOnTap = new ToolError('PERMISSION_DENIED', 'device said no');
  assert.equal(await engine.call('mobile_click_on_screen_at_coordinates', tap('a')), { status: 'error', code: 'PERMISSION_DENIED', message: 'device said no' });
  driver.throwOnTap = new TypeError('boom');
  // A message that does not name the device gets the call's name in front (SPEC §2: every failure names it).
  assert.equal(await engine.call('mobile_click_on_screen_at_coordinates', tap('a')), { status: 'error', code: 'INTERNAL', message: 'mobile_click_on_screen_at_coordinates on a: boom' });
  await engine.close();
});

test('a handler\'s failure about a parameter alone names the device too (protocol audit: "text is empty")', async () => {
  const { createEngine } = await import('../../src/engine/create.js');
  const engine = createEngine({ android: false, ios: false });
  try {
    const r = (await engine.call('mobile_type_keys', { device: 'virtual-android-1', text: '' })) as { code: string; message: string };
    assert.is(r.code, 'INVALID_PARAMETER');
    assert.match(r.message, /^mobile_type_keys on virtual-android-1: text is empty/);
  } finally {
    await engine.close();
  }
});

test('coordinates outside the screen are INVALID_PARAMETER with the screen size', async () => {
  const engine = new Engine({ drivers: [new RecordingDriver(['a'])] });
  const r = (await engine.call('mobile_click_on_screen_at_coordinates', { device: 'a', x: 100, y: 5 })) as { code: string; message: string };
  assert.is(r.code, 'INVALID_PARAMETER');
  assert.match(r.message, /outside the screen of a \(100×200 pixels/);
  await engine.close();
});

test('swipe goes through the screen centre by 30% of the dimension by default', async () => {
  const driver = new RecordingDriver(['a']);
  const engine = new Engine({ drivers: [driver] });
  await engine.call('mobile_swipe_on_screen', { device: 'a', direction: 'up' });
  await engine.call('mobile_swipe_on_screen', { device: 'a', direction: 'right', distance: 40 });
  assert.equal(driver.log.filter((l) => l.startsWith('start')), ['start a swipe 50,130->50,70', 'start a swipe 30,100->70,100']);
  const tooFar = (await engine.call('mobile_swipe_on_screen', { device: 'a', direction: 'up', distance: 500 })) as { code: string };
  assert.is(tooFar.code, 'INVALID_PARAMETER');
  await engine.close();
});

test('a swipe almost as long as the screen is shortened to stay clear of the edges (8 % each), where system gestures start, and says so', async () => {
  const driver = new RecordingDriver(['a']);
  const engine = new Engine({ drivers: [driver] });
  const messages: string[] = [];
  for (const [direction, distance] of [['up', 199], ['down', 199], ['left', 99], ['right', 99], ['up', 168], ['up', 61]] as const) {
    const r = (await engine.call('mobile_swipe_on_screen', { device: 'a', direction, distance })) as { status: string; message: string };
    assert.is(r.status, 'success', r.message);
    messages.push(r.message);
  }
  assert.equal(driver.log.filter((l) => l.startsWith('start')), [
    'start a swipe 50,184->50,16',
    'start a swipe 50,16->50,184',
    'start a swipe 92,100->8,100',
    'start a swipe 8,100->92,100',
    'start a swipe 50,184->50,16',
    'start a swipe 50,131->50,70',
  ]);
  assert.match(messages[0], /^swiped up 168 px on a \(shortened from 199 px: a longer swipe starts within 16 px of the screen's edge, where the system takes it as back, home or the notification shade/);
  assert.match(messages[3], /^swiped right 84 px on a \(shortened from 99 px/);
  assert.is(messages[4], 'swiped up 168 px on a');
  assert.is(messages[5], 'swiped up 61 px on a');
  const whole = (await engine.call('mobile_swipe_on_screen', { device: 'a', direction: 'up', distance: 200 })) as { code: string; message: string };
  assert.is(whole.code, 'INVALID_PARAMETER');
  assert.match(whole.message, /distance 200 does not fit on the screen of a, which is 200 pixels high: use at most 168/);
  await engine.close();
});

test('BACK on an iOS device is INVALID_PARAMETER naming the alternative', async () => {
  const driver = new RecordingDriver(['a']);
  const open = driver.open.bind(driver);
  driver.open = async (id) => {
    const h = await open(id);
    return h && { ...h, info: { ...h.info, os: 'iOS' as const } };
  };
  const engine = new Engine({ drivers: [driver] });
  const r = (await engine.call('mobile_press_button', { device: 'a', button: 'BACK' })) as { code: string; message: string };
  assert.is(r.code, 'INVALID_PARAMETER');
  assert.match(r.message, /press_back/);
  await engine.close();
});

test('screenshots may only be saved under allowed folders, symlinks resolved', async () => {
  const engine = new Engine({ drivers: [] });
  const outside = '/mobilebridge-should-not-exist/x.png';
  const denied = await engine.allowedPaths.check(outside, 'saveTo').catch((e: ToolError) => e);
  assert.instance(denied, ToolError);
  assert.is((denied as ToolError).code, 'PERMISSION_DENIED');
  const dir = mkdtempSync(join(tmpdir(), 'mb-paths-'));
  try {
    assert.is(await engine.allowedPaths.check(join(dir, 'a', 'b.png'), 'saveTo'), join(dir, 'a', 'b.png'));
    symlinkSync('/etc', join(dir, 'escape'));
    const viaLink = await engine.allowedPaths.check(join(dir, 'escape', 'passwd'), 'saveTo').catch((e: ToolError) => e);
    assert.is((viaLink as ToolError).code, 'PERMISSION_DENIED');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('every tool has a description and a JSON Schema of its parameters', () => {
  const engine = new Engine({ drivers: [] });
  const tools = engine.listTools();
  assert.is(tools.length, 24);
  for (const t of tools) {
    assert.ok(t.description.length > 40, t.name);
    assert.is(t.parameters.type, 'object', t.name);
    // A model reads the schema: every parameter says what it means, not only its type.
    for (const [name, p] of Object.entries((t.parameters.properties ?? {}) as Record<string, { description?: string }>)) {
      assert.ok((p.description ?? '').length > 10, `${t.name}.${name} has no description`);
    }
  }
  const longPress = tools.find((t) => t.name === 'mobile_long_press_on_screen_at_coordinates')!;
  const props = longPress.parameters.properties as Record<string, { maximum?: number }>;
  assert.is(props.duration.maximum, 10000);
  assert.equal(TOOLS.map((t) => t.name).filter((n) => !n.startsWith('mobile_')), []);
});

test('the tool list is built once and cannot be altered by a caller', () => {
  const first = new Engine({ drivers: [] }).listTools();
  assert.is(new Engine({ drivers: [] }).listTools(), first, 'the same list for every engine and call');
  assert.throws(() => {
    (first[0].parameters as { type: string }).type = 'array';
  }, TypeError);
  assert.is(first[0].parameters.type, 'object');
});

test.run();
