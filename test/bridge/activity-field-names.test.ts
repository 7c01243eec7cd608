import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Bridge } from '../../src/bridge/index.js';
import { activityElement } from '../../src/bridge/activity/describe.js';
import type { UiElement } from '../../src/engine/types.js';
import type { DeviceActivityParams } from '../../src/protocol/index.js';
import { ANDROID, RawClient, testBridge, until } from './helpers.js';

/**
 * The activity feed names a text field by its label or hint, never by its text: the text is what
 * someone typed, and a scenario run's secret parameter typed into a plain field (a user name, an
 * API key, a one-time code) must not show in device.activity nor in activity.recent, even while a
 * viewer's element watcher keeps the bridge's listing of the field (with the secret in it) fresh.
 */

const test = suite('activity names text fields by label or hint');
let bridge: Bridge;
let out: string;
test.before.each(() => {
  out = mkdtempSync(join(tmpdir(), 'mb-activity-names-'));
});
test.after.each(async () => {
  await bridge?.close();
  rmSync(out, { recursive: true, force: true });
});

const SECRET = 'Zebra&Quokka42';

const field = (over: Partial<UiElement>): UiElement => ({
  id: 'f', text: SECRET, type: 'edittext', accessibility_label: null, x: 0, y: 0, width: 10, height: 10, visible: true, enabled: true, center: { x: 5, y: 5 }, ...over,
});

test('activityElement: a text field goes by its label, else its hint, else its resource id, never its text', () => {
  assert.equal(activityElement(field({ accessibility_label: 'User name', hint: 'name' })), { id: 'f', type: 'edittext', name: 'User name' });
  assert.equal(activityElement(field({ hint: 'Email' })), { id: 'f', type: 'edittext', name: 'Email' });
  assert.equal(activityElement(field({ resource_id: 'com.example:id/api_key' })), { id: 'f', type: 'edittext', name: 'api_key' });
  assert.equal(activityElement(field({})), { id: 'f', type: 'edittext' });
  // Other elements are still named by what a person reads on them.
  assert.equal(activityElement(field({ type: 'button', text: 'Sign in' })), { id: 'f', type: 'button', name: 'Sign in' });
});

test('a secret a run typed into the Email field never names that field in the feed, for watchers or late joiners', async () => {
  ({ bridge } = await testBridge());
  const viewer = await RawClient.open(bridge.wsUrl);
  await viewer.call('session.hello', { client: 'viewer' });
  // As the web viewer does: with its element watcher, the bridge lists the screen on every change.
  await viewer.call('devices.subscribe', { device: ANDROID, elements: true });
  const ci = await RawClient.open(bridge.wsUrl);
  await ci.call('session.hello', { client: 'ci' });
  const scenario = {
    $schema_version: '2.2', scenario_id: 'secret_in_plain_field', name: 'n', description: 'd', platform: 'android', app_package: 'com.mobilebridge.demo',
    metadata: { app_version: '1', environment: 'development' },
    parameters: { SECRET: { secret: true } },
    steps: [
      { id: 'launch', action: 'launch_app', description: 'Launch' },
      { id: 'signin', action: 'open_url', description: 'Sign-in', value: 'mbdemo://screen/signin' },
      { id: 'type_email', action: 'type', description: 'secret into email', target: 'Email', value: '${SECRET}' },
      { id: 'wait', action: 'wait_for_element', description: 'wait', target: 'Password', wait_config: { type: 'element_visible', timeout_ms: 1000 } },
      { id: 'tap_email', action: 'tap', description: 'tap email again', target: 'Email' },
      { id: 'type_more', action: 'type', description: 'more', value: 'x' },
    ],
    assertions: [],
  };
  const result = (await ci.call('scenarios.run', { device: ANDROID, scenario, parameters: { SECRET }, out })) as { status: string; summary: string };
  assert.is(result.status, 'passed', result.summary);
  // Someone else taps the field afterwards, named from the watcher's listing that shows the secret.
  const { elements } = (await viewer.call('tools.call', { tool: 'mobile_list_elements_on_screen', parameters: { device: ANDROID } })) as unknown as { elements: UiElement[] };
  const email = elements.find((e) => e.id === 'email')!;
  assert.ok(email.text.includes(SECRET), 'the field does hold the secret');
  await viewer.call('tools.call', { tool: 'mobile_click_on_screen_at_coordinates', parameters: { device: ANDROID, x: email.center.x, y: email.center.y } });
  const activities = () => viewer.texts.filter((m) => (m as { method?: string }).method === 'device.activity').map((m) => (m as { params: DeviceActivityParams }).params);
  await until('the viewer tap in the feed', () => activities().find((a) => a.client === 'viewer' && a.tool === 'mobile_click_on_screen_at_coordinates'), 8000);
  const tap = activities().find((a) => a.client === 'viewer' && a.tool === 'mobile_click_on_screen_at_coordinates')!;
  assert.is(tap.summary, 'tapped the “Email” field');
  const typed = activities().find((a) => a.client === 'ci' && [a.parameters.text, a.parameters.value].includes('x'));
  assert.ok(typed, 'the run typing x is in the feed');
  assert.match(typed!.summary, '“Email” field');

  const recent = await viewer.call('activity.recent', { device: ANDROID });
  const feeds = JSON.stringify(activities()) + JSON.stringify(recent);
  for (const form of [SECRET, JSON.stringify(SECRET).slice(1, -1), SECRET.toLowerCase(), encodeURIComponent(SECRET), 'Zebra&amp;Quokka']) {
    assert.not.ok(feeds.includes(form), `the feed never shows the secret (${form}): ${feeds.slice(0, 2000)}`);
  }
  await Promise.all([viewer.close(), ci.close()]);
});

test.run();
