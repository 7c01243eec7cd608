import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { LocalBackend } from '../../src/mcp/backend.js';
import { inAgentTerms } from '../../src/mcp/tool-names.js';
import { ANDROID, connectPair, textOf, virtualEngine, type Pair } from './helpers.js';

/** What the tools say (descriptions, schemas, messages) agrees with what they do. */
const say = suite<{ backend: LocalBackend; pair: Pair }>('MCP descriptions and messages agree with the tools');

say.before.each(async (ctx) => {
  const { engine, verbClock } = virtualEngine();
  ctx.backend = new LocalBackend(engine, { clock: verbClock, targetWaitMs: 500, settleMs: 0 });
  ctx.pair = await connectPair(ctx.backend);
});
say.after.each(async (ctx) => {
  await ctx.pair.close();
  await ctx.backend.close();
});

say('mobile_pinch_on_screen is the pinch tool here, in messages and when called without --engine-tools', async ({ pair }) => {
  assert.is(inAgentTerms('use mobile_pinch_on_screen for that', false), 'use pinch for that');
  assert.match(textOf(await pair.call('mobile_pinch_on_screen', { device: ANDROID, x: 540, y: 900, scale: 2 })), /call "pinch", which does the same here/);
});

say.run();
