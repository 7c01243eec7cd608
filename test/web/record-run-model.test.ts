import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { CallEvent } from '../../src/engine/engine.js';
import type { UiElement } from '../../src/engine/types.js';
import { Recorder } from '../../src/engine/verbs/recording.js';
import { translateRawCall } from '../../src/engine/verbs/recording-tools.js';
import type { VerbOutcome, VerbStep } from '../../src/engine/verbs/types.js';
import { orphanText, recordedFileName, stoppedSummary, waitingText } from '../../web/src/recording-model.js';
import { asResult, screenshotUrl, verdictLine } from '../../web/src/run-model.js';

test('screenshotUrl: the step file of that run, either slash, with the page token when there is one', () => {
  assert.is(screenshotUrl('run_1', 'screenshots/login/run_1/tap_email.png', ''), '/api/runs/run_1/screenshots/tap_email.png');
  assert.is(screenshotUrl('run_1', 'screenshots\\login\\run_1\\flow.type.png', '?device=x&token=a%20b'), '/api/runs/run_1/screenshots/flow.type.png?token=a%20b');
});

test('asResult and verdictLine: a result document in one line; an envelope or failure is no result', () => {
  const doc = asResult({ run_id: 'run_1', status: 'failed', steps_executed: [{}, {}], total_assertions: 3, passed_assertions: 1, skipped_assertions: 1, duration_seconds: 4.06 });
  assert.ok(doc);
  assert.is(verdictLine(doc!), 'failed — 2 steps, 1 of 3 assertions passed, 1 skipped, 4.1 s');
  assert.is(verdictLine({ run_id: 'r', status: 'passed', steps_executed: [{ step_id: 'a', action: 'tap', status: 'passed' }] }), 'passed — 1 step');
  assert.is(asResult({ ok: false, data: { errors: [] } }), undefined);
  assert.is(asResult({ status: 'error', code: 'PERMISSION_DENIED', message: 'locked' }), undefined);
});

test('stoppedSummary: what was recorded, the validator, how to give the secret at replay; never a value', () => {
  const lines = stoppedSummary({
    scenario: { scenario_id: 'sign_in', parameters: { PASSWORD: { secret: true } } },
    validation: { valid: true, errors: [] },
    summary: { device: 'virtual-android-1', name: 'Sign in', steps: 6, assertions: 0, skipped: ['mobile_set_orientation: no scenario step does this'] },
  });
  assert.equal(lines.map((l) => l.kind), ['ok', 'ok', 'hint', 'hint']);
  assert.match(lines[0]!.text, '6 steps recorded on virtual-android-1');
  assert.match(lines[2]!.text, 'mobilebridge run sign_in.json --param PASSWORD=…');
  assert.match(lines[3]!.text, 'Not recorded: mobile_set_orientation');
  assert.is(recordedFileName({ scenario_id: '../etc/passwd' }), 'recording.json');
});

const passed = (step: VerbStep, password = false): VerbOutcome => ({
  status: 'passed',
  action: step.action,
  resolved: step.target ? { id: step.target, text: password ? '' : step.target, label: null, type: 'edittext', center: { x: 1, y: 1 }, confidence: 1, ...(password ? { password: true } : {}) } : null,
  duration_ms: 1,
  message: '',
});

function recorder(): Recorder {
  return new Recorder({ device: 'd', os: 'Android', name: 'typing', appPackage: 'com.example.app' });
}

function note(r: Recorder, step: VerbStep, password = false): string[] {
  return r.noteVerb(step, passed(step, password));
}

