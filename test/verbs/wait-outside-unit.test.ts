import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createEngine } from '../../src/engine/create.js';
import { DeterministicResolver, type ResolveRequest } from '../../src/engine/resolve/index.js';
import type { UiElement } from '../../src/engine/types.js';
import { runVerb, verbContext } from '../../src/engine/verbs/index.js';

/**
 * A tap whose target is not on screen yet waits for it (the verb's target wait) without holding the
 * device: other callers (a viewer's frames, another agent) go on meanwhile. Only the look that finds
 * it and the tap are one unit.
 */
const A = 'virtual-android-1';

test('while a tap waits for its target, another caller acts on the device, and the screen it opens is the one the tap finds', async () => {
  const engine = createEngine({ virtual: {}, android: false, ios: false });
  try {
    const seed = await verbContext({ engine, device: A, targetWaitMs: 0 });
    assert.is((await runVerb(seed, { action: 'open_url', value: 'mbdemo://screen/signin' })).status, 'passed');
    let other: Promise<unknown> | undefined;
    let otherDone = false;
    const resolver = new DeterministicResolver();
    const watching = {
      findAll: (r: ResolveRequest, e: readonly UiElement[]) => resolver.findAll(r, e),
      resolve(r: ResolveRequest, e: readonly UiElement[]) {
        // Another participant opens the list once the tap has looked and not found its target.
        other ??= engine.call('mobile_open_url', { device: A, url: 'mbdemo://screen/home' }, { origin: 'viewer' }).then(() => (otherDone = true));
        return resolver.resolve(r, e);
      },
    };
    const ctx = await verbContext({ engine, device: A, targetWaitMs: 8_000, resolver: watching as unknown as DeterministicResolver });
    const tap = await runVerb(ctx, { action: 'tap', target: 'Item 2' });
    assert.ok(otherDone, "the other caller's call ran while the tap waited");
    assert.is(tap.status, 'passed', tap.message);
    assert.is(tap.resolved?.id, 'item_2');
    await other;
  } finally {
    await engine.close();
  }
});

test('while a type step waits for its field, another caller opens the screen that has it, and the text goes into that field', async () => {
  const engine = createEngine({ virtual: {}, android: false, ios: false });
  try {
    const seed = await verbContext({ engine, device: A, targetWaitMs: 0 });
    assert.is((await runVerb(seed, { action: 'open_url', value: 'mbdemo://screen/home' })).status, 'passed');
    let other: Promise<unknown> | undefined;
    let otherDone = false;
    const resolver = new DeterministicResolver();
    const watching = {
      findAll: (r: ResolveRequest, e: readonly UiElement[]) => resolver.findAll(r, e),
      resolve(r: ResolveRequest, e: readonly UiElement[]) {
        other ??= engine.call('mobile_open_url', { device: A, url: 'mbdemo://screen/signin' }, { origin: 'viewer' }).then(() => (otherDone = true));
        return resolver.resolve(r, e);
      },
    };
    const ctx = await verbContext({ engine, device: A, targetWaitMs: 8_000, resolver: watching as unknown as DeterministicResolver });
    const typed = await runVerb(ctx, { action: 'type', target: 'the Email field', value: 'ada@example.com' });
    assert.ok(otherDone, "the other caller's call ran while the type step waited");
    assert.is(typed.status, 'passed', typed.message);
    const email = (await engine.call('mobile_list_elements_on_screen', { device: A })) as { elements: UiElement[] };
    assert.ok(email.elements.some((e) => e.type === 'edittext' && e.text === 'ada@example.com'), 'the field holds the text');
    await other;
  } finally {
    await engine.close();
  }
});

test.run();
