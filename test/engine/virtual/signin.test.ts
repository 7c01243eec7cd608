import assert from 'node:assert/strict';
import { test } from 'uvu';
import type { VirtualDevice } from '../../../src/engine/drivers/virtual/index.js';
import type { Box } from '../../../src/engine/drivers/virtual/layout.js';
import type { Phone } from '../../../src/engine/drivers/virtual/phone.js';
import { byId, ctx, DEMO, has, rejects, setup, signIn, tapId } from './helpers.js';

for (const platform of ['android', 'ios'] as const) {
  test(`${platform}: sign-in flow — tap field centres, type, button enables, submit, loading ends on the clock`, async () => {
    const phones = setup();
    const { clock } = phones;
    const device = phones[platform];
    await device.launchApp(DEMO, ctx);
    assert.equal(device.currentScreen, 'signin');
    const email = await byId(device, 'email');
    assert.equal(email.type, 'edittext');
    assert.equal(email.hint, 'Email');
    assert.equal((await byId(device, 'sign_in')).enabled, false);

    await device.tap(email.center.x, email.center.y, ctx);
    assert.equal((await byId(device, 'email')).focused, true);
    assert.equal(device.keyboardVisible, true);
    assert.ok((await device.listElements(ctx)).some((e) => e.type === 'keyboard'));
    await device.typeText('demo@example.com', ctx);
    assert.equal((await byId(device, 'email')).text, 'demo@example.com');
    assert.equal((await byId(device, 'sign_in')).enabled, false);

    await tapId(device, 'password');
    await device.typeText('secret123', ctx);
    const password = await byId(device, 'password');
    assert.equal(password.text, '•••••••••', 'password is masked');
    assert.equal(device.fieldValue('password'), 'secret123');
    assert.equal(password.class, platform === 'android' ? 'android.widget.EditText' : 'XCUIElementTypeSecureTextField');
    const button = await byId(device, 'sign_in');
    assert.equal(button.enabled, true);

    await device.tap(button.center.x, button.center.y, ctx);
    assert.equal(device.currentScreen, 'loading');
    assert.equal(device.keyboardVisible, false);
    const spinner = await byId(device, 'loading_spinner');
    assert.equal(spinner.accessibility_label, 'Loading');
    clock.advance(1499);
    assert.equal(device.currentScreen, 'loading');
    clock.advance(1);
    assert.equal(device.currentScreen, 'home');
    assert.equal(await has(device, 'loading_spinner'), false);
    const title = (await device.listElements(ctx)).find((e) => e.text === 'Items');
    assert.ok(title, 'toolbar title Items');
    assert.ok(await has(device, 'item_1'));
  });

  test(`${platform}: wrong credentials show an inline error and stay on sign-in`, async () => {
    const { [platform]: device } = setup();
    await device.launchApp(DEMO, ctx);
    await tapId(device, 'email');
    await device.typeText('demo@example.com', ctx);
    await tapId(device, 'password');
    await device.typeText('wrong', ctx);
    await tapId(device, 'sign_in');
    assert.equal(device.currentScreen, 'signin');
    assert.equal((await byId(device, 'error')).text, 'Invalid email or password');
  });

  test(`${platform}: typing with no focused field fails and names the device`, async () => {
    const { [platform]: device } = setup();
    await device.launchApp(DEMO, ctx);
    await rejects(device.typeText('hello', ctx), 'INVALID_PARAMETER', device.id);
  });

  test(`${platform}: ENTER moves focus to the next field, then submits`, async () => {
    const { [platform]: device, clock } = setup();
    await device.launchApp(DEMO, ctx);
    await tapId(device, 'email');
    await device.typeText('demo@example.com', ctx);
    await device.pressButton('ENTER', ctx);
    assert.equal((await byId(device, 'password')).focused, true);
    await device.typeText('secret123\n', ctx);
    assert.equal(device.currentScreen, 'loading');
    clock.advance(2000);
    assert.equal(device.currentScreen, 'home');
  });
}

test('android: BACK first hides the keyboard, then navigates back, then goes home', async () => {
  const { android, clock } = setup();
  await signIn(android, clock);
  await tapId(android, 'action_settings');
  assert.equal(android.currentScreen, 'settings');
  await android.pressButton('BACK', ctx);
  assert.equal(android.currentScreen, 'home');

  await android.terminateApp(DEMO, ctx);
  await android.launchApp(DEMO, ctx);
  assert.equal(android.currentScreen, 'home', 'signed-in state survives terminate');
  await android.pressButton('BACK', ctx);
  assert.equal(android.foregroundPackage, 'com.google.android.apps.nexuslauncher');

  const fresh = setup().android;
  await fresh.launchApp(DEMO, ctx);
  await tapId(fresh, 'email');
  assert.equal(fresh.keyboardVisible, true);
  await fresh.pressButton('BACK', ctx);
  assert.equal(fresh.keyboardVisible, false);
  assert.equal(fresh.currentScreen, 'signin');
  assert.equal((await fresh.listElements(ctx)).some((e) => e.type === 'keyboard'), false);
});