test('Recorder: key batches into one field are one step; a password field is one secret however many batches', () => {
  const r = recorder();
  note(r, { action: 'tap', target: 'Email' });
  for (const value of ['d', 'emo@', 'example.com']) note(r, { action: 'type', value });
  note(r, { action: 'tap', target: 'Password' }, true);
  for (const value of ['s', 'ecret']) note(r, { action: 'type', value });
  note(r, { action: 'type', value: '123\n' });
  note(r, { action: 'type', value: 'more' });
  const doc = r.toScenario() as { steps: { id: string; action: string; value?: string }[]; parameters: Record<string, unknown> };
  assert.equal(doc.steps.map((s) => [s.id, s.value]), [
    ['tap_email', undefined],
    ['type_demo_example_com', 'demo@example.com'],
    ['tap_password', undefined],
    ['type_password', '${PASSWORD}\n'],
    ['type_password_2', '${PASSWORD_2}'],
  ]);
  assert.equal(Object.keys(doc.parameters), ['PASSWORD', 'PASSWORD_2'], 'typing after a submit is new typing');
});

test('Recorder: typing after another action or a recorded check is a new step', () => {
  const r = recorder();
  note(r, { action: 'tap', target: 'Search' });
  note(r, { action: 'type', value: 'shoes' });
  note(r, { action: 'press_button', value: 'ENTER' });
  note(r, { action: 'type', value: 'red' });
  assert.ok(r.noteAssertion({ type: 'text_contains', expected_substring: 'red' }, true).id);
  note(r, { action: 'type', value: ' ones' });
  const doc = r.toScenario() as { steps: { action: string; value?: string }[]; assertions: { after_step: string }[] };
  assert.equal(doc.steps.map((s) => s.value ?? s.action), ['tap', 'shoes', 'ENTER', 'red', ' ones']);
  assert.is(doc.assertions[0]!.after_step, 'type_red', 'the check still follows the text it saw');
  // A restored recording (after a bridge restart) goes on the same way.
  const again = Recorder.restore(JSON.parse(JSON.stringify(r.snapshot())));
  again.noteVerb({ action: 'type', value: '!' }, passed({ action: 'type', value: '!' }));
  assert.equal((again.toScenario() as { steps: { value?: string }[] }).steps.at(-1)!.value, ' ones!');
});

test('Recorder: Backspace right after typing takes the last character back; all of it drops the step; a secret stays', () => {
  const r = recorder();
  note(r, { action: 'tap', target: 'Email' });
  note(r, { action: 'type', value: 'ab' });
  assert.ok(r.eraseTyped());
  note(r, { action: 'type', value: 'c' });
  note(r, { action: 'tap', target: 'Name' });
  note(r, { action: 'type', value: 'x' });
  assert.ok(r.eraseTyped());
  assert.not.ok(r.eraseTyped(), 'nothing typed is open any more');
  note(r, { action: 'tap', target: 'Password' }, true);
  note(r, { action: 'type', value: 'pw' });
  assert.ok(r.eraseTyped());
  const doc = r.toScenario() as { steps: { id: string; action: string; target?: string; value?: string }[] };
  assert.equal(doc.steps.map((s) => [s.id, s.target ?? s.value]), [['tap_email', 'Email'], ['type_ac', 'ac'], ['tap_name', 'Name'], ['tap_password', 'Password'], ['type_password', '${PASSWORD}']]);
});

function event(tool: string, parameters: Record<string, unknown>, ok = true): CallEvent {
  return { device: 'd', tool, parameters: { device: 'd', ...parameters }, result: {}, ok, mutates: true, origin: 's', durationMs: 5 };
}

