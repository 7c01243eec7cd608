import assert from 'node:assert/strict';
import { test } from 'uvu';
import { ctx, DEMO, rejects, setup } from './helpers.js';

const SPRINGBOARD = 'com.apple.springboard';

test('the virtual iPhone\'s home screen stays portrait: landscape is UNSUPPORTED naming SpringBoard and what to do, nothing changes', async () => {
  const { ios } = setup();
  assert.equal(ios.foregroundPackage, SPRINGBOARD);
  await rejects(ios.setOrientation('landscape', ctx), 'UNSUPPORTED', /com\.apple\.springboard \(the home screen\), the app in front, does not support landscape on virtual-ios-1.*Bring an app that supports landscape to the front/);
  assert.equal(await ios.getOrientation(ctx), 'portrait');
  assert.deepEqual(await ios.screenSize(ctx), { width: 1179, height: 2556 });
  const shot = await ios.screenshot(ctx);
  assert.deepEqual([shot.width, shot.height], [1179, 2556]);
  await ios.setOrientation('portrait', ctx);
});

test('an iPhone app left in landscape: the home screen shows portrait, and the app comes back in landscape', async () => {
  const { ios } = setup();
  await ios.launchApp(DEMO, ctx);
  await ios.setOrientation('landscape', ctx);
  assert.deepEqual(await ios.screenSize(ctx), { width: 2556, height: 1179 });
  await ios.pressButton('HOME', ctx);
  assert.equal(await ios.getOrientation(ctx), 'portrait');
  assert.deepEqual(await ios.screenSize(ctx), { width: 1179, height: 2556 });
  for (const e of await ios.listElements(ctx)) assert.ok(e.x + e.width <= 1179 && e.y + e.height <= 2556, `${e.text} inside the portrait home screen`);
  await ios.launchApp(DEMO, ctx);
  assert.equal(await ios.getOrientation(ctx), 'landscape');
  assert.deepEqual(await ios.screenSize(ctx), { width: 2556, height: 1179 });
});

test('the virtual Android launcher still turns', async () => {
  const { android } = setup();
  await android.setOrientation('landscape', ctx);
  assert.equal(await android.getOrientation(ctx), 'landscape');
  assert.deepEqual(await android.screenSize(ctx), { width: 2400, height: 1080 });
});

test.run();
