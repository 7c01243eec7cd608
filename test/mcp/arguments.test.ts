import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { LocalBackend } from '../../src/mcp/backend.js';
import { ANDROID, connectPair, DEMO, jsonOf, textOf, virtualEngine, type Pair } from './helpers.js';

/** The message without the "Next:" advice that follows it. */
const firstLine = (result: Parameters<typeof textOf>[0]) => textOf(result).split('\n')[0];

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

mcp('unknown arguments are refused with the tool named once, a suggestion and the arguments it takes; the device is untouched', async ({ pair }) => {
  await pair.call('open_url', { device: ANDROID, url: 'mbdemo://screen/signin' });
  const typo = await pair.call('type_text', { device: ANDROID, targte: 'the Email field', text: 'x@y.z' });
  assert.ok(typo.isError);
  assert.is(firstLine(typo), 'INVALID_PARAMETER: type_text on virtual-android-1: unknown argument "targte" (did you mean "target"?); it takes "device", "text", "target", "target_pattern", "clear_first"');
  const two = firstLine(await pair.call('type_text', { device: ANDROID, text: 'x', targte: 'the Email field', colour: 'red' }));
  assert.is(two, 'INVALID_PARAMETER: type_text on virtual-android-1: unknown arguments "targte" (did you mean "target"?), "colour"; it takes "device", "text", "target", "target_pattern", "clear_first"');
  // Words other tools use for the same thing: an element description is a target, an app a package.
  assert.is(firstLine(await pair.call('tap', { device: ANDROID, element: 'Sign in' })), 'INVALID_PARAMETER: tap on virtual-android-1: unknown argument "element" (did you mean "target"?); it takes "device", "target", "target_pattern"');
  assert.match(firstLine(await pair.call('launch_app', { device: ANDROID, app_id: 'com.mobilebridge.demo' })), /unknown argument "app_id" \(did you mean "package"\?\)/);
  assert.is(firstLine(await pair.call('list_devices', { verbose: true })), 'INVALID_PARAMETER: list_devices: unknown argument "verbose"; it takes no arguments');
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

mcp('values the tool schema rules out are refused before anything runs: types, ranges, enums', async ({ pair }) => {
  await pair.call('open_url', { device: ANDROID, url: 'mbdemo://screen/signin' });
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ['wait_for', { target: 'the Purple Unicorn banner', timeout_ms: -5 }, /"timeout_ms" must be a whole number from 1000 to 45000 \(got -5\)/],
    ['wait_for', { target: 'the Purple Unicorn banner', timeout_ms: 100_000 }, /"timeout_ms" must be a whole number from 1000 to 45000 \(got 100000\)/],
    ['wait_for', { target: 'the Purple Unicorn banner', timeout_ms: '2 s' }, /"timeout_ms" must be a whole number from 1000 to 45000 \(got "2 s"\)/],
    ['type_text', { target: 'the Email field', text: 5 }, /"text" must be a string \(got 5\)/],
    ['list_elements', { limit: 0 }, /"limit" must be a whole number from 1 to 2000 \(got 0\)/],
    ['recording_start', { name: 'x', app_state: 'fresh' }, /"app_state" must be one of fresh_install, .* \(got "fresh"\); did you mean "fresh_install"\?/],
    ['assert', { type: 'element_exists', element_description: 'the Email field', expected_visible: 'yes' }, /"expected_visible" must be true or false/],
  ];
  for (const [tool, args, re] of cases) {
    const r = await pair.call(tool, { device: ANDROID, ...args });
    assert.ok(r.isError, `${tool} accepted ${JSON.stringify(args)}`);
    assert.match(textOf(r), new RegExp(`^INVALID_PARAMETER: ${tool} on ${ANDROID}: ${re.source}`));
  }
  const fields = jsonOf(await pair.call('list_elements', { device: ANDROID, full: true })).elements as { id: string; text: string }[];
  assert.ok(fields.every((e) => e.text !== '5'), 'nothing was typed');
  const missing = await pair.call('assert', { device: ANDROID, type: 'element_exists' });
  // The assertion's own fields are checked when it is evaluated, and said like every argument error.
  assert.match(textOf(missing), /^INVALID_PARAMETER: assert on virtual-android-1: the assertion is not valid: missing required property "element_description" in the assertion; add it/);
  const outside = await pair.call('assert', { device: ANDROID, type: 'screenshot_match', reference_screenshot: '../home.png', tolerance: 0.1 });
  assert.match(textOf(outside), /^INVALID_PARAMETER: assert on virtual-android-1: reference_screenshot "..\/home.png" must be a path inside the scenario's folder/);
});

mcp('a missing or empty required argument is INVALID_PARAMETER naming the tool\'s own parameter and what to give; nothing runs', async ({ pair }) => {
  await pair.call('open_url', { device: ANDROID, url: 'mbdemo://screen/signin' });
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ['swipe', {}, /"direction" is required: one of up, down, left, right/],
    ['type_text', {}, /"text" is required: The text to type/],
    ['type_text', { target: 'the Email field', text: '' }, /"text" must not be empty: The text to type/],
    ['launch_app', {}, /"package" is required: Android package name or iOS bundle id/],
    ['launch_app', { package: '' }, /"package" must not be empty/],
    ['open_url', {}, /"url" is required: The URL or deep link/],
    ['press_button', {}, /"button" is required: one of BACK, HOME, ENTER/],
    ['clear_app_data', {}, /"package" is required/],
    ['pinch', { target: '', scale: 2 }, /"target" must not be empty/],
    ['pinch', { target: 'the Email field' }, /"scale" is required/],
    ['scroll_to', {}, /give "target" or "target_pattern": The element as a person would describe it/],
    ['tap', { target: '' }, /"target" must not be empty/],
    ['recording_start', { name: '' }, /"name" must not be empty/],
    ['recording_stop', { save_to: '' }, /"save_to" must not be empty/],
    ['tap', { device: '', target: 'the Email field' }, /"device" must not be empty/],
  ];
  for (const [tool, args, re] of cases) {
    const r = await pair.call(tool, { device: ANDROID, ...args });
    assert.ok(r.isError, `${tool} accepted ${JSON.stringify(args)}`);
    // The message names the device the call named, so an agent driving several phones knows which call failed.
    const call = args.device === '' ? tool : `${tool} on ${ANDROID}`;
    assert.match(textOf(r), new RegExp(`^INVALID_PARAMETER: ${call}: ${re.source}`), textOf(r));
    assert.not.match(textOf(r), /"value"/, 'no parameter the tool does not have');
  }
  const fields = jsonOf(await pair.call('list_elements', { device: ANDROID, full: true })).elements as { text: string }[];
  assert.ok(fields.some((e) => e.text === 'Welcome back'), 'still on the sign-in screen: nothing ran');
  // No device and two connected: the device is what is missing, with the ids to choose from.
  assert.match(textOf(await pair.call('swipe', { direction: 'up' })), /^INVALID_PARAMETER: swipe: "device" is required: connected devices are virtual-android-1, virtual-ios-1/);
});

mcp('no device given and none connected: the answer names the device sources that did not answer (no adb server), as list_elements does', async ({ backend }) => {
  const silent = 'source 127.0.0.1-1: the adb server at 127.0.0.1:1 is not reachable (nothing listens there)';
  const none = Object.assign(Object.create(backend) as LocalBackend, { listDevices: async () => [], sourceProblems: () => [silent] });
  const pair = await connectPair(none);
  try {
    const r = await pair.call('tap', { target: 'the Email field' });
    assert.ok(r.isError);
    assert.match(textOf(r), `"device" is required: no device is connected; not answering: ${silent}`);
  } finally {
    await pair.close();
  }
});

mcp('with --device the schemas do not require "device", and calls without it go to that device', async ({ backend }) => {
  const pair = await connectPair(backend, { defaultDevice: ANDROID });
  try {
    const tools = (await pair.client.listTools()).tools;
    for (const t of tools) {
      assert.not.ok(((t.inputSchema as { required?: string[] }).required ?? []).includes('device'), `${t.name} still requires device`);
    }
    const swipe = tools.find((t) => t.name === 'swipe')!;
    assert.equal((swipe.inputSchema as { required?: string[] }).required, ['direction']);
    assert.match((swipe.inputSchema.properties as { device: { description: string } }).device.description, /virtual-android-1/);
    const r = await pair.call('open_url', { url: 'mbdemo://screen/signin' });
    assert.not.ok(r.isError, textOf(r));
    assert.match(textOf(await pair.call('swipe', {})), /^INVALID_PARAMETER: swipe on virtual-android-1: "direction" is required/);
  } finally {
    await pair.close();
  }
  // Without it, strict clients are told to name the device: it is listed as required.
  const plain = await connectPair(backend);
  try {
    const tap = (await plain.client.listTools()).tools.find((t) => t.name === 'tap')!;
    assert.equal((tap.inputSchema as { required?: string[] }).required, ['device']);
  } finally {
    await plain.close();
  }
});

mcp('enum values in another case are taken in their canonical spelling: they run, and a recording of them validates', async ({ pair }) => {
  const png = await pair.call('take_screenshot', { device: ANDROID, format: 'PNG' });
  assert.equal(png.content.map((c) => (c.type === 'image' ? c.mimeType : c.type)), ['image/png', 'text']);
  const gone = await pair.call('wait_for', { device: ANDROID, until: 'GONE', target: 'the Purple Unicorn banner', timeout_ms: 1000 });
  assert.not.ok(gone.isError, textOf(gone));
  // Signed in, so that LOGGED_OUT is seen to clear the data.
  await pair.call('launch_app', { device: ANDROID, package: DEMO });
  await pair.call('type_text', { device: ANDROID, target: 'the Email field', text: 'demo@example.com' });
  await pair.call('type_text', { device: ANDROID, target: 'the Password field', text: 'secret123' });
  await pair.call('tap', { device: ANDROID, target: 'the Sign in button' });
  await pair.call('wait_for', { device: ANDROID, until: 'loading_complete', timeout_ms: 5000 });
  assert.is(jsonOf(await pair.call('assert', { device: ANDROID, type: 'screen_title', expected_text: 'Items' })).status, 'passed');
  const started = await pair.call('recording_start', { device: ANDROID, name: 'Cases', app_package: DEMO, app_state: 'LOGGED_OUT' });
  assert.not.ok(started.isError, textOf(started));
  for (const [tool, args] of [
    ['launch_app', { package: DEMO }],
    ['wait_for', { until: 'VISIBLE', target: 'the Email field' }],
    ['swipe', { direction: 'UP' }],
    ['wait_for', { until: 'Loading_Complete', indicator: 'SPINNER' }],
    ['press_button', { button: 'home' }],
  ] as const) {
    const r = await pair.call(tool, { device: ANDROID, ...args });
    assert.not.ok(r.isError, `${tool}: ${textOf(r)}`);
  }
  const stopped = jsonOf(await pair.call('recording_stop', { device: ANDROID }));
  assert.is(stopped.validation.valid, true, JSON.stringify(stopped.validation.errors));
  const doc = stopped.scenario;
  assert.equal(doc.preconditions, { app_state: 'logged_out' });
  assert.equal(doc.steps.map((s: { action: string; value?: string }) => [s.action, s.value]), [
    ['launch_app', undefined],
    ['wait_for_element', undefined],
    ['swipe', 'up'],
    ['wait_for_loading_complete', undefined],
    ['press_button', 'HOME'],
  ]);
  assert.is(doc.steps[3].wait_config.indicator, 'spinner');
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

mcp('assert: a failed check is an answer; a check that could not be made (status error) is an error result carrying the same object', async ({ pair }) => {
  const failed = await pair.call('assert', { device: ANDROID, type: 'element_exists', element_description: 'the Purple Unicorn banner' });
  assert.not.ok(failed.isError, textOf(failed));
  assert.is(jsonOf(failed).status, 'failed');
  const broken = await pair.call('assert', { device: ANDROID, type: 'pattern_match', element_description: 'the Email field', pattern: '(' });
  assert.ok(broken.isError, textOf(broken));
  assert.is(jsonOf(broken).status, 'error', textOf(broken));
  assert.match(jsonOf(broken).message, /not a valid regular expression/);
});

mcp.run();
