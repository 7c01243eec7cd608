import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runScenario } from '../../src/engine/runner/index.js';
import { loadScenario } from '../../src/validate/index.js';
import { ANDROID, DEMO, IOS, jsonOf, liveSessionEach, ok, textOf, type LiveSession } from './helpers.js';

const MAIN = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
const exec = promisify(execFile);

const rec = suite<LiveSession>('recording a live MCP session into a scenario');

liveSessionEach(rec, 'mb-rec-', { engineTools: true });

rec('a sign-in session becomes a valid 2.2 scenario with semantic targets, waits and assertions, and replays green', async ({ pair, backend, dir, verbClock }) => {
  const started = ok(await pair.call('recording_start', { device: ANDROID, name: 'Sign in and open an item', app_package: DEMO, app_state: 'logged_out' }));
  assert.is(started.recording.steps, 0);
  ok(await pair.call('launch_app', { device: ANDROID, package: DEMO }));
  ok(await pair.call('type_text', { device: ANDROID, target: 'the Email field', text: 'demo@example.com' }));
  ok(await pair.call('type_text', { device: ANDROID, target: 'the Password field', text: 'secret123' }));
  ok(await pair.call('dismiss_keyboard', { device: ANDROID }));
  ok(await pair.call('tap', { device: ANDROID, target: 'the Sign in button' }));
  ok(await pair.call('wait_for', { device: ANDROID, until: 'loading_complete', timeout_ms: 5000 }));
  // A failed verb and a failed check are not recorded.
  assert.ok((await pair.call('tap', { device: ANDROID, target: 'the Purple Unicorn button' })).isError);
  const notKept = ok(await pair.call('assert', { device: ANDROID, type: 'screen_title', expected_text: 'Nope' }));
  assert.is(notKept.status, 'failed');
  assert.ok(notKept.recorded.reason);
  const kept = ok(await pair.call('assert', { device: ANDROID, type: 'screen_title', expected_text: 'Items', description: 'the list of items shows after sign-in' }));
  assert.is(kept.status, 'passed', kept.message);
  assert.ok(kept.recorded.id);
  // Only a pattern given: the step is named by the element's text, and keeps the pattern.
  const opened = ok(await pair.call('tap', { device: ANDROID, target_pattern: '^Item 3$' }));
  assert.ok(opened.recorded.length === 1);
  // The agent polled the screen before acting: the replay waits for the target first.
  await pair.call('list_elements', { device: ANDROID });
  await pair.call('take_screenshot', { device: ANDROID });
  ok(await pair.call('tap', { device: ANDROID, target: 'the Like button' }));
  // A raw coordinate tap (mobile-mcp style) is recorded as a tap on the element under the point.
  const listing = jsonOf(await pair.call('mobile_list_elements_on_screen', { device: ANDROID }));
  const like = listing.elements.find((e: { id: string }) => e.id === 'like_button');
  ok(await pair.call('mobile_click_on_screen_at_coordinates', { device: ANDROID, x: like.center.x, y: like.center.y }));
  ok(await pair.call('press_back', { device: ANDROID }));
  ok(await pair.call('assert', { device: ANDROID, type: 'element_exists', element_description: 'Item 3' }));

  const file = join(dir, 'sign_in.json');
  const stopped = ok(await pair.call('recording_stop', { device: ANDROID, save_to: file }));
  assert.is(stopped.validation.valid, true, JSON.stringify(stopped.validation.errors));
  assert.is(stopped.saved_to, file);
  assert.is(stopped.replay, `mobilebridge run ${file} --device ${ANDROID} --param PASSWORD=…`, 'the replay names the secret it needs');
  const doc = stopped.scenario;
  assert.is(doc.$schema_version, '2.2');
  // The password typed into the password field is a secret parameter, never the text itself.
  assert.equal(doc.parameters, { PASSWORD: { description: 'typed into "the Password field" while recording; give it at replay: mobilebridge run --param PASSWORD=... (or MB_PARAM_PASSWORD), or over a bridge scenarios.run\'s "parameters": {"PASSWORD": "..."}', secret: true } });
  assert.is(doc.steps[2].value, '${PASSWORD}');
  assert.is(doc.steps[1].value, 'demo@example.com', 'an email field is not a secret');
  assert.not.ok(readFileSync(file, 'utf8').includes('secret123'), 'the saved file holds no password');
  assert.is(doc.mode, 'platform-agnostic');
  assert.is(doc.platform, 'android');
  assert.is(doc.app_package, DEMO);
  assert.is(doc.metadata.app_version, '1.4.2');
  assert.equal(doc.preconditions, { app_state: 'logged_out' });
  const ids = new Set<string>();
  for (const s of doc.steps) {
    assert.match(s.id, /^[a-z][a-z0-9_]*$/);
    assert.not.ok(ids.has(s.id), `duplicate id ${s.id}`);
    ids.add(s.id);
    // Never coordinates: no step carries x/y, and targets are descriptions or visible texts.
    assert.not.ok('x' in s || 'y' in s);
  }
  const actions = doc.steps.map((s: { action: string }) => s.action);
  assert.equal(actions, ['launch_app', 'type', 'type', 'dismiss_keyboard', 'tap', 'wait_for_loading_complete', 'tap', 'wait_for_element', 'tap', 'tap', 'press_back']);
  assert.is(doc.steps[1].target, 'the Email field');
  assert.equal(doc.steps[5].wait_config, { type: 'loading_complete', timeout_ms: 5000 });
  assert.is(doc.steps[6].target, 'Item 3');
  assert.is(doc.steps[6].target_pattern, '^Item 3$');
  assert.is(doc.steps[7].target, 'the Like button');
  assert.is(doc.steps[9].target, 'Unlike', 'named by what the element said when it was tapped');
  assert.is(doc.assertions.length, 2);
  assert.is(doc.assertions[0].after_step, doc.steps[5].id);
  assert.is(doc.assertions[1].after_step, doc.steps[10].id);

  // The file on disk passes the validator as it is.
  const loaded = loadScenario(readFileSync(file, 'utf8'), file);
  assert.ok(loaded.scenario, JSON.stringify(loaded.report.errors));

  // Replays green on the same phone (the precondition clears the sign-in first).
  const { document } = await runScenario({ engine: backend.engine, device: ANDROID, scenario: loaded.scenario!, scenarioDir: dir, outDir: join(dir, 'out'), clock: verbClock, settleMs: 0, screenshots: 'none', parameters: { given: { PASSWORD: 'secret123' } } });
  assert.is(document.status, 'passed', JSON.stringify(document.steps_executed.filter((s) => s.status !== 'passed')));
  assert.is(document.passed_assertions, 2);

  // And with the command line, on a fresh virtual phone in another process.
  const state = join(dir, 'state');
  const { stdout } = await exec(process.execPath, [MAIN, 'run', file, '--device', ANDROID, '--out', join(dir, 'cli-out'), '--no-android', '--no-ios'], { env: { ...process.env, MOBILEBRIDGE_STATE_DIR: state, MB_PARAM_PASSWORD: 'secret123' }, cwd: dir });
  assert.match(stdout, /passed/);
});

