import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { deadPort } from '../support/dead-port.js';
import sharp from 'sharp';
import { createEngine } from '../../src/engine/create.js';
import { failure } from '../../src/engine/errors.js';
import { LocalBackend, type AgentBackend } from '../../src/mcp/backend.js';
import { ANDROID, connectPair, DEMO, IOS, jsonOf, refusal, textOf, virtualEngine, type Pair } from './helpers.js';

const mcp = suite<{ pair: Pair; backend: LocalBackend; dir: string }>('MCP server on a local engine');

mcp.before.each(async (ctx) => {
  const { engine, verbClock } = virtualEngine();
  ctx.backend = new LocalBackend(engine, { clock: verbClock, targetWaitMs: 500, settleMs: 0 });
  ctx.pair = await connectPair(ctx.backend, { engineTools: true });
  ctx.dir = mkdtempSync(join(tmpdir(), 'mb-mcp-'));
});
mcp.after.each(async (ctx) => {
  await ctx.pair.close();
  await ctx.backend.close();
  rmSync(ctx.dir, { recursive: true, force: true });
});

mcp('lists verbs, session tools and (with --engine-tools) the raw mobile_* tools, each described for a model', async ({ pair }) => {
  const { tools } = await pair.client.listTools();
  const names = tools.map((t) => t.name);
  for (const n of ['tap', 'type_text', 'swipe', 'scroll_to', 'wait_for', 'assert', 'press_back', 'launch_app', 'list_devices', 'list_elements', 'take_screenshot', 'recording_start', 'recording_stop', 'mobile_take_screenshot', 'mobile_click_on_screen_at_coordinates']) {
    assert.ok(names.includes(n), `missing tool ${n}`);
  }
  for (const t of tools) {
    assert.is(t.inputSchema.type, 'object', t.name);
    assert.ok((t.description ?? '').length > 40, `${t.name} has a real description`);
  }
  const tap = tools.find((t) => t.name === 'tap')!;
  assert.match(tap.description!, /ELEMENT_NOT_FOUND/);
});

mcp('without --engine-tools the raw tools are neither listed nor callable', async ({ backend }) => {
  const pair = await connectPair(backend);
  try {
    const { tools } = await pair.client.listTools();
    assert.not.ok(tools.some((t) => t.name.startsWith('mobile_')));
    // A tool the server does not offer is a JSON-RPC -32602 (MCP tools, "Error Handling"), whose message says what to call instead.
    const r = await refusal(pair.call('mobile_list_apps', { device: ANDROID }));
    assert.is(r.code, -32602);
    // The raw name is named as it was called (not rewritten into a hint inside the quotes), with the tool to call instead.
    assert.match(r.message, /^tool "mobile_list_apps" is not offered: the raw mobile_\* tools need `mobilebridge mcp --engine-tools`; call "list_apps", which does the same here/);
    const typo = await refusal(pair.call('tpa', { device: ANDROID }));
    assert.is(typo.code, -32602);
    assert.match(typo.message, /^unknown tool "tpa"; did you mean "tap"\?/);
  } finally {
    await pair.close();
  }
});

mcp('list_devices notes a device source that did not answer (a missing phone is explained); none when all answer', async ({ pair }) => {
  assert.equal(Object.keys(jsonOf(await pair.call('list_devices'))), ['devices']);
  const port = await deadPort();
  const engine = createEngine({ sources: { adb: [{ name: 'lab', host: '127.0.0.1', port, startServer: false }], wda: [] } });
  const backend = new LocalBackend(engine);
  const lab = await connectPair(backend);
  try {
    const listed = jsonOf(await lab.call('list_devices'));
    assert.ok(listed.devices.some((d: { id: string }) => d.id === ANDROID), 'the virtual phones are still listed');
    assert.equal(listed.notes.length, 1);
    assert.match(listed.notes[0], `source lab: the adb server at 127.0.0.1:${port}`);
    assert.match(listed.notes[0], 'is not reachable (nothing listens there)');
  } finally {
    await lab.close();
    await backend.close();
  }
});

