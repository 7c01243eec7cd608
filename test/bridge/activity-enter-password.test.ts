import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Bridge } from '../../src/bridge/index.js';
import type { UiElement } from '../../src/engine/types.js';
import type { DeviceActivityParams } from '../../src/protocol/index.js';
import { ANDROID, RawClient, testBridge, until } from './helpers.js';

/**
 * The demo's sign-in form moves the focus from Email to Password on ENTER. Text typed after a
 * newline (or after a submit, or the viewer's Enter key) may go into that password field: the
 * activity feed masks it while a password field is on screen, never showing it to watchers.
 */

const test = suite('activity masks typing after ENTER while a password field is on screen');
let bridge: Bridge;
test.after.each(async () => {
  await bridge?.close();
});

const DEMO = 'com.mobilebridge.demo';
const EMAIL = 'ada@example.com';

type Ctx = { agent: RawClient; watching: RawClient };

async function signIn(): Promise<Ctx & { email: UiElement }> {
  ({ bridge } = await testBridge());
  const agent = await RawClient.open(bridge.wsUrl);
  await agent.call('session.hello', { client: 'agent' });
  const watching = await RawClient.open(bridge.wsUrl);
  await watching.call('session.hello', { client: 'watcher' });
  // No element watcher: no listing between two calls tells the bridge where the focus went.
  await watching.call('devices.subscribe', { device: ANDROID });
  const tool = (name: string, parameters: Record<string, unknown> = {}) => agent.call('tools.call', { tool: name, parameters: { device: ANDROID, ...parameters } });
  await tool('mobile_launch_app', { packageName: DEMO });
  await tool('mobile_open_url', { url: 'mbdemo://screen/signin' });
  const { elements } = (await tool('mobile_list_elements_on_screen')) as unknown as { elements: UiElement[] };
  return { agent, watching, email: elements.find((e) => e.id === 'email')! };
}

const tool = (c: RawClient, name: string, parameters: Record<string, unknown> = {}) => c.call('tools.call', { tool: name, parameters: { device: ANDROID, ...parameters } });

function activities(c: RawClient): DeviceActivityParams[] {
  return c.texts.filter((m) => (m as { method?: string }).method === 'device.activity').map((m) => (m as { params: DeviceActivityParams }).params);
}

/** The password reached the password field, and neither the feed nor the ring for late joiners shows it. */
async function neverShown(ctx: Ctx, secret: string, entries: number): Promise<void> {
  const { elements } = (await tool(ctx.agent, 'mobile_list_elements_on_screen')) as unknown as { elements: UiElement[] };
  assert.is(elements.find((e) => e.id === 'password')?.text.length, secret.length, 'the password field took it');
  await until(`${entries} activity entries`, () => activities(ctx.watching).length >= entries, 8000);
  const recent = await ctx.watching.call('activity.recent', { device: ANDROID });
  const shown = JSON.stringify(activities(ctx.watching)) + JSON.stringify(recent);
  assert.not.ok(shown.includes(secret) || shown.includes(secret.slice(0, 8)), `the secret shows: ${shown.slice(0, 3000)}`);
  assert.ok(activities(ctx.watching).some((a) => a.masked), 'an entry says it withheld typed text');
  await Promise.all([ctx.agent.close(), ctx.watching.close()]);
}

test('raw mobile_type_keys with a newline inside: the whole text is withheld', async () => {
  const ctx = await signIn();
  const secret = 'Sekr3t-raw-newline-Zq';
  await tool(ctx.agent, 'mobile_click_on_screen_at_coordinates', { x: ctx.email.center.x, y: ctx.email.center.y });
  await tool(ctx.agent, 'mobile_type_keys', { text: `${EMAIL}\n${secret}` });
  await neverShown(ctx, secret, 4);
  const typed = activities(ctx.watching).find((a) => a.tool === 'mobile_type_keys')!;
  assert.is(typed.parameters.text, '•••');
  assert.match(typed.masked?.reason ?? '', 'ENTER');
});

test('a submit, then more keys with no listing in between: the keys are withheld', async () => {
  const ctx = await signIn();
  const secret = 'Sekr3t-raw-submit-Zq';
  await tool(ctx.agent, 'mobile_click_on_screen_at_coordinates', { x: ctx.email.center.x, y: ctx.email.center.y });
  await tool(ctx.agent, 'mobile_type_keys', { text: EMAIL, submit: true });
  await tool(ctx.agent, 'mobile_type_keys', { text: secret });
  await neverShown(ctx, secret, 5);
  // The email itself, typed into the field the tap focused, is still shown.
  assert.ok(activities(ctx.watching).some((a) => a.summary.includes(EMAIL)), 'the email shows');
});

test("the viewer's Enter key (input.key), then more keys: the keys are withheld", async () => {
  const ctx = await signIn();
  const secret = 'Sekr3t-input-enter-Zq';
  await tool(ctx.agent, 'mobile_click_on_screen_at_coordinates', { x: ctx.email.center.x, y: ctx.email.center.y });
  await tool(ctx.agent, 'mobile_type_keys', { text: EMAIL });
  await ctx.agent.call('input.key', { device: ANDROID, key: 'ENTER' });
  await tool(ctx.agent, 'mobile_type_keys', { text: secret });
  await neverShown(ctx, secret, 5);
});

test('verbs.run type into Email with a newline inside: the whole text is withheld', async () => {
  const ctx = await signIn();
  const secret = 'Sekr3t-verb-newline-Zq';
  const outcome = (await ctx.agent.call('verbs.run', { device: ANDROID, step: { action: 'type', target: 'Email', value: `${EMAIL}\n${secret}` } })) as { status: string };
  assert.is(outcome.status, 'passed');
  await neverShown(ctx, secret, 3);
  const typed = activities(ctx.watching).find((a) => a.verb === 'type')!;
  assert.is(typed.parameters.value, '•••');
  assert.is(typed.element?.name, 'Email');
});

test.run();