rec('raw engine tools: a coordinate tap on a password field, then mobile_type_keys, record a secret parameter', async ({ pair }) => {
  ok(await pair.call('recording_start', { device: ANDROID, name: 'Raw sign in', app_package: DEMO }));
  ok(await pair.call('mobile_open_url', { device: ANDROID, url: 'mbdemo://screen/signin' }));
  const listing = jsonOf(await pair.call('mobile_list_elements_on_screen', { device: ANDROID }));
  const at = (id: string) => listing.elements.find((e: { id: string }) => e.id === id).center;
  assert.is(listing.elements.find((e: { id: string }) => e.id === 'password').password, true, 'listings mark password fields');
  ok(await pair.call('mobile_click_on_screen_at_coordinates', { device: ANDROID, ...at('password') }));
  ok(await pair.call('mobile_type_keys', { device: ANDROID, text: 'hunter2', submit: true }));
  // Typing may change the screen (a keyboard, a message): the earlier listing no longer tells what a tap hits.
  const again = jsonOf(await pair.call('mobile_list_elements_on_screen', { device: ANDROID }));
  ok(await pair.call('mobile_click_on_screen_at_coordinates', { device: ANDROID, ...again.elements.find((e: { id: string }) => e.id === 'email').center }));
  ok(await pair.call('mobile_type_keys', { device: ANDROID, text: 'someone@example.com' }));
  const stopped = ok(await pair.call('recording_stop', { device: ANDROID }));
  assert.is(stopped.validation.valid, true, JSON.stringify(stopped.validation.errors));
  const doc = stopped.scenario;
  assert.not.ok(JSON.stringify(doc).includes('hunter2'), JSON.stringify(doc.steps));
  assert.equal(doc.steps.filter((s: { action: string }) => s.action === 'type').map((s: { value: string }) => s.value), ['${PASSWORD}\n', 'someone@example.com']);
  assert.is(doc.parameters.PASSWORD.secret, true);
});