mcp('pinch: the element the description names is zoomed; an unknown one is ELEMENT_NOT_FOUND with candidates', async ({ pair }) => {
  assert.not.ok((await pair.call('open_url', { device: ANDROID, url: 'mbdemo://item/2' })).isError);
  const r = await pair.call('pinch', { device: ANDROID, target: 'the photo of item 2', scale: 2 });
  assert.not.ok(r.isError, textOf(r));
  const out = jsonOf(r);
  assert.equal([out.action, out.status, out.resolved.id], ['pinch', 'passed', 'detail_image']);
  assert.match(out.message, /^spread two fingers around/);
  const listed = jsonOf(await pair.call('list_elements', { device: ANDROID }));
  assert.ok(listed.elements.some((e: { text?: string }) => e.text === 'Zoom 200 %'), JSON.stringify(listed.elements));
  const missing = await pair.call('pinch', { device: ANDROID, target: 'the world map', scale: 2 });
  assert.ok(missing.isError);
  assert.match(textOf(missing), /^ELEMENT_NOT_FOUND: /);
  // A point is no description, as for every verb: the caller's mistake, not a missing element.
  const point = await pair.call('pinch', { device: ANDROID, target: '540, 536', scale: 2 });
  assert.match(textOf(point), /^INVALID_PARAMETER: "540, 536" is a point, not a description/);
  const bad = await pair.call('pinch', { device: ANDROID, target: 'the photo', scale: 9 });
  assert.match(textOf(bad), /^INVALID_PARAMETER: /);
});

mcp('open_url to an item the demo app does not have passes, and says the app shows "Item not found"', async ({ pair }) => {
  const missing = jsonOf(await pair.call('open_url', { device: ANDROID, url: 'mbdemo://item/999' }));
  assert.equal([missing.status, missing.message], ['passed', 'opened mbdemo://item/999; the demo app has no item 999 (items 1–60), so it shows "Item not found"']);
  assert.is(jsonOf(await pair.call('open_url', { device: ANDROID, url: 'mbdemo://item/2' })).message, 'opened mbdemo://item/2');
});

mcp('runs verbs with semantic targets on the virtual phone', async ({ pair }) => {
  const devices = jsonOf(await pair.call('list_devices'));
  assert.ok(devices.devices.some((d: { id: string }) => d.id === ANDROID));
  assert.not.ok((await pair.call('open_url', { device: ANDROID, url: 'mbdemo://screen/signin' })).isError);
  const typed = await pair.call('type_text', { device: ANDROID, target: 'the Email field', text: 'demo@example.com' });
  assert.not.ok(typed.isError, textOf(typed));
  const outcome = jsonOf(typed);
  assert.is(outcome.status, 'passed');
  assert.is(outcome.resolved.id, 'email');
  const elements = jsonOf(await pair.call('list_elements', { device: ANDROID }));
  assert.ok(elements.elements.some((e: { text: string }) => e.text === 'demo@example.com'));
  const full = jsonOf(await pair.call('list_elements', { device: ANDROID, full: true }));
  assert.ok(full.elements.some((e: { text: string; accessibility_label: string | null }) => e.text === 'demo@example.com' && 'accessibility_label' in e));
  const check = jsonOf(await pair.call('assert', { device: ANDROID, type: 'element_text', element_description: 'the Email field', expected_value: 'demo@example.com' }));
  assert.is(check.status, 'passed', check.message);
  const failed = await pair.call('assert', { device: ANDROID, type: 'element_exists', element_description: 'the Purple Unicorn banner' });
  assert.not.ok(failed.isError, 'a failed check is a result, not an error');
  assert.is(jsonOf(failed).status, 'failed');
});

