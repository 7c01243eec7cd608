import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { VirtualDriver } from '../../src/engine/drivers/virtual/index.js';
import { Engine } from '../../src/engine/engine.js';

/**
 * mobile_scroll_to_element not finding its element says, as the scroll_to verb does, how many
 * scrolls went each way, whether the list stopped moving there and what showed at that end.
 */

test('a miss on a list of 60 says each way: to its bottom, at "Item 60", then back to its top, at "Item 1"', async () => {
  const engine = new Engine({ drivers: [new VirtualDriver()] });
  try {
    const opened = (await engine.call('mobile_open_url', { device: 'virtual-android-1', url: 'mbdemo://screen/home' })) as { status: string };
    assert.is(opened.status, 'success');
    const r = (await engine.call('mobile_scroll_to_element', { device: 'virtual-android-1', element: 'item_999' })) as { code: string; message: string };
    assert.is(r.code, 'ELEMENT_NOT_FOUND', r.message);
    assert.match(r.message, /did not appear on virtual-android-1: \d+ scrolls towards content below until the list stopped moving at its bottom, at "Item 60", then \d+ scrolls towards content above until the list stopped moving at its top, at "Item 1"; list elements again/);
    assert.not.match(r.message, 'both directions');
  } finally {
    await engine.close();
  }
});

test.run();
