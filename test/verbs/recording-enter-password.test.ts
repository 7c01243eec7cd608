import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { AgentSession } from '../../src/engine/agent/agent-session.js';
import { createEngine } from '../../src/engine/create.js';
import type { Engine } from '../../src/engine/engine.js';
import type { UiElement } from '../../src/engine/types.js';
import { Recorder } from '../../src/engine/verbs/recording.js';
import type { VerbOutcome } from '../../src/engine/verbs/types.js';

/**
 * The demo's sign-in form (like most) moves the focus from Email to Password on ENTER. After any
 * ENTER (a press_button step, a submit, a newline inside typed text, a viewer's Enter key) the
 * recorder does not know where the focus is: the next untargeted typing while a password field is
 * on screen is a secret, and what a typed text holds after a newline is judged on its own.
 */

const A = 'virtual-android-1';
const DEMO = 'com.mobilebridge.demo';
const EMAIL = 'ada@example.com';
const SECRET = 'Sekr3t-enter-Zq';

type Doc = { steps: { action: string; target?: string; value?: string }[]; parameters?: Record<string, { secret?: boolean }> };

function raw(engine: Engine, origin: string, tool: string, parameters: Record<string, unknown> = {}): Promise<unknown> {
  return engine.call(tool, { device: A, ...parameters }, { origin });
}

async function tapEmail(engine: Engine, origin: string): Promise<void> {
  const { elements } = (await raw(engine, origin, 'mobile_list_elements_on_screen')) as { elements: UiElement[] };
  const field = elements.find((e) => e.id === 'email');
  assert.ok(field, 'the sign-in screen shows the email field');
  await raw(engine, origin, 'mobile_click_on_screen_at_coordinates', { x: field!.center!.x, y: field!.center!.y });
}

/** Records the sign-in screen with `act`, stops, and checks the password is a secret parameter, not in clear. */
async function recordSignIn(name: string, act: (s: AgentSession, engine: Engine, origin: string) => Promise<void>): Promise<void> {
  const engine = createEngine({ virtual: {}, android: false, ios: false });
  const origin = `rec-${name}`;
  const session = new AgentSession(engine, origin);
  try {
    await session.startRecording({ device: A, name, app_package: DEMO });
    assert.is((await session.run(A, { action: 'open_url', value: 'mbdemo://screen/signin' })).status, 'passed');
    await act(session, engine, origin);
    // The typing did go into the password field (the demo's ENTER moved the focus there).
    const { elements } = (await raw(engine, 'checker', 'mobile_list_elements_on_screen')) as { elements: UiElement[] };
    assert.is(elements.find((e) => e.id === 'password')?.text.length, SECRET.length, `${name}: the password field holds what was typed`);
    const stopped = await session.stopRecording(A);
    const doc = stopped.scenario as Doc;
    const text = JSON.stringify(doc);
    assert.not.ok(text.includes(SECRET) || text.toLowerCase().includes(SECRET.toLowerCase()) || text.includes('sekr3t'), `${name}: no password in clear: ${JSON.stringify(doc.steps)}`);
    const typed = doc.steps.filter((s) => s.action === 'type').map((s) => s.value);
    assert.ok(typed.some((v) => v?.startsWith('${PASSWORD}')), `${name}: the password is typed as \${PASSWORD}: ${JSON.stringify(typed)}`);
    assert.ok(typed.some((v) => v?.startsWith(EMAIL)), `${name}: the email stays as typed: ${JSON.stringify(typed)}`);
    assert.is(doc.parameters?.PASSWORD?.secret, true, `${name}: declared secret`);
    assert.ok(stopped.validation.valid, JSON.stringify(stopped.validation.errors));
  } finally {
    session.close();
    await engine.close();
  }
}

test('a press_button ENTER step after typing the email: the next untargeted typing is the secret', async () => {
  await recordSignIn('verb enter', async (s) => {
    assert.is((await s.run(A, { action: 'type', target: 'Email', value: EMAIL })).status, 'passed');
    assert.is((await s.run(A, { action: 'press_button', value: 'ENTER' })).status, 'passed');
    assert.is((await s.run(A, { action: 'type', value: SECRET })).status, 'passed');
  });
});