mcp('list_elements keeps the device\'s note on its listing (a tree cut at WDA\'s depth, an app error dialog) in the compact form too', async ({ backend, pair }) => {
  const callTool = backend.callTool.bind(backend);
  const note = 'Android shows its app error dialog ("Demo keeps stopping"): the app crashed';
  backend.callTool = async (tool, parameters) => {
    const r = await callTool(tool, parameters);
    return tool === 'mobile_list_elements_on_screen' ? { ...(r as object), note } : r;
  };
  assert.is(jsonOf(await pair.call('list_elements', { device: ANDROID })).note, note);
  assert.is(jsonOf(await pair.call('list_elements', { device: ANDROID, full: true })).note, note);
  // With a note of the paging's own, the device's comes first.
  const past = jsonOf(await pair.call('list_elements', { device: ANDROID, offset: 5000 }));
  assert.match(past.note, new RegExp(`^${note.replace(/[()]/g, '\\$&')}; offset 5000 is past`));
});

mcp('screenshots come back as an image well under 1 MB with the image → device pixel factor', async ({ pair }) => {
  for (const [device, width] of [[ANDROID, 1080], [IOS, 1179]] as const) {
    const r = await pair.call('take_screenshot', { device });
    assert.not.ok(r.isError, textOf(r));
    const image = r.content.find((c) => c.type === 'image') as { data: string; mimeType: string };
    assert.is(image.mimeType, 'image/jpeg');
    assert.ok(image.data.length < 1_000_000, `${image.data.length} base64 characters`);
    const meta = await sharp(Buffer.from(image.data, 'base64')).metadata();
    const factor = Number(/Scale factor ([\d.]+)/.exec(textOf(r))![1]);
    assert.ok(Math.abs(meta.width! * factor - width) < 1, `${meta.width} × ${factor} ≈ ${width}`);
    assert.match(textOf(r), new RegExp(`device screen ${width}×`));
  }
  // PNG on request, and the raw engine tool is scaled the same way (its full PNG would not fit a 1 MB cap).
  const png = await pair.call('take_screenshot', { device: ANDROID, format: 'png', max_size: 400 });
  const image = png.content.find((c) => c.type === 'image') as { data: string; mimeType: string };
  assert.is(image.mimeType, 'image/png');
  assert.ok((await sharp(Buffer.from(image.data, 'base64')).metadata()).height! <= 400);
  // max_size bounds both sides on every screen shape (the iPhone's 1179×2556 once came back 185×401).
  for (const device of [ANDROID, IOS]) {
    for (const [format, maxSize] of [['jpeg', 400], ['png', 400], ['jpeg', 333], ['jpeg', 1001]] as const) {
      const shot = await pair.call('take_screenshot', { device, format, max_size: maxSize });
      const img = shot.content.find((c) => c.type === 'image') as { data: string };
      const m = await sharp(Buffer.from(img.data, 'base64')).metadata();
      assert.ok(m.width! <= maxSize && m.height! <= maxSize, `${device} ${format} max_size ${maxSize}: ${m.width}×${m.height}`);
      assert.ok(Math.max(m.width!, m.height!) >= maxSize - 2, `${device} uses the room it has: ${m.width}×${m.height}`);
    }
  }
  const raw = await pair.call('mobile_take_screenshot', { device: ANDROID });
  assert.ok(raw.content.some((c) => c.type === 'image'));
});