rec('a coordinate tap after the screen changed is named from a listing taken right before it, never from the listing of the screen before', async ({ pair }) => {
  ok(await pair.call('open_url', { device: ANDROID, url: 'mbdemo://screen/home' }));
  ok(await pair.call('recording_start', { device: ANDROID, name: 'Scroll and tap', app_package: DEMO }));
  const before = jsonOf(await pair.call('mobile_list_elements_on_screen', { device: ANDROID }));
  assert.ok(before.elements.some((e: { text: string; y: number; height: number }) => e.text === 'Item 3' && e.y <= 704 && 704 <= e.y + e.height), 'Item 3 was at the point before the swipe');
  ok(await pair.call('mobile_swipe_on_screen', { device: ANDROID, direction: 'up', distance: 400 }));
  ok(await pair.call('mobile_click_on_screen_at_coordinates', { device: ANDROID, x: 540, y: 704 }));
  assert.is(ok(await pair.call('assert', { device: ANDROID, type: 'screen_title', expected_text: 'Item 5' })).status, 'passed', 'the tap opened Item 5');
  ok(await pair.call('press_back', { device: ANDROID }));
  const stopped = ok(await pair.call('recording_stop', { device: ANDROID }));
  assert.is(stopped.validation.valid, true, JSON.stringify(stopped.validation.errors));
  assert.equal(stopped.scenario.steps.map((s: { action: string; target?: string }) => [s.action, s.target ?? null]), [['swipe', null], ['tap', 'Item 5'], ['press_back', null]]);
  assert.equal(stopped.summary.skipped, []);
});

rec('mobile-mcp style (list once, then tap, type, tap, type): every tap is named and the password goes into its own field at replay', async ({ pair }) => {
  ok(await pair.call('mobile_open_url', { device: ANDROID, url: 'mbdemo://screen/signin' }));
  ok(await pair.call('recording_start', { device: ANDROID, name: 'Raw sign in, one listing', app_package: DEMO }));
  const listing = jsonOf(await pair.call('mobile_list_elements_on_screen', { device: ANDROID }));
  const at = (id: string) => listing.elements.find((e: { id: string }) => e.id === id).center;
  ok(await pair.call('mobile_click_on_screen_at_coordinates', { device: ANDROID, ...at('email') }));
  ok(await pair.call('mobile_type_keys', { device: ANDROID, text: 'ada@example.com' }));
  // The typing made that listing stale; the agent taps from it anyway, as mobile-mcp agents do.
  ok(await pair.call('mobile_click_on_screen_at_coordinates', { device: ANDROID, ...at('password') }));
  ok(await pair.call('mobile_type_keys', { device: ANDROID, text: 'secret123', submit: true }));
  const stopped = ok(await pair.call('recording_stop', { device: ANDROID }));
  assert.is(stopped.validation.valid, true, JSON.stringify(stopped.validation.errors));
  assert.equal(stopped.summary.skipped, []);
  const steps = stopped.scenario.steps.map((s: { action: string; target?: string; value?: string }) => [s.action, s.target ?? null, s.value ?? null]);
  assert.equal(steps.filter((s: unknown[]) => s[0] === 'tap' || s[0] === 'type'), [
    ['tap', 'the Email field', null],
    ['type', null, 'ada@example.com'],
    ['tap', 'the Password field', null],
    ['type', null, '${PASSWORD}\n'],
  ]);
  assert.not.ok(steps.some((s: unknown[]) => s[0] === 'wait_for_element'), 'the look before each tap is not the agent waiting');
  assert.not.ok(JSON.stringify(stopped.scenario).includes('secret123'));
});

rec('read_text without save_as is not recorded as a capture with no variable (the scenario stays valid); with save_as it is', async ({ pair }) => {
  ok(await pair.call('recording_start', { device: ANDROID, name: 'Read', app_package: DEMO }));
  ok(await pair.call('open_url', { device: ANDROID, url: 'mbdemo://screen/signin' }));
  const plain = ok(await pair.call('read_text', { device: ANDROID, target: 'Welcome back' }));
  assert.is(plain.value, 'Welcome back');
  assert.equal(plain.recorded, []);
  const saved = ok(await pair.call('read_text', { device: ANDROID, target: 'Welcome back', save_as: 'greeting' }));
  assert.is(saved.recorded.length, 1);
  const stopped = ok(await pair.call('recording_stop', { device: ANDROID }));
  assert.is(stopped.validation.valid, true, JSON.stringify(stopped.validation.errors));
  assert.equal(stopped.scenario.steps.map((s: { action: string; capture_to?: string }) => [s.action, s.capture_to ?? null]), [['open_url', null], ['capture_value', 'greeting']]);
  assert.match(stopped.summary.skipped.join('\n'), /read_text of "Welcome back" without save_as/);
});

