import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startBridge } from '../../src/bridge/server.js';
import { createEngine } from '../../src/engine/create.js';
import { connectBridge } from '../../src/protocol/node.js';
import { RUNS_DIR } from '../runner/harness.js';

test('verbs.run resolves and acts live; scenarios.run reports progress and returns the result document', async () => {
  const out = mkdtempSync(join(tmpdir(), 'mb-bridge-run-'));
  const bridge = await startBridge({ engine: createEngine({ virtual: {} }), host: '127.0.0.1', port: 0 });
  const client = await connectBridge(bridge.wsUrl);
  try {
    await client.request('session.hello', { client: 'test' });
    await client.requestRaw('tools.call', { tool: 'mobile_open_url', parameters: { device: 'virtual-android-1', url: 'mbdemo://screen/signin' } });
    const typed = (await client.requestRaw('verbs.run', { device: 'virtual-android-1', step: { action: 'type', target: 'the Email field', value: 'demo@example.com' } })) as { status: string; resolved: { id: string } };
    assert.is(typed.status, 'passed');
    assert.is(typed.resolved.id, 'email');
    const missing = (await client.requestRaw('verbs.run', { device: 'virtual-android-1', step: { action: 'tap', target: 'the Log out button' } })) as { status: string; error: { code: string; candidates?: unknown[] } };
    assert.is(missing.status, 'failed');
    assert.is(missing.error.code, 'ELEMENT_NOT_FOUND');
    // A malformed step is worded as the validator words it in a scenario (no valibot text, no rule tags).
    const refusals: [Record<string, unknown>, string][] = [
      [{ action: 'fly' }, 'action "fly" is not an action; use one of: launch_app, tap,'],
      [{ target: 'x' }, 'missing required property "action" in the step; add it'],
      [{ action: 'type', value: 5 }, 'value must be a string, got number 5'],
      [{ action: 'tap', target: 'x', bogus: 1 }, 'unknown property "bogus" in the step; remove it'],
      [{ action: 'wait_for_element', target: 'x', wait_config: { type: 'element_visible', timeout_ms: -5 } }, 'wait_config: timeout_ms -5 is out of range'],
    ];
    for (const [step, words] of refusals) {
      const r = (await client.requestRaw('verbs.run', { device: 'virtual-android-1', step })) as { code: string; message: string };
      assert.is(r.code, 'INVALID_PARAMETER');
      assert.ok(r.message.startsWith(`the step is not valid: ${words}`), r.message);
      assert.not.match(r.message, /Invalid (key|type|value)|\u0001/);
    }

    // The runner's fields are not applied live: refused, not ignored (a condition that would skip the step, optional).
    const runnerOnly: [Record<string, unknown>, string][] = [
      [{ action: 'tap', target: 'the Log out button', optional: true }, '"optional" is'],
      [{ action: 'tap', target: 'x', condition: { type: 'element_visible', element_description: 'a banner' }, retry_policy: { max_attempts: 3 } }, '"condition", "retry_policy" are'],
      [{ action: 'tap', target: 'x', on_failure: 'skip' }, '"on_failure" is'],
    ];
    for (const [step, words] of runnerOnly) {
      const r = (await client.requestRaw('verbs.run', { device: 'virtual-android-1', step })) as { code: string; message: string };
      assert.is(r.code, 'INVALID_PARAMETER', JSON.stringify(r));
      assert.match(r.message, `the step is not valid here: verbs.run runs its action once, live, and ${words} the runner's`);
      assert.match(r.message, /run the step in a scenario \(scenarios\.run\)$/);
    }
    const defaults = (await client.requestRaw('verbs.run', { device: 'virtual-android-1', step: { action: 'type', target: 'the Email field', value: 'x', optional: false, on_failure: 'fail' } })) as { status: string };
    assert.is(defaults.status, 'passed', 'the defaults change nothing and pass');

    const progress: unknown[] = [];
    client.on('scenario.progress', (p) => progress.push(p));
    const scenario = JSON.parse(readFileSync(join(RUNS_DIR, 'semantic_cross.json'), 'utf8')) as unknown;
    const doc = (await client.requestRaw('scenarios.run', { device: 'virtual-android-1', scenario, out })) as { status: string; steps_executed: unknown[] };
    assert.is(doc.status, 'passed');
    assert.ok(progress.length >= doc.steps_executed.length + 2, `${progress.length} progress notifications`);
    const invalid = (await client.requestRaw('scenarios.run', { device: 'virtual-android-1', scenario: { steps: [] } })) as { ok: boolean };
    assert.is(invalid.ok, false);
  } finally {
    await client.close();
    await bridge.close();
    rmSync(out, { recursive: true, force: true });
  }
});

test.run();
