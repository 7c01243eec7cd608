import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ToolError } from '../../../src/engine/errors.js';
import { byId, ctx, DEMO, setup, tapEl } from './helpers.js';

/** A hardware keyboard's Ctrl shortcuts in the virtual phones' fields (the viewer forwards Ctrl+A, C, X, Z). */

async function signInForm() {
  const s = setup();
  await s.android.launchApp(DEMO, ctx);
  const email = await byId(s.android, 'email');
  await tapEl(s.android, email);
  await s.android.typeText('old@example.com', ctx);
  return { ...s, email };
}

test('Ctrl+A selects the focused field\'s text: typing replaces it, Backspace empties it, and it is drawn highlighted', async () => {
  const { android } = await signInForm();
  const plain = android.screenSvg();
  await android.pressCtrl('A', ctx);
  assert.is(android.fieldValue('email'), 'old@example.com', 'selecting changes no text');
  assert.is.not(android.screenSvg(), plain, 'the selection is drawn');
  await android.typeText('new@example.com', ctx);
  assert.is(android.fieldValue('email'), 'new@example.com', 'typing replaced the selection');
  await android.typeText('!', ctx);
  assert.is(android.fieldValue('email'), 'new@example.com!', 'then typing appends again');
  await android.pressCtrl('A', ctx);
  await android.deleteBackward(ctx);
  assert.is(android.fieldValue('email'), '', 'Backspace deleted the whole selection');
});

test('Ctrl+X cuts to the phone\'s clipboard, Ctrl+C copies; without a selection they change nothing; a tap ends the selection', async () => {
  const { android, email } = await signInForm();
  await android.pressCtrl('C', ctx);
  assert.is(android.snapshot().clipboard, undefined, 'nothing selected: nothing copied');
  await android.pressCtrl('A', ctx);
  await android.pressCtrl('C', ctx);
  assert.is(android.snapshot().clipboard, 'old@example.com');
  assert.is(android.fieldValue('email'), 'old@example.com');
  await android.pressCtrl('X', ctx);
  assert.is(android.fieldValue('email'), '', 'cut');
  await android.typeText('typed', ctx);
  await android.pressCtrl('A', ctx);
  await tapEl(android, email);
  await android.typeText('+', ctx);
  assert.is(android.fieldValue('email'), 'typed+', 'the tap placed the cursor: typing appends, the selection is gone');
});

test('Ctrl+Z has no undo history to act on, and the virtual iPhone refuses Ctrl shortcuts as a real one through WebDriverAgent does', async () => {
  const { android, ios } = await signInForm();
  const undo = await android.pressCtrl('Z', ctx).then(() => undefined, (e: unknown) => e);
  assert.ok(undo instanceof ToolError && undo.code === 'UNSUPPORTED', String(undo));
  assert.is(android.fieldValue('email'), 'old@example.com');
  await ios.launchApp(DEMO, ctx);
  await tapEl(ios, await byId(ios, 'email'));
  const refused = await ios.pressCtrl('A', ctx).then(() => undefined, (e: unknown) => e);
  assert.ok(refused instanceof ToolError && refused.code === 'UNSUPPORTED', String(refused));
  assert.match((refused as Error).message, /no Ctrl key/);
});

test.run();
