import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startBridge } from '../../src/bridge/index.js';
import { Peer } from '../../src/bridge/peers/peer.js';
import { createEngine } from '../../src/engine/create.js';
import { closePeerLab, labClient, type PeerLab } from './peer-lab.js';
import { testBridge, until } from '../bridge/helpers.js';

const ANDROID = 'virtual-android-1';
const IOS = 'virtual-ios-1';

/** A run that waits for an element that never comes: it lasts until cancelled. */
const waiting = (id: string, platform: string) => ({
  $schema_version: '2.1', scenario_id: id, name: id, description: 'waits', platform, app_package: 'com.mobilebridge.demo',
  metadata: { app_version: '1', environment: 'test' },
  steps: [
    { id: 'launch', action: 'launch_app', description: 'launch' },
    { id: 'wait', action: 'wait_for_element', description: 'never shows', target: 'the Checkout button', wait_config: { type: 'element_visible', timeout_ms: 60000 } },
  ],
  assertions: [],
});

const cancel = suite<{ lab?: PeerLab; out: string }>('scenarios.cancel through an aggregator', { out: '' });

cancel.before(async (ctx) => {
  const a = (await testBridge({ virtual: { devices: ['android'] } })).bridge;
  const b = (await testBridge({ virtual: { devices: ['ios'] } })).bridge;
  const peers = [new Peer({ name: 'a', url: a.wsUrl }, { firstRetryMs: 50, maxRetryMs: 200 }), new Peer({ name: 'b', url: b.wsUrl }, { firstRetryMs: 50, maxRetryMs: 200 })];
  const agg = await startBridge({ engine: createEngine({ virtual: false, extraDrivers: peers }), host: '127.0.0.1', port: 0, webRoot: '/nonexistent', peers, log: () => undefined });
  ctx.lab = { a, b, agg, clients: [] };
  ctx.out = mkdtempSync(join(tmpdir(), 'mb-cancel-all-'));
  await until('both peers listed', () => peers.every((p) => p.up) && peers[0].owns(ANDROID) && peers[1].owns(IOS), 10_000);
});

cancel.after(async (ctx) => {
  await closePeerLab(ctx.lab);
  rmSync(ctx.out, { recursive: true, force: true });
});

cancel('without a run id it cancels the session\'s runs on every peer, not only the aggregator\'s own', async ({ lab, out }) => {
  const c = await labClient(lab!, 'ci');
  const started: string[] = [];
  c.on('scenario.progress', (p: { type?: string; run_id?: string }) => {
    if (p.type === 'started' && p.run_id) started.push(p.run_id);
  });
  const runs = [
    c.requestRaw('scenarios.run', { device: ANDROID, scenario: waiting('wait_android', 'android'), out: join(out, 'a') }),
    c.requestRaw('scenarios.run', { device: IOS, scenario: waiting('wait_ios', 'ios'), out: join(out, 'b') }),
  ] as Promise<{ status?: string; summary?: string }>[];
  await until('both runs started on their peers', () => started.length === 2, 20_000);
  const answer = (await c.requestRaw('scenarios.cancel', {})) as { cancelled?: string[] };
  assert.equal([...(answer.cancelled ?? [])].sort(), [...started].sort(), JSON.stringify(answer));
  for (const run of await Promise.all(runs)) assert.is(run.status, 'cancelled', run.summary);
  assert.equal(await c.requestRaw('scenarios.cancel', {}), { cancelled: [] }, 'nothing is left running');
});

cancel('a verb sent to a peer\'s device is cancelled there when its caller cancels it at the aggregator (requests.cancel)', async ({ lab }) => {
  const c = await labClient(lab!, 'agent');
  const controller = new AbortController();
  const verb = c.requestRaw('verbs.run', { device: IOS, step: { action: 'wait_for_element', target: 'the Checkout button', wait_config: { type: 'element_visible', timeout_ms: 60000 } } }, controller.signal) as Promise<{ status?: string; error?: { code?: string } }>;
  await new Promise((r) => setTimeout(r, 500));
  const started = performance.now();
  controller.abort();
  const outcome = await verb;
  assert.is(outcome.error?.code, 'CANCELLED', JSON.stringify(outcome));
  assert.ok(performance.now() - started < 10_000, 'ended by the cancellation, not by its 60 s');
});

cancel.run();
