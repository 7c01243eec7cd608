import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { LocalBackend } from '../../src/mcp/backend.js';
import { ANDROID, connectPair, DEMO, jsonOf, textOf, virtualEngine, type Pair } from './helpers.js';

/** The raw mobile_* tools under MCP take what the verbs take: null for "not given", listed values in any case, numbers and booleans as text. */
const mcp = suite<{ backend: LocalBackend; pair: Pair }>('MCP: null and the case of listed values, raw tools and verbs alike');

mcp.before.each(async (ctx) => {
  const { engine, verbClock } = virtualEngine();
  ctx.backend = new LocalBackend(engine, { clock: verbClock, targetWaitMs: 500, settleMs: 0 });
  ctx.pair = await connectPair(ctx.backend, { engineTools: true });
});
mcp.after.each(async (ctx) => {
  await ctx.pair.close();
  await ctx.backend.close();
});

const passes = async (pair: Pair, tool: string, args: Record<string, unknown>): Promise<string> => {
  const r = await pair.call(tool, { device: ANDROID, ...args });
  assert.not.ok(r.isError, `${tool} ${JSON.stringify(args)}: ${textOf(r)}`);
  return textOf(r);
};

mcp('an optional argument given as null is not given, on the raw tools as on the verbs', async ({ pair }) => {
  await passes(pair, 'open_url', { url: 'mbdemo://screen/signin' });
  assert.match(await passes(pair, 'mobile_swipe_on_screen', { direction: 'up', distance: null }), /swiped up \d+ px on virtual-android-1/);
  assert.match(await passes(pair, 'mobile_long_press_on_screen_at_coordinates', { x: 10, y: 10, duration: null }), /for 500 ms/);
  await passes(pair, 'mobile_take_screenshot', { format: null, max_size: null });
  await passes(pair, 'take_screenshot', { format: null, max_size: null });
  await passes(pair, 'wait_for', { target: 'the Sign in button', timeout_ms: null });
});

mcp('a listed value in another case is that value, on the raw tools as on the verbs', async ({ pair }) => {
  assert.match(await passes(pair, 'mobile_swipe_on_screen', { direction: 'UP' }), /swiped up /);
  assert.match(await passes(pair, 'mobile_press_button', { button: 'Home' }), /pressed HOME on virtual-android-1/);
  assert.match(await passes(pair, 'mobile_set_orientation', { orientation: 'Portrait' }), /to portrait/);
  await passes(pair, 'swipe', { direction: 'UP' });
  await passes(pair, 'press_button', { button: 'Home' });
});

mcp('a number or a boolean sent as text is that value, on the raw tools as on the verbs, and is recorded as one', async ({ pair }) => {
  await passes(pair, 'recording_start', { name: 'text numbers', app_package: DEMO });
  await passes(pair, 'open_url', { url: 'mbdemo://screen/signin' });
  await passes(pair, 'wait_for', { target: 'the Sign in button', timeout_ms: '3000' });
  assert.match(await passes(pair, 'mobile_long_press_on_screen_at_coordinates', { x: '10', y: '10', duration: '600' }), /for 600 ms/);
  const page = jsonOf(await pair.call('list_elements', { device: ANDROID, offset: '2', limit: '2', full: 'false' }));
  assert.equal([page.offset, page.elements.length, page.next_offset], [2, 2, 4]);
  await passes(pair, 'take_screenshot', { max_size: '400' });
  await passes(pair, 'mobile_take_screenshot', { max_size: '400' });
  const counted = jsonOf(await pair.call('assert', { device: ANDROID, type: 'element_count', element_description: 'the Sign in button', operator: '>=', expected_count: '1' }));
  assert.is(counted.status, 'passed', counted.message);
  const stopped = jsonOf(await pair.call('recording_stop', { device: ANDROID }));
  const wait = stopped.scenario.steps.find((s: { action: string }) => s.action === 'wait_for_element');
  assert.is(wait.wait_config.timeout_ms, 3000);
  assert.is(stopped.scenario.assertions[0].expected_count, 1);
});

mcp('text that is not exactly a number is refused as before, and ranges judge the number', async ({ pair }) => {
  for (const text of ['12px', '', ' 3000', '1e400', 'NaN', '+3000']) {
    const r = await pair.call('wait_for', { device: ANDROID, target: 'Sign in', timeout_ms: text });
    assert.is(textOf(r).split('\n')[0], `INVALID_PARAMETER: wait_for on virtual-android-1: "timeout_ms" must be a whole number from 1000 to 45000 (got ${JSON.stringify(text)})`);
  }
  const short = await pair.call('wait_for', { device: ANDROID, target: 'Sign in', timeout_ms: '500' });
  assert.match(textOf(short), /"timeout_ms" must be a whole number from 1000 to 45000 \(got 500\)/);
  const fraction = await pair.call('list_elements', { device: ANDROID, offset: '1.5' });
  assert.match(textOf(fraction), /"offset" must be a whole number of at least 0 \(got 1.5\)/);
  const yes = await pair.call('list_elements', { device: ANDROID, full: 'yes' });
  assert.match(textOf(yes), /"full" must be true or false \(got "yes"\)/);
  const raw = await pair.call('mobile_swipe_on_screen', { device: ANDROID, direction: 'up', distance: '0' });
  assert.match(textOf(raw), /^INVALID_PARAMETER: mobile_swipe_on_screen on virtual-android-1: distance must be at least 1 pixel/);
});

mcp('a required argument given as null is refused by name, with the device, on both', async ({ pair }) => {
  const raw = await pair.call('mobile_type_keys', { device: ANDROID, text: null });
  assert.match(textOf(raw), /^INVALID_PARAMETER: mobile_type_keys on virtual-android-1: text is required: the text to type/);
  const verb = await pair.call('type_text', { device: ANDROID, text: null });
  assert.match(textOf(verb), /^INVALID_PARAMETER: type_text on virtual-android-1: "text" is required/);
});

/**
 * Every schema keeps to what all model providers read: one type per property, no anyOf / oneOf,
 * and no null among listed values. Admitting null as `type: [..., "null"]` or `anyOf` would make
 * some providers refuse every request that lists these tools; the tools take null anyway.
 */
mcp('tools/list schemas stay in the subset every provider reads, with and without --device', async ({ backend, pair }) => {
  const withDevice = await connectPair(backend, { engineTools: true, defaultDevice: ANDROID });
  try {
    for (const listing of [await pair.client.listTools(), await withDevice.client.listTools()]) {
      for (const tool of listing.tools) {
        for (const [key, property] of Object.entries(tool.inputSchema.properties ?? {}) as [string, Record<string, unknown>][]) {
          const where = `${tool.name}.${key}`;
          for (const combinator of ['anyOf', 'oneOf', 'allOf']) assert.not.ok(combinator in property, `${where} uses ${combinator}`);
          if ('type' in property) assert.type(property.type, 'string', `${where} lists several types`);
          if (Array.isArray(property.enum)) assert.not.ok(property.enum.includes(null), `${where} lists null`);
        }
      }
    }
  } finally {
    await withDevice.close();
  }
});

mcp.run();
