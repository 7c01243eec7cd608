import assert from 'node:assert/strict';
import { test } from 'uvu';
import { byId, byText, ctx, DEMO, has, rejects, setup, signIn, tapEl, tapId } from './helpers.js';

const itemIds = async (device: Parameters<typeof has>[0]) =>
  (await device.listElements(ctx)).map((e) => e.resource_id ?? '').filter((id) => /item_\d+$/.test(id)).map((id) => Number(id.split('_').pop()));

for (const platform of ['android', 'ios'] as const) {
  test(`${platform}: swipe up scrolls the list; off-screen items are not listed; ids stay stable`, async () => {
    const { [platform]: device, clock } = setup();
    await signIn(device, clock);
    const before = await itemIds(device);
    assert.ok(before.length > 5 && before.length < 30, `partial list on screen: ${before}`);
    assert.equal(before[0], 1);
    assert.equal((await byId(device, 'items')).scrollable, true);
    const { width, height } = await device.screenSize(ctx);
    const item8 = await byId(device, 'item_8');
    await device.swipe(width / 2, height * 0.7, width / 2, height * 0.3, 300, ctx);
    const after = await itemIds(device);
    assert.ok(after[0] > 1, `first item moved off: ${after}`);
    assert.ok(Math.max(...after) > Math.max(...before), 'new items revealed below');
    assert.equal(await has(device, 'item_1'), false, 'item_1 scrolled off and is not listed');
    const moved = await byId(device, `item_${after[2]}`);
    assert.equal(moved.id, `item_${after[2]}`);
    // The same item keeps its id and moves up by the swipe distance (bounds are clipped to the list).
    const list = await byId(device, 'items');
    const item8Again = (await device.listElements(ctx)).find((e) => e.id === 'item_8');
    const expectedTop = item8.y - Math.round(height * 0.4);
    if (expectedTop >= list.y) assert.equal(item8Again?.y, expectedTop);
    else if (item8Again) assert.equal(item8Again.y, list.y, 'partly scrolled-off item is clipped at the list top');

    for (let i = 0; i < 20; i++) await device.swipe(width / 2, height * 0.8, width / 2, height * 0.2, 300, ctx);
    assert.ok((await itemIds(device)).includes(60), 'scrolls to the end');
    await device.swipe(width / 2, height * 0.3, width / 2, height * 0.9, 300, ctx);
    assert.ok(!(await itemIds(device)).includes(60), 'swipe down scrolls back');
  });

  test(`${platform}: tap opens detail, double tap toggles liked, like button shows a toast that expires`, async () => {
    const { [platform]: device, clock } = setup();
    await signIn(device, clock);
    await tapId(device, 'item_3');
    assert.equal(device.currentScreen, 'detail');
    assert.ok((await device.listElements(ctx)).some((e) => e.text === 'Item 3'));
    assert.equal((await byId(device, 'like_state')).text, 'Not liked yet');
    const image = await byId(device, 'detail_image');
    await device.doubleTap(image.center.x, image.center.y, ctx);
    assert.equal((await byId(device, 'like_state')).text, '♥ Liked');
    await tapId(device, 'like_button');
    assert.equal((await byId(device, 'like_state')).text, 'Not liked yet');
    assert.equal(device.visibleToast, 'Removed from favourites');
    assert.ok((await device.listElements(ctx)).some((e) => e.text === 'Removed from favourites'));
    clock.advance(2500);
    assert.equal(device.visibleToast, undefined);
    assert.equal((await device.listElements(ctx)).some((e) => e.text === 'Removed from favourites'), false);
    assert.equal(device.toasts.at(-1)?.text, 'Removed from favourites', 'toast log keeps it');
  });

  test(`${platform}: long press on a list item opens a context menu; taps outside do not pass through`, async () => {
    const { [platform]: device, clock } = setup();
    await signIn(device, clock);
    const item = await byId(device, 'item_2');
    await device.longPress(item.center.x, item.center.y, 800, ctx);
    assert.equal(device.dialog, 'itemMenu');
    const dialog = (await device.listElements(ctx)).find((e) => e.type === 'dialog');
    assert.ok(dialog && dialog.accessibility_label === 'Item 2');
    // A list item lies under the scrim at the bottom: the tap must not open it.
    const { height } = await device.screenSize(ctx);
    await device.tap(item.center.x, height - 300, ctx);
    assert.equal(device.currentScreen, 'home');
    assert.equal(device.dialog, undefined, 'outside tap dismisses the menu');
    await device.longPress(item.center.x, item.center.y, 800, ctx);
    await tapId(device, 'menu_delete');
    assert.equal(await has(device, 'item_2'), false);
    assert.equal(device.visibleToast, 'Item 2 deleted');
  });

  test(`${platform}: alert dialog blocks the screen until answered`, async () => {
    const { [platform]: device, clock } = setup();
    await signIn(device, clock);
    await tapId(device, 'action_more');
    const camera = await byId(device, 'open_camera');
    await tapId(device, 'show_alert');
    assert.equal(device.dialog, 'alert');
    assert.ok((await device.listElements(ctx)).some((e) => e.text === 'Reset likes?'));
    assert.equal(await has(device, 'save_draft'), false, 'a dump shows the modal window only, not the content under it');
    // A tap outside the dialog dismisses it without reaching the button underneath.
    await tapEl(device, camera);
    assert.equal(device.dialog, undefined);
    assert.equal(device.currentScreen, 'more');
    await tapId(device, 'show_alert');
    await tapId(device, 'alert_confirm');
    assert.equal(device.dialog, undefined);
    assert.equal(device.visibleToast, 'Likes reset');
  });

  test(`${platform}: camera permission dialog — deny, then allow`, async () => {
    const { [platform]: device, clock } = setup();
    await signIn(device, clock);
    await tapId(device, 'action_more');
    await tapId(device, 'open_camera');
    assert.equal(device.dialog, 'permission');
    const deny = platform === 'ios' ? 'Don’t Allow' : "Don't allow";
    const denyButton = await byText(device, deny);
    assert.equal(denyButton.package, platform === 'ios' ? 'com.apple.springboard' : 'com.google.android.permissioncontroller');
    await tapEl(device, denyButton);
    assert.equal(device.currentScreen, 'more');
    assert.equal(device.visibleToast, 'Camera permission denied');
    await tapId(device, 'open_camera');
    await tapEl(device, await byText(device, 'Allow'));
    assert.equal(device.currentScreen, 'camera');
    await tapId(device, 'shutter');
    assert.equal(device.visibleToast, 'Photo saved');
  });

  test(`${platform}: deep links open screens; unknown schemes and screens are INVALID_PARAMETER`, async () => {
    const { [platform]: device } = setup();
    await device.openUrl('mbdemo://screen/error', ctx);
    assert.equal(device.foregroundPackage, DEMO);
    assert.equal((await byId(device, 'error_title')).text, 'Something went wrong');
    assert.ok(await has(device, 'retry'));
    await device.openUrl('mbdemo://screen/inbox', ctx);
    assert.equal((await byId(device, 'empty_title')).text, 'No messages yet');
    await device.openUrl('mbdemo://item/42', ctx);
    assert.equal(device.currentScreen, 'detail');
    assert.ok((await device.listElements(ctx)).some((e) => e.text === 'Item 42'));
    await device.openUrl('mbdemo://screen/alert', ctx);
    assert.equal(device.dialog, 'alert');
    await rejects(device.openUrl('mbdemo://screen/nowhere', ctx), 'INVALID_PARAMETER', 'mbdemo://screen/');
    await rejects(device.openUrl('ftp://example.com/file', ctx), 'INVALID_PARAMETER', 'ftp:');
    await rejects(device.openUrl('not a url', ctx), 'INVALID_PARAMETER');
  });

  test(`${platform}: a link to an item the app does not have shows "Item not found", says so, and goes back to the list`, async () => {
    const { [platform]: device } = setup();
    for (const url of ['mbdemo://item/999', 'mbdemo://item/0', 'mbdemo://screen/detail?item=61', 'mbdemo://screen/detail?item=abc']) {
      const landed = await device.openUrl(url, ctx);
      assert.equal(device.currentScreen, 'missing', url);
      assert.match(String(landed), /^the demo app has no item (\d+|"abc") \(items 1–60\), so it shows "Item not found"$/, url);
      assert.equal((await byId(device, 'not_found_title')).text, 'Item not found');
      assert.ok(!(await device.listElements(ctx)).some((e) => /^Item (999|0|61)$/.test(e.text)), `${url} shows no such item`);
    }
    assert.equal((await byId(device, 'not_found_message')).text, 'This item does not exist.');
    await tapId(device, 'back_to_items');
    assert.equal(device.currentScreen, 'home');
    // An item that existed and was deleted is gone for links too; one that exists opens with nothing to say.
    const item = await byId(device, 'item_1');
    await device.longPress(item.center.x, item.center.y, 800, ctx);
    await tapId(device, 'menu_delete');
    assert.equal(await device.openUrl('mbdemo://item/1', ctx), 'item 1 was deleted, so it shows "Item not found"');
    assert.equal((await byId(device, 'not_found_message')).text, 'Item 1 does not exist or was deleted.');
    assert.equal(await device.openUrl('mbdemo://item/60', ctx), undefined);
    assert.equal(device.currentScreen, 'detail');
    assert.equal((await byId(device, 'detail_title')).text, 'Item 60');
  });

  test(`${platform}: open_url shows the page in the browser's address bar`, async () => {
    const { [platform]: device } = setup();
    await device.openUrl('https://www.example.com/path?q=1', ctx);
    assert.equal(device.foregroundPackage, device.profile.browser);
    const bar = await byId(device, platform === 'android' ? 'url_bar' : 'URL');
    assert.equal(bar.text, 'https://www.example.com/path?q=1');
    assert.equal((await byId(device, 'page_title')).text, 'example.com');
    // Typing a new address and ENTER navigates.
    await tapEl(device, bar);
    await device.typeText('mobilebridge.dev', ctx);
    await device.pressButton('ENTER', ctx);
    assert.equal((await byId(device, 'page_title')).text, 'mobilebridge.dev');
  });

  test(`${platform}: dark mode switch flips the system theme`, async () => {
    const { [platform]: device, clock } = setup();
    await signIn(device, clock);
    await tapId(device, 'action_settings');
    const toggle = await byId(device, 'dark_mode_switch');
    assert.equal(toggle.type, 'switch');
    assert.equal(toggle.checked, false);
    await tapEl(device, toggle);
    assert.equal(device.darkMode, true);
    assert.equal((await byId(device, 'dark_mode_switch')).checked, true);
  });
}

