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

test('a takeover cancels the previous holder\'s run on the device; the run\'s answer, progress and document say who took it', async () => {
  const out = mkdtempSync(join(tmpdir(), 'mb-run-takeover-'));
  const { bridge } = await testBridge();
  const a = await connectBridge(bridge.wsUrl, { client: 'suite-runner' });
  const b = await connectBridge(bridge.wsUrl, { client: 'person' });
  try {
    const { session: runner } = (await a.requestRaw('session.hello', { client: 'suite-runner' })) as { session: string };
    const { session: person } = (await b.requestRaw('session.hello', { client: 'person' })) as { session: string };
    const calls: { origin?: string; mutates: boolean }[] = [];
    bridge.engine.onCall((e) => calls.push({ origin: e.origin, mutates: e.mutates }));
    const progress: { type: string; summary?: string }[] = [];
    a.on('scenario.progress', (p) => progress.push(p as { type: string; summary?: string }));
    const scenario = JSON.parse(readFileSync(join(RUNS_DIR, 'semantic_cross.json'), 'utf8')) as { steps: unknown[] };
    const running = a.requestRaw('scenarios.run', { device: ANDROID, scenario, out }) as Promise<{ status: string; summary: string; result_file: string; steps_executed: unknown[] }>;
    await until('the run acts on the device', () => calls.some((c) => c.origin === runner && c.mutates), 20_000);

    const lock = (await b.request('devices.lock', { device: ANDROID, takeover: true })) as { holder?: { session: string } };
    assert.is(lock.holder?.session, person);
    const doc = await running;
    assert.is(doc.status, 'cancelled', doc.summary);
    assert.match(doc.summary, new RegExp(`taken over by session ${person} \\(person\\)`));
    assert.ok(doc.steps_executed.length < scenario.steps.length, 'the run stopped before its last step');
    const onDisk = JSON.parse(readFileSync(doc.result_file, 'utf8')) as { status: string; summary: string };
    assert.equal([onDisk.status, onDisk.summary], [doc.status, doc.summary]);
    assert.match(progress.find((e) => e.type === 'finished')?.summary ?? '', /taken over/);
    // Once the run has answered it acts no more; the new holder's press goes through.
    const after = calls.length;
    const press = (await b.callTool('mobile_press_button', { device: ANDROID, button: 'HOME' })) as { status?: string };
    assert.is(press.status, 'success', JSON.stringify(press));
    assert.is(calls.slice(after).filter((c) => c.origin === runner).length, 0);
    assert.is(bridge.locks.holder(ANDROID)?.id, person, 'the run\'s end did not release the new holder\'s lock');
  } finally {
    await a.close();
    await b.close();
    await bridge.close();
    rmSync(out, { recursive: true, force: true });
  }
});

test('a run started while the session\'s cancelled run is still stopping: the lock lasts until the last of them ends', async () => {
  const out = mkdtempSync(join(tmpdir(), 'mb-run-two-'));
  const { bridge } = await testBridge();
  const a = await connectBridge(bridge.wsUrl, { client: 'suite-runner' });
  try {
    const { session } = (await a.requestRaw('session.hello', { client: 'suite-runner' })) as { session: string };
    let firstDone = false;
    const calls: { holder?: string; afterFirst: boolean }[] = [];
    // Who holds the device at each call of the runs, and whether the first run had answered by then.
    bridge.engine.onCall((e) => {
      if (e.origin === session && e.mutates) calls.push({ holder: bridge.locks.holder(ANDROID)?.id, afterFirst: firstDone });
    });
    const presses = (id: string, n: number) => ({
      ...(JSON.parse(readFileSync(join(RUNS_DIR, 'clear_data_cross.json'), 'utf8')) as Record<string, unknown>),
      scenario_id: id,
      steps: Array.from({ length: n }, (_, i) => ({ id: `home_${i}`, action: 'press_button', description: 'home', value: 'HOME' })),
      assertions: [],
    });
    // The first run takes the lock and is cancelled; the second, sent at once, finds the lock taken by the
    // session and must not take the first run's end for its own.
    const first = a.requestRaw('scenarios.run', { device: ANDROID, scenario: presses('first', 200), out }) as Promise<{ status: string; summary: string }>;
    await until('the first run acts on the device', () => calls.length > 0, 20_000);
    await a.requestRaw('scenarios.cancel', {});
    const long = a.requestRaw('scenarios.run', { device: ANDROID, scenario: presses('second', 60), out }) as Promise<{ status: string; summary: string }>;
    const short = await first;
    firstDone = true;
    assert.is(short.status, 'cancelled', short.summary);
    const rest = await long;
    assert.is(rest.status, 'passed', rest.summary);
    assert.ok(calls.some((c) => c.afterFirst), 'the second run still acted after the first one ended');
    assert.equal(calls.filter((c) => c.holder !== session), [], 'every call of the runs was made under the session\'s lock');
    assert.is(bridge.locks.holder(ANDROID), undefined, 'the last run released the lock it took');
  } finally {
    await a.close();
    await bridge.close();
    rmSync(out, { recursive: true, force: true });
  }
});

test('a second scenarios.run of the same session on a device its first run still drives is refused, naming that run; after it ends, a new one starts', async () => {
  const out = mkdtempSync(join(tmpdir(), 'mb-run-twice-'));
  const { bridge } = await testBridge();
  const client = await connectBridge(bridge.wsUrl);
  try {
    await client.requestRaw('session.hello', { client: 'viewer' });
    let runId: string | undefined;
    client.on('scenario.progress', (p) => {
      const e = p as { type: string; run_id?: string };
      if (e.type === 'started') runId ??= e.run_id;
    });
    const scenario = JSON.parse(readFileSync(join(RUNS_DIR, 'semantic_cross.json'), 'utf8')) as unknown;
    const first = client.requestRaw('scenarios.run', { device: ANDROID, scenario, out });
    // Closing the client after a failed assertion rejects it: not a second failure.
    first.catch(() => undefined);
    await until('the first run started', () => runId !== undefined);
    // The lock says which scenario holds the device (what Take control would cancel).
    const recent = (await client.requestRaw('activity.recent', { device: ANDROID })) as { lock: { purpose?: Record<string, unknown> } | null };
    const { scenario_id, name } = scenario as { scenario_id: string; name: string };
    assert.equal(recent.lock?.purpose, { kind: 'run', scenario_id, name });
    const second = (await client.requestRaw('scenarios.run', { device: ANDROID, scenario, out })) as { status?: string; code?: string; message?: string };
    assert.is(second.code, 'INVALID_PARAMETER', JSON.stringify(second));
    assert.match(String(second.message), `a scenario run of this session is still in progress on ${ANDROID} (${runId})`);
    const done = (await first) as { status: string };
    assert.ok(['passed', 'failed'].includes(done.status), JSON.stringify(done).slice(0, 300));
    const again = (await client.requestRaw('scenarios.run', { device: ANDROID, scenario, out })) as { status: string };
    assert.ok(['passed', 'failed'].includes(again.status), JSON.stringify(again).slice(0, 300));
  } finally {
    await client.close();
    await bridge.close();
    rmSync(out, { recursive: true, force: true });
  }
});

test.run();
