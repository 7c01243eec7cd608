import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createEngine } from '../../src/engine/create.js';
import { DeterministicResolver, type ResolveRequest } from '../../src/engine/resolve/index.js';
import type { UiElement } from '../../src/engine/types.js';
import { listElements, runVerb, verbContext } from '../../src/engine/verbs/index.js';

/**
 * A tap resolves its target and taps it as one unit on the device. An agent that sent a tap and a
 * swipe at once (QA pass of the MCP server) had the swipe land between the look and the tap: the
 * list moved, the tap opened another item, and the verb still said it tapped the one it meant.
 */
const A = 'virtual-android-1';

test('a swipe sent while a tap is resolving its target runs after the tap, which opens the item it names', async () => {
  const engine = createEngine({ virtual: {}, android: false, ios: false });
  try {
    let swiped: Promise<unknown> | undefined;
    // The other caller's swipe arrives while the tap looks at the screen.
    const resolver = new DeterministicResolver();
    const racing = {
      findAll: (r: ResolveRequest, e: readonly UiElement[]) => resolver.findAll(r, e),
      resolve(r: ResolveRequest, e: readonly UiElement[]) {
        swiped ??= engine.call('mobile_swipe_on_screen', { device: A, direction: 'up', distance: 600 }, { origin: 'viewer' });
        return resolver.resolve(r, e);
      },
    };
    const ctx = await verbContext({ engine, device: A, targetWaitMs: 0, resolver: racing as unknown as DeterministicResolver });
    assert.is((await runVerb(ctx, { action: 'open_url', value: 'mbdemo://screen/home' })).status, 'passed');
    const tap = await runVerb(ctx, { action: 'tap', target: 'Item 2' });
    await swiped;
    assert.is(tap.status, 'passed', tap.message);
    assert.is(tap.resolved?.id, 'item_2');
    const title = (await listElements(ctx)).find((e) => e.id === 'toolbar_title');
    assert.is(title?.text, 'Item 2', 'the item the tap reported is the one it opened');
  } finally {
    await engine.close();
  }
});

test.run();
