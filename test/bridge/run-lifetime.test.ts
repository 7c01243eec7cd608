import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { connectBridge } from '../../src/protocol/node.js';
import { RUNS_DIR } from '../runner/harness.js';
import { ANDROID, testBridge, until } from './helpers.js';

/** Issue 16: a scenario run lives no longer than its session, and holds the device lock until it has really stopped. */

test('session.bye mid-run cancels the run, which keeps the lock until its last device call; the document says cancelled', async () => {
  const out = mkdtempSync(join(tmpdir(), 'mb-run-life-'));
  const { bridge } = await testBridge();
  const client = await connectBridge(bridge.wsUrl);
  try {
    const hello = (await client.requestRaw('session.hello', { client: 'runner-owner' })) as { session: string };
    const calls: { origin?: string; at: number }[] = [];
    bridge.engine.onCall((e) => calls.push({ origin: e.origin, at: performance.now() }));
    let resultFile: string | undefined;
    client.on('scenario.progress', (p) => {
      const e = p as { type: string; result_file?: string };
      if (e.type === 'started') resultFile = e.result_file;
    });
    const scenario = JSON.parse(readFileSync(join(RUNS_DIR, 'semantic_cross.json'), 'utf8')) as unknown;
    const running = client.requestRaw('scenarios.run', { device: ANDROID, scenario, out }).catch(() => undefined);
    await until('the run started', () => resultFile !== undefined && calls.some((c) => c.origin === hello.session));
    let releasedAt: number | undefined;
    const watch = setInterval(() => {
      if (releasedAt === undefined && !bridge.locks.holder(ANDROID)) releasedAt = performance.now();
    }, 2);
    await client.requestRaw('session.bye', {}).catch(() => undefined);
    void running;
    const doc = await until('the run wrote its final document', () => {
      const d = JSON.parse(readFileSync(resultFile!, 'utf8')) as { status: string; steps_executed: unknown[] };
      return d.status !== 'running' && d;
    }, 20_000);
    await until('the lock was released', () => releasedAt !== undefined);
    clearInterval(watch);
    assert.is(doc.status, 'cancelled');
    assert.ok(doc.steps_executed.length < 10, 'the run stopped early');
    const late = calls.filter((c) => c.origin === hello.session && c.at > releasedAt! + 1);
    assert.is(late.length, 0, 'no call of the run after the lock was released');
  } finally {
    await client.close();
    await bridge.close();
    rmSync(out, { recursive: true, force: true });
  }
});

test.run();