rec('recording errors are actionable; an iOS recording is platform-aware when no agnostic verb was used', async ({ pair }) => {
  const none = await pair.call('recording_stop', { device: ANDROID });
  assert.ok(none.isError);
  assert.match(textOf(none), /INVALID_PARAMETER: no recording is running on virtual-android-1.*recording_start/s);
  ok(await pair.call('recording_start', { device: IOS, name: 'Open the inbox' }));
  const twice = await pair.call('recording_start', { device: IOS, name: 'again' });
  assert.match(textOf(twice), /this session is recording virtual-ios-1 already \("Open the inbox", 0 steps and 0 assertions so far\)/);
  const early = ok(await pair.call('assert', { device: IOS, type: 'alert_present' }));
  assert.ok(early.recorded.reason);
  ok(await pair.call('open_url', { device: IOS, url: 'mbdemo://screen/inbox' }));
  ok(await pair.call('assert', { device: IOS, type: 'text_contains', expected_substring: 'No messages yet' }));
  const bad = await pair.call('recording_stop', { device: IOS, save_to: '/proc/nope/x.json' });
  assert.ok(bad.isError);
  assert.match(textOf(bad), /PERMISSION_DENIED: .*scenario follows/s);
  // The stop happened even though the file could not be written; asked again, it gives the same scenario (to save elsewhere).
  const again = ok(await pair.call('recording_stop', { device: IOS }));
  assert.is(again.repeated, true);
  assert.is(again.scenario.name, 'Open the inbox');
  // A save_to ending in / names a folder: refused, not written as a file of that name.
  const folder = mkdtempSync(join(tmpdir(), 'mb-rec-folder-'));
  try {
    ok(await pair.call('recording_start', { device: IOS, name: 'Folder', app_package: DEMO }));
    ok(await pair.call('open_url', { device: IOS, url: 'mbdemo://screen/inbox' }));
    const asFolder = await pair.call('recording_stop', { device: IOS, save_to: `${join(folder, 'scenarios')}/` });
    assert.match(textOf(asFolder), /INVALID_PARAMETER: .*names a folder.*scenario follows/s);
    assert.throws(() => readFileSync(join(folder, 'scenarios')), /ENOENT/);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }

  ok(await pair.call('recording_start', { device: IOS, name: 'Inbox', app_package: DEMO }));
  ok(await pair.call('open_url', { device: IOS, url: 'mbdemo://screen/inbox' }));
  const doc = ok(await pair.call('recording_stop', { device: IOS })).scenario;
  assert.is(doc.platform, 'ios');
  assert.is(doc.mode, undefined);
  assert.equal(doc.steps.map((s: { action: string }) => s.action), ['open_url']);
});

rec('app_state that cannot be set up (iOS cannot clear app data) fails the start instead of claiming it; nothing is recorded', async ({ pair }) => {
  // Signed in first, so a start that only claimed to clear the data would show the Items screen.
  ok(await pair.call('launch_app', { device: IOS, package: DEMO }));
  ok(await pair.call('type_text', { device: IOS, target: 'the Email field', text: 'demo@example.com' }));
  ok(await pair.call('type_text', { device: IOS, target: 'the Password field', text: 'secret123' }));
  ok(await pair.call('tap', { device: IOS, target: 'the Sign in button' }));
  const refused = await pair.call('recording_start', { device: IOS, name: 'l', app_state: 'logged_out', app_package: DEMO });
  assert.ok(refused.isError, textOf(refused));
  assert.match(textOf(refused), /^UNSUPPORTED: app_state logged_out cannot be set up on virtual-ios-1: .*iOS cannot clear an app's data.*no recording was started.*without app_state/s);
  assert.match(textOf((await pair.call('recording_stop', { device: IOS }))), /no recording is running on virtual-ios-1/);
  // The app really was left signed in: what the refusal says is what happened.
  ok(await pair.call('launch_app', { device: IOS, package: DEMO }));
  ok(await pair.call('assert', { device: IOS, type: 'screen_title', expected_text: 'Items' }));
  // Started by hand from the signed-out state, without app_state: recording works and claims nothing.
  ok(await pair.call('recording_start', { device: IOS, name: 'l', app_package: DEMO }));
  ok(await pair.call('open_url', { device: IOS, url: 'mbdemo://screen/inbox' }));
  const doc = ok(await pair.call('recording_stop', { device: IOS })).scenario;
  assert.is(doc.preconditions, undefined);
});

rec.run();
