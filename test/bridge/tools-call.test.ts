import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Bridge } from '../../src/bridge/index.js';
import { ANDROID, RawClient, testBridge } from './helpers.js';

/** tools.call takes the arguments the CLI and MCP take: null for "not given", listed values in any case. */
const test = suite<{ bridge: Bridge; raw: RawClient }>('bridge tools.call parameters');

test.before.each(async (ctx) => {
  ({ bridge: ctx.bridge } = await testBridge());
  ctx.raw = await RawClient.open(ctx.bridge.wsUrl);
});
test.after.each(async (ctx) => {
  await ctx.raw.close();
  await ctx.bridge.close();
});

const toolCall = (raw: RawClient, tool: string, parameters: Record<string, unknown>) => raw.call('tools.call', { tool, parameters });

test('an optional parameter given as null is not given; a listed value in another case is that value', async ({ raw }) => {
  const swiped = await toolCall(raw, 'mobile_swipe_on_screen', { device: ANDROID, direction: 'UP', distance: null });
  assert.equal([swiped.status, swiped.message], ['success', `swiped up 720 px on ${ANDROID}`]);
  const pressed = await toolCall(raw, 'mobile_press_button', { device: ANDROID, button: 'home' });
  assert.equal([pressed.status, pressed.message], ['success', `pressed HOME on ${ANDROID}`]);
});

test('a parameter error names the tool, the device and the parameter; a required null is still refused', async ({ raw }) => {
  const far = await toolCall(raw, 'mobile_swipe_on_screen', { device: ANDROID, direction: 'up', distance: 0 });
  assert.equal([far.code, far.message], ['INVALID_PARAMETER', `mobile_swipe_on_screen on ${ANDROID}: distance must be at least 1 pixel`]);
  const text = await toolCall(raw, 'mobile_type_keys', { device: ANDROID, text: null });
  assert.equal([text.code, text.message], ['INVALID_PARAMETER', `mobile_type_keys on ${ANDROID}: text is required: the text to type`]);
});

test('tools.list keeps the canonical values and the plain types: the leniency is not advertised as null unions', async ({ raw }) => {
  const { tools } = (await raw.call('tools.list', {})) as { tools: { name: string; parameters: { properties: Record<string, Record<string, unknown>> } }[] };
  const swipe = tools.find((t) => t.name === 'mobile_swipe_on_screen')!.parameters.properties;
  assert.equal(swipe.direction.enum, ['up', 'down', 'left', 'right']);
  assert.is(swipe.distance.type, 'integer');
});

test.run();
