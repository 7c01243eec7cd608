import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Bridge } from '../../src/bridge/index.js';
import { RUNS_DIR } from '../runner/harness.js';
import { RawClient, testBridge } from './helpers.js';

/** The runner's methods over the bridge when there is nothing to run or nothing to run on. */
const runner = suite<{ bridge?: Bridge; client?: RawClient }>('scenarios.run and scenarios.cancel refusals');

runner.before(async (ctx) => {
  ctx.bridge = (await testBridge()).bridge;
  ctx.client = await RawClient.open(ctx.bridge.wsUrl);
});

runner.after(async (ctx) => {
  await ctx.client?.close();
  await ctx.bridge?.close();
});

runner('scenarios.cancel with no run in progress answers an empty list', async ({ client }) => {
  assert.equal(await client!.call('scenarios.cancel', {}), { cancelled: [] });
  // A run named that is not running may be a typo: that one is still said.
  const named = await client!.call('scenarios.cancel', { run: 'run_20260101_000000' });
  assert.is(named.code, 'INVALID_PARAMETER', JSON.stringify(named));
});

runner('scenarios.run on an unknown device is DEVICE_NOT_FOUND, naming the connected ones, and locks nothing', async ({ bridge, client }) => {
  const scenario = JSON.parse(readFileSync(join(RUNS_DIR, 'semantic_cross.json'), 'utf8')) as unknown;
  const r = await client!.call('scenarios.run', { device: 'no-such-phone', scenario });
  assert.is(r.code, 'DEVICE_NOT_FOUND', JSON.stringify(r).slice(0, 300));
  assert.match(String(r.message), /no-such-phone/);
  assert.match(String(r.message), /virtual-android-1/);
  assert.ok(!client!.texts.some((m) => (m as { method?: string }).method === 'device.lock'), 'no lock was taken on the id');
  assert.ok(!client!.texts.some((m) => (m as { method?: string }).method === 'scenario.progress'), 'no run started');
  assert.is(bridge!.locks.holder('no-such-phone'), undefined);
});

runner.run();