test('translateRawCall: a viewer drag (input.touch) is a swipe, a left-edge drag Back, a still one a tap; keys', () => {
  const listing: UiElement[] = [{ id: 'ok', text: 'OK', type: 'button', accessibility_label: null, x: 0, y: 0, width: 100, height: 50, visible: true, enabled: true, center: { x: 50, y: 25 } }];
  const step = (e: CallEvent) => {
    const t = translateRawCall(e, listing);
    return t && 'step' in t ? [t.step.action, t.step.target ?? t.step.value ?? null] : t;
  };
  const drag = (from: [number, number], to: [number, number], action = 'up') => event('input.touch', { action, from: { x: from[0], y: from[1] }, to: { x: to[0], y: to[1] }, moves: 5 });
  assert.equal(step(drag([500, 1500], [520, 600])), ['swipe', 'up']);
  assert.equal(step(drag([500, 600], [480, 1500])), ['swipe', 'down']);
  assert.equal(step(drag([900, 800], [100, 850])), ['swipe', 'left']);
  assert.equal(step(drag([300, 800], [900, 850])), ['swipe', 'right']);
  assert.equal(step(drag([1, 1200], [700, 1200])), ['press_back', null]);
  assert.equal(step(drag([50, 25], [53, 27])), ['tap', 'OK']);
  assert.equal(step(event('input.touch', { action: 'up', from: { x: 50, y: 25 }, to: { x: 51, y: 25 }, moves: 1, long_press: true })), ['long_press', 'OK'], 'a finger held in place past the long-press time');
  assert.ok((translateRawCall(drag([500, 1500], [500, 600], 'cancel'), listing) as { skipped: string }).skipped);
  assert.is(translateRawCall({ ...drag([500, 1500], [500, 600]), ok: false }, listing), undefined, 'a failed drag did nothing');
  assert.equal(step(event('input.key', { key: 'ENTER' })), ['press_button', 'ENTER']);
  assert.equal(translateRawCall(event('input.key', { key: 'BACKSPACE' }), listing), { erase: true });
  assert.match((translateRawCall(event('input.key', { key: 'TAB' }), listing) as { skipped: string }).skipped, 'TAB');
});

test('orphanText and waitingText: whose recording, what it holds, who left it and until when it is kept', () => {
  const started = new Date(2025, 0, 2, 19, 2, 11);
  const base = { device: 'virtual-android-1', name: 'Sign in', steps: 1, started_at: started.toISOString(), left_by: 'a session of this process that ended' };
  assert.is(
    orphanText({ ...base, started_by: { session: 's-4f5d0123abcd', client: 'viewer' } }),
    'A recording by viewer s-4f5d ("Sign in", 1 step, started 19:02:11) is open on virtual-android-1: that viewer went away without stopping it. Continue it here, discard it, or leave it.',
  );
  assert.is(
    orphanText({ ...base, steps: 3, left_by: 'process 4711, which has ended' }),
    'A recording ("Sign in", 3 steps, started 19:02:11) is open on virtual-android-1, left by process 4711, which has ended. Continue it here, discard it, or leave it.',
  );
  assert.is(
    waitingText({ device: 'virtual-android-1', name: 'Sign in', steps: 2, by: { session: 's-4f5d0123abcd' }, connected: false, kept_for_ms: 1000 }, new Date(2025, 0, 2, 19, 7, 31)),
    'A recording by session s-4f5d ("Sign in", 2 steps) is open on virtual-android-1; its connection dropped, and the recording is kept for it until 19:07:31. If it does not come back, you can then continue or discard it.',
  );
});

test('orphanText and waitingText for a recording of this page\'s earlier session: the user\'s own, interrupted, not another viewer\'s', () => {
  const started = new Date(2025, 0, 2, 19, 2, 11);
  const orphan = { device: 'virtual-android-1', name: 'Sign in', steps: 3, started_at: started.toISOString(), started_by: { session: 's-4f5d0123abcd', client: 'viewer' }, left_by: 'a session of this process that ended' };
  const said = orphanText(orphan, true);
  assert.ok(said.startsWith('Your recording ("Sign in", 3 steps, started 19:02:11) on virtual-android-1 was interrupted'), said);
  assert.match(said, 'Continue it to go on recording');
  assert.not.match(said, 'that viewer');
  const kept = waitingText({ device: 'virtual-android-1', name: 'Sign in', steps: 2, by: { session: 's-4f5d0123abcd' }, connected: false, kept_for_ms: 1000 }, new Date(2025, 0, 2, 19, 7, 31), true);
  assert.is(kept, 'Your recording ("Sign in", 2 steps) on virtual-android-1 belongs to this page\'s earlier session, which the bridge keeps until 19:07:31; then you can continue it here.');
});

test.run();
