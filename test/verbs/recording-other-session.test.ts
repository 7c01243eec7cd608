import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { AgentSession } from '../../src/engine/agent/agent-session.js';
import { createEngine } from '../../src/engine/create.js';

/**
 * Pair debugging: while one session records, another (a second viewer, an agent) acts on the same
 * phone. The scenario holds only the recording session's actions, so the stop summary says what it
 * left out instead of presenting a recording that may not replay as complete.
 */

const A = 'virtual-android-1';
const DEMO = 'com.mobilebridge.demo';

test("another session's actions on the recorded device are named in the summary's skipped list, counted per session", async () => {
  const engine = createEngine({ virtual: {}, android: false, ios: false });
  const recording = new AgentSession(engine, 'viewer-a');
  const other = new AgentSession(engine, 'viewer-b');
  try {
    await recording.startRecording({ device: A, name: 'pair', app_package: DEMO });
    assert.is((await recording.run(A, { action: 'launch_app', value: DEMO })).status, 'passed');
    assert.is((await recording.run(A, { action: 'open_url', value: 'mbdemo://screen/signin' })).status, 'passed');
    assert.is((await other.run(A, { action: 'tap', target: 'the Email field' })).status, 'passed');
    await engine.call('mobile_type_keys', { device: A, text: 'b@example.com' }, { origin: 'viewer-b' });
    // Looking is not acting.
    await engine.call('mobile_list_elements_on_screen', { device: A }, { origin: 'viewer-b' });
    assert.is((await recording.run(A, { action: 'tap', target: 'the Password field' })).status, 'passed');
    const stopped = await recording.stopRecording(A);
    const lines = stopped.summary.skipped.filter((s) => s.includes('another session'));
    assert.is(lines.length, 1, JSON.stringify(stopped.summary.skipped));
    assert.match(lines[0], `2 actions on ${A} by another session (viewer-b) while recording: not in the scenario`);
    const steps = (stopped.scenario as { steps: { action: string }[] }).steps.map((s) => s.action);
    assert.equal(steps, ['launch_app', 'open_url', 'tap']);
  } finally {
    recording.close();
    other.close();
    await engine.close();
  }
});

test.run();