test('one typed text with a newline inside: what follows the newline is judged on its own', async () => {
  await recordSignIn('verb newline', async (s) => {
    assert.is((await s.run(A, { action: 'type', target: 'Email', value: `${EMAIL}\n${SECRET}` })).status, 'passed');
  });
});

test('raw tools: a submit, then untargeted keys', async () => {
  await recordSignIn('raw submit', async (_s, engine, origin) => {
    await tapEmail(engine, origin);
    await raw(engine, origin, 'mobile_type_keys', { text: EMAIL, submit: true });
    await raw(engine, origin, 'mobile_type_keys', { text: SECRET });
  });
});

test('raw tools: mobile_press_button ENTER, then untargeted keys', async () => {
  await recordSignIn('raw enter', async (_s, engine, origin) => {
    await tapEmail(engine, origin);
    await raw(engine, origin, 'mobile_type_keys', { text: EMAIL });
    await raw(engine, origin, 'mobile_press_button', { button: 'ENTER' });
    await raw(engine, origin, 'mobile_type_keys', { text: SECRET });
  });
});

test("the viewer's Enter key (input.key), then untargeted keys", async () => {
  await recordSignIn('viewer enter', async (_s, engine, origin) => {
    await tapEmail(engine, origin);
    await raw(engine, origin, 'mobile_type_keys', { text: EMAIL });
    assert.is((await engine.pressKey(A, 'ENTER', { origin })).status, 'success');
    await raw(engine, origin, 'mobile_type_keys', { text: SECRET });
  });
});

test('raw tools: one mobile_type_keys with a newline inside', async () => {
  await recordSignIn('raw newline', async (_s, engine, origin) => {
    await tapEmail(engine, origin);
    await raw(engine, origin, 'mobile_type_keys', { text: `${EMAIL}\n${SECRET}` });
  });
});

const passed = (action: string, resolved: VerbOutcome['resolved'] = null): VerbOutcome => ({ status: 'passed', action, resolved, duration_ms: 1, message: '' });
const field = (id: string, password = false): UiElement => ({
  id, text: '', type: 'edittext', accessibility_label: null, hint: id, x: 0, y: id === 'email' ? 100 : 200, width: 100, height: 50, visible: true, enabled: true, center: { x: 50, y: id === 'email' ? 125 : 225 }, ...(password ? { password: true } : {}),
});

test('Recorder: a newline-split text keeps the email and its ENTER in one step, the rest a secret, and later steps after ENTER stay secret', () => {
  const r = new Recorder({ device: A, os: 'Android', name: 'unit', appPackage: DEMO });
  r.noteVerb({ action: 'launch_app', value: DEMO }, passed('launch_app'));
  r.noteFields([field('email'), field('password', true)]);
  const email = { id: 'email', text: '', label: null, type: 'edittext', center: { x: 50, y: 125 }, confidence: 1 };
  r.noteVerb({ action: 'type', target: 'Email', value: `${EMAIL}\n${SECRET}\nmore-${SECRET}` }, passed('type', email));
  const doc = r.toScenario() as Doc;
  assert.equal(doc.steps.map((s) => [s.target, s.value]), [[undefined, undefined], ['Email', `${EMAIL}\n`], [undefined, '${PASSWORD}\n'], [undefined, '${PASSWORD_2}']]);
  assert.not.ok(JSON.stringify(doc).includes(SECRET));
});

test('Recorder: a tap on a button does not say the focus left the password field', () => {
  const r = new Recorder({ device: A, os: 'Android', name: 'unit', appPackage: DEMO });
  r.noteVerb({ action: 'launch_app', value: DEMO }, passed('launch_app'));
  r.noteFields([field('email'), field('password', true)]);
  const password = { id: 'password', text: '', label: null, type: 'edittext', center: { x: 50, y: 225 }, confidence: 1, password: true };
  r.noteVerb({ action: 'tap', target: 'Password' }, passed('tap', password));
  r.noteVerb({ action: 'tap', target: 'Show password' }, passed('tap', { id: 'eye', text: 'Show password', label: null, type: 'button', center: { x: 90, y: 225 }, confidence: 1 }));
  r.noteVerb({ action: 'type', value: SECRET }, passed('type'));
  assert.not.ok(JSON.stringify(r.toScenario()).includes(SECRET));
});

test.run();
