import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Bridge } from '../../src/bridge/index.js';
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

runner.run();
