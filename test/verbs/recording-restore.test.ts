import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { AgentSession } from '../../src/engine/agent/agent-session.js';
import { createEngine } from '../../src/engine/create.js';
import type { Engine } from '../../src/engine/engine.js';
import type { UiElement } from '../../src/engine/types.js';
import { RecordingStore } from '../../src/engine/verbs/recording-store.js';
import { validateScenarioText } from '../../src/validate/index.js';

/**
 * A recording that survives a crash (RecordingStore's file, adopted by the next session) keeps
 * what keeps passwords out of it: the secret parameters its steps type, and whether the focused
 * field is a password field. No typed password is ever written to that file.
 */

const A = 'virtual-android-1';
const DEMO = 'com.mobilebridge.demo';
const TYPED = 'hunter2pw';
const TYPED_AFTER = 'zebra77';

type OnDisk = { steps: { action: string; value?: string }[] } & Record<string, unknown>;

function fileOf(dir: string): string {
  return join(dir, `${encodeURIComponent(A)}.recording.json`);
}

function onDisk(dir: string): OnDisk | undefined {
  try {
    return JSON.parse(readFileSync(fileOf(dir), 'utf8')) as OnDisk;
  } catch {
    return undefined;
  }
}

/** The session writes without waiting: the file is looked at until it holds what was recorded. */
async function fileShows(dir: string, what: string, probe: (d: OnDisk) => boolean): Promise<OnDisk> {
  for (let i = 0; i < 500; i++) {
    const d = onDisk(dir);
    if (d && probe(d)) return d;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`the recording file never showed ${what}: ${JSON.stringify(onDisk(dir))}`);
}

/** A raw tool call of a session (its origin), as the MCP server and the bridge make them. */
function raw(engine: Engine, origin: string, tool: string, parameters: Record<string, unknown> = {}): Promise<unknown> {
  return engine.call(tool, { device: A, ...parameters }, { origin });
}

async function tapField(engine: Engine, origin: string, id: string): Promise<void> {
  const { elements } = (await raw(engine, origin, 'mobile_list_elements_on_screen')) as { elements: UiElement[] };
  const field = elements.find((e) => e.id === id);
  assert.ok(field, `the sign-in screen shows ${id}`);
  await raw(engine, origin, 'mobile_click_on_screen_at_coordinates', { x: field!.center!.x, y: field!.center!.y });
}

/** Records tapping the password field and typing into it, then the process "crashes": its session ends unstopped. */
async function recordPasswordThenCrash(engine: Engine, dir: string): Promise<OnDisk> {
  const before = new AgentSession(engine, 'before-crash', { store: new RecordingStore(dir) });
  await before.startRecording({ device: A, name: 'Sign in', app_package: DEMO });
  assert.is((await before.run(A, { action: 'open_url', value: 'mbdemo://screen/signin' })).status, 'passed');
  await tapField(engine, 'before-crash', 'password');
  await raw(engine, 'before-crash', 'mobile_type_keys', { text: TYPED });
  const saved = await fileShows(dir, 'the typed password step', (d) => d.steps.some((s) => s.action === 'type'));
  before.close();
  return saved;
}

