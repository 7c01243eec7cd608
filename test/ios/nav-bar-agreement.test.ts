import { test } from 'uvu';
import * as assert from 'uvu/assert';

import { createEngine } from '../../src/engine/create.js';
import type { Engine } from '../../src/engine/engine.js';
import type { UiElement } from '../../src/engine/types.js';
import { runVerb, verbContext } from '../../src/engine/verbs/index.js';
import { makeRig, SIM_UDID } from './rig.js';

/**
 * The iOS driver drops a NavigationBar as a plain container (wda-source.ts), while virtual-ios-1
 * listed it labelled with the screen's title: `tap "Search"` was ambiguous on the virtual iPhone
 * and not on a real one, and counts differed. Both now list the same elements for the same screen.
 */

const SEARCH = 'mbdemo://screen/search';
const named = (list: UiElement[]) => list.filter((e) => e.text === 'Search' || e.accessibility_label === 'Search').map((e) => `${e.type} ${e.class ?? ''}`);

async function lookAndTap(engine: Engine, device: string): Promise<{ listing: UiElement[]; tap: { status: string; message: string } }> {
  const ctx = await verbContext({ engine, device, targetWaitMs: 0 });
  const opened = await runVerb(ctx, { action: 'open_url', value: SEARCH });
  assert.is(opened.status, 'passed', opened.message);
  const { elements } = (await engine.call('mobile_list_elements_on_screen', { device })) as { elements: UiElement[] };
  const tap = await runVerb(ctx, { action: 'tap', target: 'Search' });
  return { listing: elements, tap };
}

test('the search screen: virtual-ios-1 and an iPhone behind WebDriverAgent list no navigation bar, and tap "Search" takes the title on both', async () => {
  const rig = await makeRig();
  const virtual = createEngine({ virtual: {}, android: false, ios: false });
  try {
    const real = await lookAndTap(rig.engine, SIM_UDID);
    const virt = await lookAndTap(virtual, 'virtual-ios-1');
    assert.not.ok(virt.listing.some((e) => /NavigationBar/.test(e.class ?? '')), JSON.stringify(virt.listing.filter((e) => /NavigationBar/.test(e.class ?? ''))));
    assert.equal(named(virt.listing), named(real.listing));
    assert.is(virt.listing.length, real.listing.length, 'the same number of elements');
    assert.is(real.tap.status, 'passed', real.tap.message);
    assert.is(virt.tap.status, 'passed', virt.tap.message);
  } finally {
    await virtual.close();
    await rig.close();
  }
});

test.run();
