import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { validateScenarioText, validateScenarioValue } from '../../src/validate/index.js';

/**
 * A scenario answering a permission prompt replays only from an app not asked yet: without
 * preconditions that reset the app, validation warns and says how to reset it on the platform.
 */

function scenario(platform: string, extra: Record<string, unknown> = {}, step: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    $schema_version: '2.2',
    scenario_id: 'camera',
    name: 'Camera',
    description: 'Opens the camera',
    platform,
    mode: 'platform-agnostic',
    app_package: 'com.mobilebridge.demo',
    metadata: { app_version: '1.0', environment: 'development' },
    ...extra,
    steps: [
      { id: 'open_camera', action: 'tap', description: 'Open camera', target: 'Open camera' },
      { id: 'grant_permission_camera', action: 'grant_permission', description: 'Allow the camera', permission_name: 'camera', ...step },
    ],
    assertions: [{ id: 'shutter', after_step: 'grant_permission_camera', type: 'element_visible', description: 'camera open', element_description: 'the Take photo button' }],
  };
}

const warnings = (doc: Record<string, unknown>) => validateScenarioValue(doc, 'camera.json').warnings.filter((w) => w.rule === 'permission-prompt-once');

test('android without a reset: a warning on the step saying to start from a fresh install', () => {
  const [w, ...more] = warnings(scenario('android'));
  assert.equal(more, []);
  assert.is(w.path, '/steps/1/action');
  assert.match(w.message, 'step "grant_permission_camera" (grant_permission) answers a permission prompt');
  assert.match(w.suggestion!, '"preconditions": {"app_state": "fresh_install"}');
});

test('ios without a reset: the suggestion reinstalls the app (iOS cannot clear its data unattended)', () => {
  const [w] = warnings(scenario('ios'));
  assert.match(w.suggestion!, '{"action": "uninstall_app"}, {"action": "install_app"');
  assert.not.match(w.suggestion!, 'fresh_install');
});

test('no warning when the preconditions reset the app, or the step may find no prompt', () => {
  for (const extra of [{ preconditions: { app_state: 'fresh_install' } }, { preconditions: { app_state: 'logged_out' } }, { preconditions: { device_actions: [{ action: 'clear_app_data' }] } }]) {
    assert.equal(warnings(scenario('android', extra)), [], JSON.stringify(extra));
  }
  assert.equal(warnings(scenario('android', {}, { on_failure: 'skip' })), []);
  // A run goes on past an optional step that found no prompt, as past on_failure skip.
  assert.equal(warnings(scenario('android', {}, { optional: true })), []);
  assert.equal(warnings(scenario('android', {}, { condition: { type: 'element_visible', element_description: 'the Allow button' } })), []);
  // Clearing another app's data does not reset this one.
  assert.is(warnings(scenario('android', { preconditions: { device_actions: [{ action: 'clear_app_data', target_package: 'com.other.app' }] } })).length, 1);
});

/** A scenario using flows/camera.json (which answers the prompt), validated with its folder. */
function throughFlow(top: Record<string, unknown>, flow: Record<string, unknown> = scenario('android'), others: Record<string, unknown> = {}): { path: string; message: string; suggestion?: string }[] {
  const dir = mkdtempSync(join(tmpdir(), 'mb-permission-flow-'));
  try {
    mkdirSync(join(dir, 'flows'));
    writeFileSync(join(dir, 'flows', 'camera.json'), JSON.stringify(flow));
    for (const [name, doc] of Object.entries(others)) writeFileSync(join(dir, 'flows', name), JSON.stringify(doc));
    const file = join(dir, 'top.json');
    const text = JSON.stringify(top, null, 2);
    writeFileSync(file, text);
    return validateScenarioText(text, file, { baseDir: dir }).warnings.filter((w) => w.rule === 'permission-prompt-once');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const usingFlow = (extra: Record<string, unknown> = {}, flowStep: Record<string, unknown> = {}): Record<string, unknown> => ({
  ...scenario('android', extra),
  steps: [{ id: 'camera', flow: 'flows/camera.json', ...flowStep }],
  assertions: [{ id: 'shutter', after_step: 'camera', type: 'element_visible', description: 'camera open', element_description: 'the Take photo button' }],
});

test('a flow that answers a permission prompt: the scenario using it warns on its flow step, naming the step', () => {
  const [w, ...more] = throughFlow(usingFlow());
  assert.equal(more, []);
  assert.is(w.path, '/steps/0/flow');
  assert.match(w.message, 'step camera.grant_permission_camera (grant_permission, step "grant_permission_camera" of flow "flows/camera.json") answers a permission prompt');
  assert.match(w.suggestion!, '"preconditions": {"app_state": "fresh_install"}');
});

test('through a flow: the using scenario\'s reset or the flow step\'s condition silences it; the flow\'s own preconditions do not (they are never applied)', () => {
  assert.equal(throughFlow(usingFlow({ preconditions: { app_state: 'fresh_install' } })), []);
  assert.equal(throughFlow(usingFlow({}, { condition: { type: 'element_visible', element_description: 'the Allow button' } })), []);
  assert.is(throughFlow(usingFlow(), scenario('android', { preconditions: { app_state: 'fresh_install' } })).length, 1);
});

test('a flow of a flow that answers: named as the run names the step, through the flow used', () => {
  const outer = { ...scenario('android'), steps: [{ id: 'setup', flow: 'camera.json' }], assertions: [] };
  const [w, ...more] = throughFlow({ ...usingFlow(), steps: [{ id: 'go', flow: 'flows/outer.json' }], assertions: [] }, scenario('android'), { 'outer.json': outer });
  assert.equal(more, []);
  assert.is(w.path, '/steps/0/flow');
  assert.match(w.message, 'step go.setup.grant_permission_camera (grant_permission, step "grant_permission_camera" of flows/camera.json (through flow "flows/outer.json"))');
});

test.run();
