import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { LocalBackend } from '../../src/mcp/backend.js';
import { ANDROID, connectPair, DEMO, jsonOf, textOf, virtualEngine, type Pair } from './helpers.js';

const mcp = suite<{ backend: LocalBackend; pair: Pair }>('MCP arguments, waits, hints and recordings');

mcp.before.each(async (ctx) => {
  const { engine, verbClock } = virtualEngine();
  ctx.backend = new LocalBackend(engine, { clock: verbClock, targetWaitMs: 500, settleMs: 0 });
  ctx.pair = await connectPair(ctx.backend);
});
mcp.after.each(async (ctx) => {
  await ctx.pair.close();
  await ctx.backend.close();
});

mcp('unknown arguments are refused with the tool name, a suggestion and the arguments it takes; the device is untouched', async ({ pair }) => {
  await pair.call('open_url', { device: ANDROID, url: 'mbdemo://screen/signin' });
  const typo = await pair.call('type_text', { device: ANDROID, targte: 'the Email field', text: 'x@y.z' });
  assert.ok(typo.isError);
  assert.match(textOf(typo), /^INVALID_PARAMETER: type_text: unknown argument "targte" \(did you mean "target"\?\); type_text takes "device", "text", "target", "target_pattern"/);
  const fields = jsonOf(await pair.call('list_elements', { device: ANDROID, full: true })).elements as { id: string; text: string }[];
  assert.ok(fields.every((e) => e.text !== 'x@y.z'), 'nothing was typed');
  for (const [tool, args] of [['list_devices', { verbose: true }], ['take_screenshot', { device: ANDROID, size: 400 }], ['assert', { device: ANDROID, type: 'alert_present', timeout: 5 }], ['press_back', { device: ANDROID, times: 2 }]] as const) {
    const r = await pair.call(tool, args);
    assert.ok(r.isError, `${tool} accepted ${JSON.stringify(args)}`);
    assert.match(textOf(r), /unknown argument/);
  }
  const schemas = (await pair.client.listTools()).tools;
  assert.ok(schemas.every((t) => (t.inputSchema as { additionalProperties?: boolean }).additionalProperties === false));
});

mcp('wait_for that runs out of time is TIMEOUT, for visible as for gone', async ({ pair }) => {
  await pair.call('open_url', { device: ANDROID, url: 'mbdemo://screen/signin' });
  const visible = await pair.call('wait_for', { device: ANDROID, until: 'visible', target: 'the Purple Unicorn banner', timeout_ms: 1000 });
  assert.ok(visible.isError);
  assert.match(textOf(visible), /^TIMEOUT: "the Purple Unicorn banner" did not appear on virtual-android-1 within 1000 ms/);
  const gone = await pair.call('wait_for', { device: ANDROID, until: 'gone', target: 'the Email field', timeout_ms: 1000 });
  assert.match(textOf(gone), /^TIMEOUT: /);
});

mcp('error hints name only tools this agent has (no raw mobile_* tools without --engine-tools)', async ({ pair, backend }) => {
  const absent = await pair.call('launch_app', { device: ANDROID, package: 'com.example.absent' });
  const text = textOf(absent);
  assert.match(text, /^APP_NOT_INSTALLED: /);
  assert.match(text, /list_apps shows the installed packages/);
  assert.not.match(text, /mobile_list_apps/);
  assert.match(text, /mobile_install_app \(not offered here: start the server with --engine-tools/);
  const withTools = await connectPair(backend, { engineTools: true });
  try {
    assert.match(textOf(await withTools.call('launch_app', { device: ANDROID, package: 'com.example.absent' })), /mobile_list_apps shows the installed packages/);
  } finally {
    await withTools.close();
  }
});

mcp('a recording that ends on the home screen keeps the app the agent worked in as app_package', async ({ pair }) => {
  assert.not.ok((await pair.call('recording_start', { device: ANDROID, name: 'Browse more' })).isError);
  for (const [tool, args] of [['open_url', { url: 'mbdemo://screen/more' }], ['tap', { target: 'Save draft' }], ['press_button', { button: 'HOME' }]] as const) {
    const r = await pair.call(tool, { device: ANDROID, ...args });
    assert.not.ok(r.isError, `${tool}: ${textOf(r)}`);
  }
  const front = jsonOf(await pair.call('list_elements', { device: ANDROID, full: true })).elements as { package?: string }[];
  assert.ok(front.some((e) => /launcher/.test(e.package ?? '')), 'the agent ended on the launcher');
  const stopped = jsonOf(await pair.call('recording_stop', { device: ANDROID }));
  assert.is(stopped.scenario.app_package, DEMO);
});

mcp('a tap on an element under a dialog is ELEMENT_NOT_FOUND naming the dialog, not a silent success', async ({ pair }) => {
  await pair.call('open_url', { device: ANDROID, url: 'mbdemo://screen/more' });
  assert.not.ok((await pair.call('tap', { device: ANDROID, target: 'Show alert' })).isError);
  const covered = await pair.call('tap', { device: ANDROID, target: 'Save draft' });
  assert.ok(covered.isError);
  assert.match(textOf(covered), /^ELEMENT_NOT_FOUND: .*a dialog "Reset likes\?" covers the app/s);
  const listed = jsonOf(await pair.call('list_elements', { device: ANDROID, full: true })).elements as { text: string }[];
  assert.not.ok(listed.some((e) => e.text === 'Save draft'));
});

mcp.run();