/** Each error code as an isError result whose text names the code, what was wrong and what to do next. */
mcp('every error code is an isError result with an actionable message', async ({ pair, dir }) => {
  const cases: [string, string, Record<string, unknown>, RegExp][] = [
    ['DEVICE_NOT_FOUND', 'tap', { device: 'pixel-99', target: 'the Sign in button' }, /pixel-99.*\n.*list_devices/s],
    ['APP_NOT_INSTALLED', 'launch_app', { device: ANDROID, package: 'com.example.absent' }, /com\.example\.absent.*list_apps/s],
    ['ELEMENT_NOT_FOUND', 'tap', { device: ANDROID, target: 'the Purple Unicorn button' }, /Purple Unicorn.*list_elements/s],
    ['TIMEOUT', 'wait_for', { device: ANDROID, until: 'gone', target: 'the Email field', timeout_ms: 1000 }, /still on screen.*Take a screenshot/s],
    ['INVALID_PARAMETER', 'swipe', { device: ANDROID, direction: 'sideways' }, /sideways.*Fix "direction" as the message says/s],
    ['PERMISSION_DENIED', 'mobile_save_screenshot', { device: ANDROID, saveTo: '/proc/forbidden/shot.png' }, /saveTo.*allowed folders|outside/s],
    ['UNSUPPORTED', 'mobile_clear_app_data', { device: IOS, packageName: DEMO }, /virtual-ios-1.*\nNext: This platform cannot/s],
    ['NEEDS_MANUAL', 'clear_app_data', { device: IOS, package: DEMO }, /by hand.*\nNext: A person has to do this/s],
  ];
  await pair.call('open_url', { device: ANDROID, url: 'mbdemo://screen/signin' });
  for (const [code, tool, args, pattern] of cases) {
    const r = await pair.call(tool, args);
    assert.ok(r.isError, `${code}: ${textOf(r)}`);
    const t = textOf(r);
    assert.ok(t.startsWith(`${code}: `), `${code} expected, got: ${t}`);
    assert.match(t, pattern);
    assert.match(t, /\nNext: /);
  }
  // No device given while two are connected: the message lists them.
  const missing = await pair.call('press_back', {});
  assert.ok(missing.isError);
  assert.match(textOf(missing), /INVALID_PARAMETER: .*virtual-android-1, virtual-ios-1/);
  // An ambiguous target names the candidates.
  await pair.call('open_url', { device: ANDROID, url: 'mbdemo://screen/home' });
  const ambiguous = await pair.call('tap', { device: ANDROID, target: 'the item' });
  assert.ok(ambiguous.isError);
  assert.match(textOf(ambiguous), /ELEMENT_NOT_FOUND: .*Closest elements: /s);
  void dir;
});

mcp('INTERNAL failures of the backend come back as isError results too', async () => {
  const broken: AgentBackend = {
    where: 'a broken backend',
    listDevices: async () => failure('INTERNAL', 'the device list could not be read (socket closed)'),
    engineTools: async () => [],
    callTool: async () => failure('INTERNAL', 'x'),
    screenshot: async () => failure('INTERNAL', 'x'),
    runVerb: async () => failure('INTERNAL', 'the verb could not run (socket closed)'),
    assert: async () => failure('INTERNAL', 'x'),
    startRecording: async () => failure('INTERNAL', 'x'),
    stopRecording: async () => failure('INTERNAL', 'x'),
    close: async () => undefined,
  };
  const pair = await connectPair(broken);
  try {
    const r = await pair.call('tap', { device: ANDROID, target: 'the Sign in button' });
    assert.ok(r.isError);
    assert.match(textOf(r), /^INTERNAL: the verb could not run \(socket closed\)\nNext: Something failed inside mobilebridge. Retry once/);
    const list = await pair.call('list_devices');
    assert.ok(list.isError);
  } finally {
    await pair.close();
  }
});

mcp('--engine-tools with engine tools that cannot be listed (a bridge reconnecting): tools/list still lists the server\'s own tools', async ({ backend }) => {
  const reconnecting: AgentBackend = Object.assign(Object.create(backend) as AgentBackend, { engineTools: async () => failure('INTERNAL', 'tools.list on the bridge failed: connection closed') });
  const pair = await connectPair(reconnecting, { engineTools: true });
  try {
    const { tools } = await pair.client.listTools();
    assert.ok(tools.some((t) => t.name === 'tap') && tools.some((t) => t.name === 'take_screenshot'), tools.map((t) => t.name).join());
    assert.not.ok(tools.some((t) => t.name.startsWith('mobile_')));
  } finally {
    await pair.close();
  }
});

mcp.run();