test('a recording restored after a crash declares the password it typed, keeps typing into the password field secret, and validates', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mb-rec-restore-'));
  const engine = createEngine({ virtual: {}, android: false, ios: false });
  let after: AgentSession | undefined;
  try {
    const saved = await recordPasswordThenCrash(engine, dir);
    assert.not.ok(readFileSync(fileOf(dir), 'utf8').includes(TYPED), 'the recovery file holds no typed password');
    assert.equal(saved.steps.map((s) => s.value ?? s.action), ['mbdemo://screen/signin', 'tap', '${PASSWORD}']);

    // The next session (a restarted bridge, another process) adopts the recording from the file.
    after = new AgentSession(engine, 'after-crash', { store: new RecordingStore(dir) });
    await after.recoverRecordings();
    assert.ok(after.isRecording(A), 'the recording was adopted');
    // More keys into the same password field, with nothing recorded in between: still the secret.
    await raw(engine, 'after-crash', 'mobile_type_keys', { text: TYPED_AFTER, submit: true });
    await fileShows(dir, 'the submit after the restore', (d) => d.steps.some((s) => s.value?.endsWith('\n')));
    assert.not.ok(readFileSync(fileOf(dir), 'utf8').includes(TYPED_AFTER), 'nor a password typed after the restore');

    const stopped = await after.stopRecording(A);
    const doc = stopped.scenario as { steps: { action: string; value?: string }[]; parameters?: Record<string, { secret?: boolean }> };
    const text = JSON.stringify(doc);
    assert.not.ok(text.includes(TYPED) || text.includes(TYPED_AFTER), `no password in clear: ${JSON.stringify(doc.steps)}`);
    assert.equal(doc.steps.filter((s) => s.action === 'type').map((s) => s.value), ['${PASSWORD}\n'], 'one secret for the whole field');
    assert.equal(Object.keys(doc.parameters ?? {}), ['PASSWORD'], 'the restored recording declares its secret');
    assert.is(doc.parameters!.PASSWORD!.secret, true);
    assert.ok(stopped.validation.valid, JSON.stringify(stopped.validation.errors));
    const report = validateScenarioText(JSON.stringify(doc, null, 2), 'sign_in.json');
    assert.ok(report.valid, JSON.stringify(report.errors));
    assert.not.ok(existsSync(fileOf(dir)));
  } finally {
    after?.close();
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a focus on the password field learnt from a listing alone survives a crash: typing after the restore is a secret', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mb-rec-restore-focus-'));
  const engine = createEngine({ virtual: {}, android: false, ios: false });
  let after: AgentSession | undefined;
  try {
    const before = new AgentSession(engine, 'before-crash', { store: new RecordingStore(dir) });
    await before.startRecording({ device: A, name: 'Tab to password', app_package: DEMO });
    assert.is((await before.run(A, { action: 'open_url', value: 'mbdemo://screen/signin' })).status, 'passed');
    await tapField(engine, 'before-crash', 'email');
    await raw(engine, 'before-crash', 'mobile_type_keys', { text: 'ada@example.com' });
    // Tab moves the focus where no step says; a listing by anyone (the viewer's) then shows it on the password.
    assert.is((await engine.pressKey(A, 'TAB', { origin: 'viewer' })).status, 'success');
    const { elements } = (await engine.call('mobile_list_elements_on_screen', { device: A }, { origin: 'viewer' })) as { elements: UiElement[] };
    assert.ok(elements.find((e) => e.id === 'password')?.focused, 'the password field has the focus');
    await fileShows(dir, 'the focus on the password field', (d) => JSON.stringify(d).includes('"passwordFocused":true'));
    before.close();

    after = new AgentSession(engine, 'after-crash', { store: new RecordingStore(dir) });
    await after.recoverRecordings();
    await raw(engine, 'after-crash', 'mobile_type_keys', { text: TYPED });
    await fileShows(dir, 'the typing after the restore', (d) => d.steps.filter((s) => s.action === 'type').length === 2);
    assert.not.ok(readFileSync(fileOf(dir), 'utf8').includes(TYPED), 'the recovery file holds no typed password');
    const stopped = await after.stopRecording(A);
    const doc = stopped.scenario as { steps: { action: string; value?: string }[]; parameters?: Record<string, { secret?: boolean }> };
    assert.not.ok(JSON.stringify(doc).includes(TYPED), JSON.stringify(doc.steps));
    assert.equal(doc.steps.filter((s) => s.action === 'type').map((s) => s.value), ['ada@example.com', '${PASSWORD}']);
    assert.ok(stopped.validation.valid, JSON.stringify(stopped.validation.errors));
  } finally {
    after?.close();
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a recovery file of the previous version (no secrets in it) declares every recorded secret its steps type, and typing on stays secret', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mb-rec-restore-old-'));
  const engine = createEngine({ virtual: {}, android: false, ios: false });
  let after: AgentSession | undefined;
  try {
    const saved = await recordPasswordThenCrash(engine, dir);
    // What the version before this one wrote: the same file without the secrets' state.
    const { secrets: _secrets, ...previous } = saved;
    assert.ok(_secrets, 'this version writes the secrets\' state');
    writeFileSync(fileOf(dir), JSON.stringify(previous));

    after = new AgentSession(engine, 'after-crash', { store: new RecordingStore(dir) });
    await after.recoverRecordings();
    await raw(engine, 'after-crash', 'mobile_type_keys', { text: TYPED_AFTER });
    const stopped = await after.stopRecording(A);
    const doc = stopped.scenario as { steps: { action: string; value?: string }[]; parameters?: Record<string, { description?: string; secret?: boolean }> };
    assert.not.ok(JSON.stringify(doc).includes(TYPED_AFTER), JSON.stringify(doc.steps));
    assert.equal(doc.steps.filter((s) => s.action === 'type').map((s) => s.value), ['${PASSWORD}']);
    assert.equal(Object.keys(doc.parameters ?? {}), ['PASSWORD']);
    assert.is(doc.parameters!.PASSWORD!.secret, true);
    assert.match(doc.parameters!.PASSWORD!.description ?? '', /--param PASSWORD=/);
    assert.ok(stopped.validation.valid, JSON.stringify(stopped.validation.errors));
  } finally {
    after?.close();
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
