import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { VirtualDriver } from '../../src/engine/drivers/virtual/index.js';
import { Engine, type CallEvent } from '../../src/engine/engine.js';
import { TOOLS } from '../../src/engine/tools/index.js';

/** null for "not given", listed values in any case, numbers and booleans as text, as agents send them, on every raw tool. */
type R = Record<string, any>;
const A = 'virtual-android-1';

interface Entry {
  type: string;
  wrapped?: Entry;
  options?: readonly string[];
}
const entriesOf = (tool: (typeof TOOLS)[number]) => (tool.params as unknown as { entries: Record<string, Entry> }).entries;

// Parameters are checked before any device is looked up: an engine without drivers shows what the check says.
const checking = new Engine({ drivers: [] });
const checked = async (tool: string, params: R) => (await checking.call(tool, params)) as R;

const each = suite('every raw tool, as the check sees it');

each('an optional parameter given as null is taken as not given', async () => {
  let optional = 0;
  for (const tool of TOOLS) {
    for (const [key, entry] of Object.entries(entriesOf(tool))) {
      if (entry.type !== 'optional') continue;
      optional++;
      const r = await checked(tool.name, { device: A, [key]: null });
      assert.not.match(String(r.message), new RegExp(`\\b${key}\\b`), `${tool.name} ${key}: null → ${r.message}`);
    }
  }
  assert.ok(optional >= 5, `only ${optional} optional parameters found: the test no longer sees them`);
});

each('a listed value in another case is that value', async () => {
  let listed = 0;
  for (const tool of TOOLS) {
    for (const [key, entry] of Object.entries(entriesOf(tool))) {
      const options = (entry.wrapped ?? entry).options;
      if (!options) continue;
      for (const option of options) {
        listed++;
        for (const spelt of [option.toUpperCase(), option.toLowerCase(), option.charAt(0).toUpperCase() + option.slice(1).toLowerCase()]) {
          const r = await checked(tool.name, { device: A, [key]: spelt });
          assert.not.match(String(r.message), new RegExp(`\\b${key}\\b`), `${tool.name} ${key}: ${spelt} → ${r.message}`);
        }
      }
    }
  }
  assert.ok(listed >= 10, `only ${listed} listed values found: the test no longer sees them`);
});

/** Every number and boolean parameter of every raw tool, by the type its schema wants. */
function scalarParameters(): { tool: string; key: string; type: string }[] {
  return TOOLS.flatMap((tool) =>
    Object.entries(entriesOf(tool))
      .map(([key, entry]) => ({ tool: tool.name, key, type: (entry.wrapped ?? entry).type }))
      .filter((p) => p.type === 'number' || p.type === 'boolean'),
  );
}

each('a number or a boolean written as text is answered as that value; other text is still refused by name', async () => {
  const scalars = scalarParameters();
  assert.ok(scalars.filter((p) => p.type === 'number').length >= 5, 'the test no longer sees the number parameters');
  assert.ok(scalars.some((p) => p.type === 'boolean'), 'the test no longer sees the boolean parameters');
  for (const { tool, key, type } of scalars) {
    for (const value of type === 'boolean' ? [true, false] : [2, 0.5, -3, 150, 1e3]) {
      const asText = await checked(tool, { device: A, [key]: JSON.stringify(value) });
      const asValue = await checked(tool, { device: A, [key]: value });
      assert.is(asText.message, asValue.message, `${tool} ${key}: "${value}" and ${value} are answered alike`);
    }
    const refused = type === 'boolean' ? ['True', 'yes', '1', ''] : ['12px', '', ' 1', '1e400', 'NaN', '+1', '0x10'];
    for (const text of refused) {
      const bad = await checked(tool, { device: A, [key]: text });
      assert.match(String(bad.message), new RegExp(`\\b${key}\\b`), `${tool} ${key}: ${JSON.stringify(text)} was taken`);
    }
  }
});

each('ranges and whole-number rules judge the number a text spells', async () => {
  const zero = await checked('mobile_swipe_on_screen', { device: A, direction: 'up', distance: '0' });
  assert.is(zero.message, `mobile_swipe_on_screen on ${A}: distance must be at least 1 pixel`);
  const half = await checked('mobile_long_press_on_screen_at_coordinates', { device: A, x: 1, y: 1, duration: '500.5' });
  assert.match(half.message, /duration must be a whole number of milliseconds/);
  const negative = await checked('mobile_click_on_screen_at_coordinates', { device: A, x: '-2', y: 1 });
  assert.match(negative.message, /x must be ≥ 0/);
});

