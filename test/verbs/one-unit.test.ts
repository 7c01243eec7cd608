import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createEngine } from '../../src/engine/create.js';
import { runVerb, verbContext } from '../../src/engine/verbs/index.js';

/** Issue 16: a verb's tap and its typing are one unit on the device queue; another caller never lands between them. */
const A = 'virtual-android-1';

test('two agents typing into fields at once: each tap is followed by its own typing', async () => {
  const engine = createEngine({ virtual: {} });
  try {
    await engine.call('mobile_open_url', { device: A, url: 'mbdemo://screen/signin' });
    const order: string[] = [];
    engine.onCall((e) => {
      if (e.mutates) order.push(`${e.origin}:${e.tool}`);
    });
    const one = await verbContext({ engine, device: A, origin: 'one' });
    const two = await verbContext({ engine, device: A, origin: 'two' });
    const [a, b] = await Promise.all([
      runVerb(one, { action: 'type', target: 'the Email field', value: 'first@example.com' }),
      runVerb(two, { action: 'type', target: 'the Password field', value: 'second-secret' }),
    ]);
    assert.equal([a.status, b.status], ['passed', 'passed'], `${a.message} / ${b.message}`);
    const taps = order.filter((x) => x.endsWith('mobile_click_on_screen_at_coordinates'));
    assert.is(taps.length, 2, order.join(', '));
    for (let i = 0; i < order.length; i += 2) {
      const [who] = order[i].split(':');
      assert.equal([order[i], order[i + 1]], [`${who}:mobile_click_on_screen_at_coordinates`, `${who}:mobile_type_keys`], order.join(', '));
    }
    const fields = ((await engine.call('mobile_list_elements_on_screen', { device: A })) as { elements: { id: string; text: string }[] }).elements;
    assert.is(fields.find((e) => e.id === 'email')?.text, 'first@example.com');
  } finally {
    await engine.close();
  }
});

test('a caller is told when another caller acted on the device since its last call', async () => {
  const engine = createEngine({ virtual: {} });
  try {
    const size = (await engine.call('mobile_get_screen_size', { device: A }, { origin: 'agent' })) as Record<string, unknown>;
    assert.is(size.others_acted, undefined, 'nothing to report on a first call');
    await engine.call('mobile_press_button', { device: A, button: 'HOME' }, { origin: 'viewer' });
    await engine.call('mobile_swipe_on_screen', { device: A, direction: 'up' }, { origin: 'viewer' });
    const next = (await engine.call('mobile_get_screen_size', { device: A }, { origin: 'agent' })) as { others_acted?: { actions: { origin: string; tool: string }[] } };
    assert.equal(next.others_acted?.actions.map((x) => `${x.origin}:${x.tool}`), ['viewer:mobile_press_button', 'viewer:mobile_swipe_on_screen']);
    const again = (await engine.call('mobile_get_screen_size', { device: A }, { origin: 'agent' })) as Record<string, unknown>;
    assert.is(again.others_acted, undefined, 'told once');
    const own = (await engine.call('mobile_press_button', { device: A, button: 'HOME' }, { origin: 'viewer' })) as Record<string, unknown>;
    assert.is(own.others_acted, undefined, 'reads by others are not reported');
  } finally {
    await engine.close();
  }
});

test.run();
