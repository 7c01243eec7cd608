import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DEMO_PACKAGE } from '../../src/engine/drivers/virtual/index.js';
import { DeterministicResolver } from '../../src/engine/resolve/index.js';
import { realClock, runVerb, type VerbContext } from '../../src/engine/verbs/index.js';
import { hasAdb, startRig, type AndroidRig } from './setup.js';

/** What the verbs say on a real Android chain (adb server → emulated adbd): only what they saw happen. */
const test = suite<{ rig?: AndroidRig }>('verbs on Android say what they could not confirm');
test.before(async (ctx) => {
  ctx.rig = await startRig();
});
test.after(async (ctx) => {
  await ctx.rig?.stop();
});

const verbs = (rig: AndroidRig): VerbContext => ({ engine: rig.engine, device: rig.phone.serial, os: 'Android', origin: 'test', resolver: new DeterministicResolver(), clock: realClock, targetWaitMs: 500, pollMs: 50 });

test('type without a target keeps the driver\'s word that Android does not confirm a field took the keys', async ({ rig }) => {
  const ctx = verbs(rig!);
  await runVerb(ctx, { action: 'launch_app', value: DEMO_PACKAGE });
  await runVerb(ctx, { action: 'open_url', value: 'mbdemo://screen/signin' });
  // Nothing focused: the keys go nowhere a field would show them.
  const blind = await runVerb(ctx, { action: 'type', value: 'hello' });
  assert.is(blind.status, 'passed', JSON.stringify(blind));
  assert.match(blind.message ?? '', /^typed 5 characters; Android does not confirm that a text field took it/);
  assert.equal([rig!.phone.phone.fieldValue('email'), rig!.phone.phone.fieldValue('password')], ['', '']);
  // With a target the tap found the field focused: no such doubt to report.
  const aimed = await runVerb(ctx, { action: 'type', target: 'Email', value: 'ann@example.com' });
  assert.is(aimed.status, 'passed', JSON.stringify(aimed));
  assert.not.match(aimed.message ?? '', /does not confirm/);
  assert.is(rig!.phone.phone.fieldValue('email'), 'ann@example.com');
});

test('capture_value of an empty field says the read may be its placeholder (the dump shows the hint as text)', async ({ rig }) => {
  const ctx = verbs(rig!);
  await runVerb(ctx, { action: 'open_url', value: 'mbdemo://screen/signin' });
  assert.is(rig!.phone.phone.fieldValue('password'), '');
  const read = await runVerb(ctx, { action: 'capture_value', target: 'the Password field' });
  assert.is(read.status, 'passed', JSON.stringify(read));
  assert.match(read.message ?? '', /if "Password" is the placeholder the field is empty \(not confirmed\)/);
});

if (hasAdb()) test.run();