each('a required parameter given as null is refused as missing, by name, and so is an unknown one', async () => {
  const text = await checked('mobile_type_keys', { device: A, text: null });
  assert.is(text.code, 'INVALID_PARAMETER');
  assert.is(text.message, `mobile_type_keys on ${A}: text is required: the text to type`);
  const device = await checked('mobile_press_button', { device: null, button: 'HOME' });
  assert.is(device.message, 'mobile_press_button: device is required: a device id from mobile_list_available_devices');
  const direction = await checked('mobile_swipe_on_screen', { device: A, direction: null });
  assert.is(direction.message, `mobile_swipe_on_screen on ${A}: direction is required: one of up, down, left, right`);
  const unknown = await checked('mobile_swipe_on_screen', { device: A, direction: 'up', speed: null });
  assert.match(unknown.message, /unknown parameter "speed"; allowed parameters: device, direction, distance/);
  // Case is forgiven, spelling is not.
  const sideways = await checked('mobile_swipe_on_screen', { device: A, direction: 'Sideways' });
  assert.match(sideways.message, /direction must be one of up, down, left, right \(got "Sideways"\)/);
});

each('a parameter error names the device when the call names one, and only then', async () => {
  const named = await checked('mobile_swipe_on_screen', { device: 'virtual-ios-1', direction: 'up', distance: 0 });
  assert.is(named.message, 'mobile_swipe_on_screen on virtual-ios-1: distance must be at least 1 pixel');
  for (const device of [undefined, '', 42]) {
    const r = await checked('mobile_swipe_on_screen', { device, direction: 'up', distance: 0 });
    assert.ok(r.message.startsWith('mobile_swipe_on_screen: '), r.message);
  }
});

each.run();

const run = suite<{ engine: Engine; events: CallEvent[] }>('lenient parameters on the virtual phone');

run.before.each((ctx) => {
  ctx.engine = new Engine({ drivers: [new VirtualDriver()] });
  ctx.events = [];
  ctx.engine.onCall((e) => ctx.events.push(e));
});
run.after.each(async (ctx) => {
  await ctx.engine.close();
});

const ok = async (e: Engine, tool: string, params: R) => {
  const r = (await e.call(tool, params, { origin: 'test' })) as R;
  assert.is.not(r.status, 'error', `${tool} failed: ${r.message}`);
  return r;
};

run('null takes the default and the tool sees the canonical value, as do the activity events', async ({ engine, events }) => {
  const { height } = await ok(engine, 'mobile_get_screen_size', { device: A });
  const swiped = await ok(engine, 'mobile_swipe_on_screen', { device: A, direction: 'UP', distance: null });
  assert.is(swiped.message, `swiped up ${Math.round(height * 0.3)} px on ${A}`);
  const pressed = await ok(engine, 'mobile_long_press_on_screen_at_coordinates', { device: A, x: 10, y: 10, duration: null });
  assert.is(pressed.message, `long-pressed (10, 10) for 500 ms on ${A}`);
  assert.is((await ok(engine, 'mobile_press_button', { device: A, button: 'Home' })).message, `pressed HOME on ${A}`);
  assert.is((await ok(engine, 'mobile_set_orientation', { device: A, orientation: 'LANDSCAPE' })).message, `set orientation of ${A} to landscape`);
  const swipe = events.find((e) => e.tool === 'mobile_swipe_on_screen')!;
  assert.equal(swipe.parameters, { device: A, direction: 'up' });
  assert.equal(events.find((e) => e.tool === 'mobile_press_button')!.parameters, { device: A, button: 'HOME' });
});

run('numbers and booleans sent as text act, and the activity events show the values they spell', async ({ engine, events }) => {
  const pressed = await ok(engine, 'mobile_long_press_on_screen_at_coordinates', { device: A, x: '10', y: '10.5', duration: '600' });
  assert.is(pressed.message, `long-pressed (10, 10.5) for 600 ms on ${A}`);
  assert.equal(events.find((e) => e.tool === 'mobile_long_press_on_screen_at_coordinates')!.parameters, { device: A, x: 10, y: 10.5, duration: 600 });
  await ok(engine, 'mobile_open_url', { device: A, url: 'mbdemo://screen/signin' });
  const email = (await ok(engine, 'mobile_list_elements_on_screen', { device: A })).elements.find((e: R) => e.id === 'email');
  await ok(engine, 'mobile_click_on_screen_at_coordinates', { device: A, x: String(email.center.x), y: String(email.center.y) });
  const typed = await ok(engine, 'mobile_type_keys', { device: A, text: 'a@b.c', submit: 'true', clear_first: 'false' });
  assert.match(typed.message, /ENTER/);
  assert.equal(events.find((e) => e.tool === 'mobile_type_keys')!.parameters, { device: A, text: 'a@b.c', submit: true, clear_first: false });
});

run('type_keys with submit and clear_first null types only the text', async ({ engine }) => {
  await ok(engine, 'mobile_open_url', { device: A, url: 'mbdemo://screen/signin' });
  const list = await ok(engine, 'mobile_list_elements_on_screen', { device: A });
  const email = list.elements.find((e: R) => e.id === 'email');
  await ok(engine, 'mobile_click_on_screen_at_coordinates', { device: A, ...email.center });
  const typed = await ok(engine, 'mobile_type_keys', { device: A, text: 'a@b.c', submit: null, clear_first: null });
  assert.match(typed.message, /^typed 5 .* on virtual-android-1/);
  assert.not.match(typed.message, /ENTER|emptied/);
});

run.run();
