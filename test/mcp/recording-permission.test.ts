import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runScenario } from '../../src/engine/runner/index.js';
import { loadScenario } from '../../src/validate/index.js';
import { ANDROID, DEMO, IOS, liveSessionEach, ok, type LiveSession } from './helpers.js';

/**
 * A recording that answers a permission prompt replays only from an app not asked yet: the app keeps
 * the answer. recording_stop's validation says so when nothing resets the app (iOS cannot clear its
 * data, so its recording cannot start from a fresh install); recorded from app_state fresh_install
 * (Android), the scenario replays on the same device again and again.
 */

const s = suite<LiveSession>('recording a permission prompt');
liveSessionEach(s, 'mb-rec-permission-');

async function recordCamera(pair: LiveSession['pair'], device: string, start: Record<string, unknown>): Promise<any> {
  ok(await pair.call('recording_start', { device, name: 'Camera', ...start }));
  for (const [tool, args] of [['launch_app', { package: DEMO }], ['open_url', { url: 'mbdemo://screen/more' }], ['tap', { target: 'Open camera' }], ['grant_permission', { permission_name: 'camera' }]] as const) {
    ok(await pair.call(tool, { device, ...args }));
  }
  ok(await pair.call('assert', { device, type: 'element_visible', element_description: 'the Take photo button' }));
  return ok(await pair.call('recording_stop', { device }));
}

s('iOS, recorded without a fresh app: the validation warns that a replay finds no prompt, and says how to reinstall', async ({ pair }) => {
  const stop = await recordCamera(pair, IOS, {});
  const warning = stop.validation.warnings.find((w: { rule: string }) => w.rule === 'permission-prompt-once');
  assert.ok(warning, JSON.stringify(stop.validation.warnings));
  assert.match(warning.message, 'grant_permission_camera');
  assert.match(warning.suggestion, 'uninstall_app');
});

s('Android, recorded from app_state fresh_install: no warning, and it replays twice on the same phone', async ({ pair, backend, dir, verbClock }) => {
  const stop = await recordCamera(pair, ANDROID, { app_package: DEMO, app_state: 'fresh_install' });
  assert.equal(stop.validation.warnings.filter((w: { rule: string }) => w.rule === 'permission-prompt-once'), []);
  assert.equal(stop.scenario.preconditions, { app_state: 'fresh_install' });
  // As `mobilebridge run` reads it: the file's defaults filled in.
  const { scenario } = loadScenario(JSON.stringify(stop.scenario), 'camera.json');
  for (const run of [1, 2]) {
    const { document } = await runScenario({ engine: backend.engine, device: ANDROID, scenario: scenario!, scenarioDir: dir, outDir: dir, clock: verbClock, settleMs: 0, screenshots: 'none' });
    assert.is(document.status, "passed", `run ${run}: ${JSON.stringify(document.assertion_results)} ${JSON.stringify(document.steps_executed.map((x: any) => [x.step_id, x.status, x.error_message]))}`);
  }
});

s.run();
