import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createEngine } from '../../src/engine/create.js';
import { listElements, runVerb, verbContext } from '../../src/engine/verbs/index.js';
import { typedMessage } from '../../src/engine/verbs/typed-message.js';

/**
 * Audit: type_text {target: "Email", text: "x\ny"} answered "typed 3 characters into "email"",
 * while ENTER had moved the focus and "y" was in the password field. A type step says what went
 * into its field, that ENTER was pressed, and that the rest went to the field focused then.
 */

const DEMO = 'com.mobilebridge.demo';

for (const device of ['virtual-android-1', 'virtual-ios-1']) {
  test(`${device}: text after a newline is not claimed for the target field; the field focused now is named`, async () => {
    const engine = createEngine({ virtual: {}, android: false, ios: false });
    try {
      const ctx = await verbContext({ engine, device, targetWaitMs: 0 });
      for (const step of [{ action: 'launch_app', value: DEMO }, { action: 'open_url', value: 'mbdemo://screen/signin' }]) {
        assert.is((await runVerb(ctx, step)).status, 'passed');
      }
      const o = await runVerb(ctx, { action: 'type', target: 'the Email field', value: 'x\ny' });
      assert.is(o.status, 'passed', o.message);
      assert.is(
        o.message,
        'typed 1 character into "email", pressed ENTER, then typed 1 character; ENTER may move the focus, so the text after it went to whichever field had the focus then, not necessarily "email"; the field focused now is "password"',
      );
      // What the message says is what the screen shows: "y" is not in the Email field.
      const fields = (await listElements(ctx)).filter((e) => e.type === 'edittext');
      assert.is(fields.find((e) => e.id === 'email')?.text, 'x');
      assert.ok(fields.find((e) => e.id === 'password')?.focused, 'the password field has the focus');

      const submit = await runVerb(ctx, { action: 'type', target: 'the Email field', value: 'z\n' });
      assert.equal([submit.status, submit.message], ['passed', 'typed 1 character into "email", then pressed ENTER']);
    } finally {
      await engine.close();
    }
  });
}

test('the account of each shape of text', () => {
  const email = '"email"';
  assert.is(typedMessage('abc', email), 'typed 3 characters into "email"');
  assert.is(typedMessage('abc', undefined), 'typed 3 characters');
  assert.is(typedMessage('\n', email), 'pressed ENTER in "email"');
  assert.is(typedMessage('ab\n\n', email), 'typed 2 characters into "email", pressed ENTER, then pressed ENTER 1 more time');
  const tail = '; ENTER may move the focus, so the text after it went to whichever field had the focus then';
  assert.is(typedMessage('a\nbc\nd', email, null), `typed 1 character into "email", pressed ENTER, then typed 3 characters and pressed ENTER 1 more time${tail}, not necessarily "email"; no field has the focus now`);
  assert.is(typedMessage('\nb', email, '"password"'), `pressed ENTER in "email", then typed 1 character${tail}, not necessarily "email"; the field focused now is "password"`);
  // Not looked at (the listing failed), and no target: nothing claimed either way.
  assert.is(typedMessage('a\nb', undefined), `typed 1 character, pressed ENTER, then typed 1 character${tail}`);
});

test.run();
