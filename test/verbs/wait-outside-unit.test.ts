import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createEngine } from '../../src/engine/create.js';
import type { Engine } from '../../src/engine/engine.js';
import { DeterministicResolver, type ResolveRequest } from '../../src/engine/resolve/index.js';
import type { UiElement } from '../../src/engine/types.js';
import { runVerb, verbContext, type VerbContext } from '../../src/engine/verbs/index.js';

/**
 * A tap or a type step whose target is not on screen yet waits for it (the verb's target wait)
 * without holding the device: other callers (a viewer's frames, another agent) go on meanwhile.
 * Only the look that finds it and the action are one unit.
 */
const A = 'virtual-android-1';

/**
 * A verb context on a device that starts on `from`, whose first look at the screen makes another
 * participant open `to`: `otherRan` says whether that call finished before the verb did.
 */
async function whileAnotherOpens(engine: Engine, from: string, to: string): Promise<{ ctx: VerbContext; otherRan: () => boolean; other: () => Promise<unknown> }> {
  const seed = await verbContext({ engine, device: A, targetWaitMs: 0 });
  assert.is((await runVerb(seed, { action: 'open_url', value: from })).status, 'passed');
  let other: Promise<unknown> | undefined;
  let ran = false;
  const resolver = new DeterministicResolver();
  const watching = {
    findAll: (r: ResolveRequest, e: readonly UiElement[]) => resolver.findAll(r, e),
    resolve(r: ResolveRequest, e: readonly UiElement[]) {
      other ??= engine.call('mobile_open_url', { device: A, url: to }, { origin: 'viewer' }).then(() => (ran = true));
      return resolver.resolve(r, e);
    },
  };
  const ctx = await verbContext({ engine, device: A, targetWaitMs: 8_000, resolver: watching as unknown as DeterministicResolver });
  return { ctx, otherRan: () => ran, other: () => other ?? Promise.resolve() };
}

test('while a tap waits for its target, another caller acts on the device, and the screen it opens is the one the tap finds', async () => {
  const engine = createEngine({ virtual: {}, android: false, ios: false });
  try {
    const { ctx, otherRan, other } = await whileAnotherOpens(engine, 'mbdemo://screen/signin', 'mbdemo://screen/home');
    const tap = await runVerb(ctx, { action: 'tap', target: 'Item 2' });
    assert.ok(otherRan(), "the other caller's call ran while the tap waited");
    assert.is(tap.status, 'passed', tap.message);
    assert.is(tap.resolved?.id, 'item_2');
    await other();
  } finally {
    await engine.close();
  }
});

test('while a type step waits for its field, another caller opens the screen that has it, and the text goes into that field', async () => {
  const engine = createEngine({ virtual: {}, android: false, ios: false });
  try {
    const { ctx, otherRan, other } = await whileAnotherOpens(engine, 'mbdemo://screen/home', 'mbdemo://screen/signin');
    const typed = await runVerb(ctx, { action: 'type', target: 'the Email field', value: 'ada@example.com' });
    assert.ok(otherRan(), "the other caller's call ran while the type step waited");
    assert.is(typed.status, 'passed', typed.message);
    const listed = (await engine.call('mobile_list_elements_on_screen', { device: A })) as { elements: UiElement[] };
    assert.ok(listed.elements.some((e) => e.type === 'edittext' && e.text === 'ada@example.com'), 'the field holds the text');
    await other();
  } finally {
    await engine.close();
  }
});

test.run();
