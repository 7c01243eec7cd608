import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { AgentSession } from '../../src/engine/agent/agent-session.js';
import { createEngine } from '../../src/engine/create.js';
import { RecordingStore } from '../../src/engine/verbs/recording-store.js';

/** A live step in another case (a bridge viewer's verbs.run, an agent) is run and recorded in the scenario's spelling. */

test('swipe "UP", press_button "home", a wait with indicator "SPINNER": run, and recorded as a valid scenario', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mb-canonical-'));
  const engine = createEngine({ virtual: {}, android: false, ios: false });
  const session = new AgentSession(engine, 'viewer', { store: new RecordingStore(dir) });
  const A = 'virtual-android-1';
  try {
    await session.startRecording({ device: A, name: 'Case' });
    assert.is((await session.run(A, { action: 'launch_app', value: 'com.mobilebridge.demo' })).status, 'passed');
    for (const step of [
      { action: 'swipe', value: 'UP' },
      { action: 'wait_for_loading_complete', wait_config: { type: 'LOADING_COMPLETE', indicator: 'SPINNER', timeout_ms: 1000 } },
      { action: 'press_button', value: 'home' },
    ]) {
      const o = await session.run(A, step);
      assert.is(o.status, 'passed', `${step.action}: ${o.message}`);
    }
    const stopped = await session.stopRecording(A);
    assert.ok(stopped.validation.valid, JSON.stringify(stopped.validation.errors));
    const steps = stopped.scenario.steps as { action: string; value?: string; wait_config?: { type: string; indicator?: string } }[];
    assert.equal(steps.map((s) => s.value ?? s.wait_config?.indicator ?? null), [null, 'up', 'spinner', 'HOME']);
  } finally {
    session.close();
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