test('ios: BACK is INVALID_PARAMETER naming iOS; the navigation bar Back button works', async () => {
  const { ios, clock } = setup();
  await signIn(ios, clock);
  await rejects(ios.pressButton('BACK', ctx), 'INVALID_PARAMETER', 'iOS');
  await tapId(ios, 'action_more');
  assert.equal(ios.currentScreen, 'more');
  await tapId(ios, 'BackButton');
  assert.equal(ios.currentScreen, 'home');
});

test('HOME goes to the launcher and the demo resumes where it was', async () => {
  const { android, ios, clock } = setup();
  for (const device of [android, ios]) {
    await signIn(device, clock);
    await tapId(device, 'action_more');
    await device.pressButton('HOME', ctx);
    assert.equal(device.foregroundPackage, device.profile.launcher);
    const icon = (await device.listElements(ctx)).find((e) => e.accessibility_label === 'MobileBridge Demo');
    assert.ok(icon, 'launcher shows the demo icon');
    await device.tap(icon.center.x, icon.center.y, ctx);
    assert.equal(device.foregroundPackage, DEMO);
    assert.equal(device.currentScreen, 'more');
  }
});

test('ios: keys need a focused field as on the iOS driver; Android delivers them anyway', async () => {
  const { android, ios } = setup();
  await ios.openUrl('mbdemo://screen/signin', ctx);
  // A newline or tab alone used to answer "typed 1 character" with nothing focused.
  for (const text of ['\n', '\t', '\nabc']) await rejects(ios.typeText(text, ctx), 'INVALID_PARAMETER', /no text field is focused on virtual-ios-1.*nothing was sent/);
  await rejects(ios.pressKey('BACKSPACE', ctx), 'INVALID_PARAMETER', 'no text field is focused');
  await tapId(ios, 'email');
  await ios.typeText('ab', ctx);
  await ios.pressKey('BACKSPACE', ctx);
  assert.equal(ios.fieldValue('email'), 'a');
  assert.equal((await byId(ios, 'email')).focused, true);
  // A tap outside the field ends editing: the keyboard goes and the field is no longer focused.
  const title = (await ios.listElements(ctx)).find((e) => e.text === 'Welcome back')!;
  await ios.tap(title.center.x, title.center.y, ctx);
  assert.equal(ios.keyboardVisible, false);
  await rejects(ios.typeText('x', ctx), 'INVALID_PARAMETER', 'no text field is focused');
  assert.equal(ios.fieldValue('email'), 'a', 'nothing typed into the field whose keyboard was closed');

  await android.openUrl('mbdemo://screen/signin', ctx);
  await android.pressKey('BACKSPACE', ctx);
  await android.typeText('\n', ctx);
  await tapId(android, 'email');
  await android.pressKey('TAB', ctx);
  assert.equal((await byId(android, 'password')).focused, true);
});

/** Centre of a key of the drawn keyboard (keys are not elements: Android's IME is another window, iOS lists few). */
function keyCentre(device: VirtualDevice, key: string): { x: number; y: number } {
  const frame = (device as unknown as { phone: Phone }).phone.frame();
  const find = (box: Box): Box | undefined =>
    box.view.kind === 'button' && box.view.style === 'key' && box.view.text === key ? box : box.children.map(find).find(Boolean);
  const box = frame.layers.map((l) => find(l.box)).find(Boolean);
  assert.ok(box?.visible, `no key ${key} on the keyboard of ${device.id}`);
  return { x: box.visible.x + Math.floor(box.visible.width / 2), y: box.visible.y + Math.floor(box.visible.height / 2) };
}

for (const platform of ['android', 'ios'] as const) {
  test(`${platform}: tapping the keys of the on-screen keyboard types into the focused field`, async () => {
    const device = setup()[platform];
    await device.openUrl('mbdemo://screen/signin', ctx);
    await tapId(device, 'email');
    // Before, every key was drawn and took the tap, yet typed nothing.
    for (const key of ['d', 'e', 'm', 'o', 'space', 'x', '⌫', '⌫', '⇧']) {
      const { x, y } = keyCentre(device, key);
      await device.tap(x, y, ctx);
    }
    assert.equal(device.fieldValue('email'), 'demo');
    if (platform === 'android') {
      const { x, y } = keyCentre(device, '⏎');
      await device.tap(x, y, ctx);
      assert.equal((await byId(device, 'password')).focused, true, '⏎ is ENTER: on to the next field');
    }
  });
}

test.run();
