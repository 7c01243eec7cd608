import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { byId, ctx, DEMO, setup, signIn } from './helpers.js';

/** A streamed finger held still, then moved: the phone's own long-press timer, as the viewer's held press relies on. */

for (const platform of ['android', 'ios'] as const) {
  test(`${platform}: a finger held on a list row opens its menu while still down; dragging on then scrolls nothing and lifting taps nothing`, async () => {
    const { [platform]: device, clock } = setup();
    await signIn(device, clock);
    const item = await byId(device, 'item_3');
    const scroll = () => device.snapshot().tasks[DEMO]?.scroll.items ?? 0;
    await device.touch('down', item.center.x, item.center.y, ctx);
    clock.advance(300);
    assert.is(device.currentScreen, 'home');
    assert.is(device.dialog, undefined, 'not yet: 300 ms is shorter than a long press');
    clock.advance(300);
    // Nothing was sent since the down: the phone's timer fired on its own, as a screenshot would show.
    assert.ok((await device.listElements(ctx)).some((e) => e.type === 'dialog' && e.accessibility_label === 'Item 3'), 'the row menu is open while the finger is down');
    await device.touch('move', item.center.x, item.center.y - 250, ctx);
    await device.touch('move', item.center.x, item.center.y - 400, ctx);
    assert.is(scroll(), 0, 'the long press kept the finger: the list stayed where it was');
    await device.touch('up', item.center.x, item.center.y - 400, ctx);
    assert.is(device.dialog, 'itemMenu', 'lifting tapped nothing: the menu is still open');
    assert.is(device.currentScreen, 'home');
  });
}

test.run();
