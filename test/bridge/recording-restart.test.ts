import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { connectBridge } from '../../src/protocol/node.js';
import { ANDROID, testBridge, until } from './helpers.js';

/** Issue 16: a recording is written to the state folder as it grows and survives a bridge restart. */

test('a recording survives a bridge restart: status and stop on a new bridge find it with its steps', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mb-recordings-'));
  const file = join(dir, `${ANDROID}.recording.json`);
  try {
    const first = await testBridge({ recordingsDir: dir });
    const a = await connectBridge(first.bridge.wsUrl);
    await a.requestRaw('session.hello', { client: 'agent' });
    await a.requestRaw('recording.start', { device: ANDROID, name: 'Sign in survives' });
    assert.ok(existsSync(file), 'written when it starts');
    await a.requestRaw('tools.call', { tool: 'mobile_open_url', parameters: { device: ANDROID, url: 'mbdemo://screen/signin' } });
    const typed = (await a.requestRaw('verbs.run', { device: ANDROID, step: { action: 'type', target: 'the Email field', value: 'demo@example.com' } })) as { status: string; recorded: string[] };
    assert.is(typed.status, 'passed');
    // What a SIGKILL right now would leave behind: every recorded step is on disk already.
    const onDisk = await until('the step on disk', () => {
      const s = JSON.parse(readFileSync(file, 'utf8')) as { steps: { action: string }[] };
      return s.steps.some((x) => x.action === 'type') && s;
    });
    assert.ok(onDisk.steps.length >= 1);
    await a.close();
    await first.bridge.close();

    const second = await testBridge({ recordingsDir: dir });
    const b = await connectBridge(second.bridge.wsUrl);
    try {
      await b.requestRaw('session.hello', { client: 'agent (reconnected)' });
      const status = (await b.requestRaw('recording.status', {})) as { recordings: { device: string; name: string; steps: number }[] };
      assert.equal(status.recordings.map((r) => [r.device, r.name]), [[ANDROID, 'Sign in survives']]);
      assert.ok(status.recordings[0].steps >= 2, `${status.recordings[0].steps} steps`);
      const stopped = (await b.requestRaw('recording.stop', { device: ANDROID })) as { scenario: { steps: { action: string; value?: string }[] }; validation: { valid: boolean } };
      assert.ok(stopped.scenario.steps.some((s) => s.action === 'type' && s.value === 'demo@example.com'));
      assert.is(stopped.validation.valid, true);
      assert.not.ok(existsSync(file), 'removed once stopped');
    } finally {
      await b.close();
      await second.bridge.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
