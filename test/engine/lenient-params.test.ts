import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { VirtualDriver } from '../../src/engine/drivers/virtual/index.js';
import { Engine, type CallEvent } from '../../src/engine/engine.js';
import { TOOLS } from '../../src/engine/tools/index.js';

/** null for "not given" and listed values in any case, as agents send them, on every raw tool. */
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
