import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createEngine } from '../../src/engine/create.js';
import { ManualClock } from '../../src/engine/drivers/virtual/index.js';
import type { Engine } from '../../src/engine/engine.js';
import type { UiElement } from '../../src/engine/types.js';
import { listElements, runVerb, verbContext, type VerbContext } from '../../src/engine/verbs/index.js';

const DEMO = 'com.mobilebridge.demo';

const test = suite<{ engine: Engine; ctx: (device: string) => Promise<VerbContext> }>('modal windows and the keyboard on the virtual phones');
test.before.each((c) => {
  const clock = new ManualClock(Date.UTC(2026, 0, 5, 9, 30));
  c.engine = createEngine({ virtual: { clock }, android: false, ios: false });
  c.ctx = (device) => verbContext({ engine: c.engine, device, targetWaitMs: 500, clock: { now: () => clock.now(), sleep: async (ms) => clock.advance(ms) } });
});
test.after.each(async (c) => {
  await c.engine.close();
});

const names = (list: UiElement[]) => list.map((e) => e.text || e.accessibility_label || '');

async function open(ctx: VerbContext, url: string): Promise<void> {
  for (const step of [{ action: 'launch_app', value: DEMO }, { action: 'open_url', value: url }]) {
    const o = await runVerb(ctx, step);
    assert.is(o.status, 'passed', o.message);
  }
}

for (const device of ['virtual-android-1', 'virtual-ios-1']) {
  test(`${device}: under a dialog or a permission prompt nothing of the app is listed, and a tap on it is ELEMENT_NOT_FOUND naming the dialog`, async ({ ctx }) => {
    const verbs = await ctx(device);
    await open(verbs, 'mbdemo://screen/more');
    assert.ok(names(await listElements(verbs)).includes('Show alert'));
    for (const [opener, title] of [['Show alert', /Reset likes\?/], ['Open camera', /Camera|take pictures/]] as const) {
      assert.is((await runVerb(verbs, { action: 'tap', target: opener })).status, 'passed');
      const listed = await listElements(verbs);
      assert.ok(listed.some((e) => e.type === 'dialog'), `${opener}: the dialog is listed`);
      assert.not.ok(names(listed).includes('Save draft'), `${opener}: the covered menu is not listed: ${names(listed).join(', ')}`);
      const covered = await runVerb(verbs, { action: 'tap', target: 'Save draft' });
      assert.is(covered.status, 'failed');
      assert.is(covered.error?.code, 'ELEMENT_NOT_FOUND');
      assert.match(covered.message, /a dialog ".*" covers the app/);
      assert.match(covered.message, title);
      const close = await runVerb(verbs, opener === 'Open camera' ? { action: 'deny_permission' } : { action: 'tap', target: 'Cancel' });
      assert.is(close.status, 'passed', close.message);
      assert.ok(names(await listElements(verbs)).includes('Save draft'), 'the menu is back once the dialog is closed');
    }
  });
}

test('virtual iOS: dismiss_keyboard closes the keyboard like a user (Done key or a tap outside), never by pressing ENTER into the form', async ({ ctx, engine }) => {
  const verbs = await ctx('virtual-ios-1');
  await open(verbs, 'mbdemo://screen/signin');
  const pressed: string[] = [];
  engine.onCall((e) => {
    if (e.tool === 'mobile_press_button') pressed.push(String((e.parameters as { button: string }).button));
  });
  // The Email field's return key is "Next" (ENTER would move on to the password): a tap outside ends editing.
  assert.is((await runVerb(verbs, { action: 'tap', target: 'the Email field' })).status, 'passed');
  const keys = (await listElements(verbs)).filter((e) => e.type === 'button' && /^(Next|Go|Done)$/.test(e.accessibility_label ?? ''));
  assert.equal(keys.map((k) => k.accessibility_label), ['Next']);
  const first = await runVerb(verbs, { action: 'dismiss_keyboard' });
  assert.is(first.status, 'passed', first.message);
  assert.match(first.message, /a tap outside the field/);
  assert.not.ok((await listElements(verbs)).some((e) => e.type === 'keyboard'));
  assert.equal(pressed, []);
  // Still on the sign-in screen with nothing submitted.
  assert.ok(names(await listElements(verbs)).includes('Forgot password?'));
  assert.is((await runVerb(verbs, { action: 'tap', target: 'the Password field' })).status, 'passed');
  assert.is((await runVerb(verbs, { action: 'dismiss_keyboard' })).status, 'passed');
  assert.ok(names(await listElements(verbs)).includes('Forgot password?'), 'the form was not submitted');
  assert.equal(pressed, []);
});

test('virtual Android: the keyboard is named when a target is not found, not when a description fits two elements', async ({ ctx }) => {
  const verbs = await ctx('virtual-android-1');
  await open(verbs, 'mbdemo://screen/signin');
  assert.is((await runVerb(verbs, { action: 'tap', target: 'the Email field' })).status, 'passed');
  assert.ok((await listElements(verbs)).some((e) => e.type === 'keyboard'), 'the keyboard shows');
  const missing = await runVerb(verbs, { action: 'type', target: 'the Nickname field', value: 'x' });
  assert.is(missing.error?.code, 'ELEMENT_NOT_FOUND');
  assert.match(missing.message, /the keyboard is showing and may hide it: dismiss_keyboard first/);
  const ambiguous = await runVerb(verbs, { action: 'type', target: 'the text field', value: 'x' });
  assert.is(ambiguous.error?.code, 'ELEMENT_NOT_FOUND');
  assert.match(ambiguous.message, /is ambiguous/);
  assert.not.match(ambiguous.message, /keyboard/);
});

test.run();