test('android: error screen retries into the list when Wi-Fi is on, and back to the error when off', async () => {
  const { android, clock } = setup();
  await android.setWifi(false, ctx);
  await android.openUrl('mbdemo://screen/error', ctx);
  await tapId(android, 'retry');
  assert.equal(android.currentScreen, 'loading');
  clock.advance(1500);
  assert.equal(android.currentScreen, 'error');
  await android.setWifi(true, ctx);
  await tapId(android, 'retry');
  clock.advance(1500);
  assert.equal(android.currentScreen, 'home');
});

test('swipe outside a scrollable area and taps on disabled buttons change nothing', async () => {
  const { android } = setup();
  await android.launchApp(DEMO, ctx);
  const before = JSON.stringify(android.snapshot());
  await tapId(android, 'sign_in');
  await android.swipe(540, 150, 540, 100, 200, ctx);
  assert.equal(JSON.stringify(android.snapshot()), before);
});

test('iOS edge swipe from the left goes back', async () => {
  const { ios, clock } = setup();
  await signIn(ios, clock);
  await tapId(ios, 'item_1');
  const { width, height } = await ios.screenSize(ctx);
  await ios.swipe(10, height / 2, width * 0.8, height / 2, 300, ctx);
  assert.equal(ios.currentScreen, 'home');
});

test.run();
