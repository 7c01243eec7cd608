import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createAdbClient } from '../../src/engine/drivers/android/adb-client.js';
import type { AndroidDevice } from '../../src/engine/drivers/android/android-device.js';
import { uiServerFor } from '../../src/engine/drivers/android/ui-server/uia2-server.js';
import { DEMO_PACKAGE } from '../../src/engine/drivers/virtual/index.js';
import type { Engine } from '../../src/engine/engine.js';
import { writeApk } from '../harness/apk-builder.js';
import { UIA2_PACKAGES } from '../harness/adbd/uia2-service.js';
import { hasAdb, startRig, until, type AndroidRig } from './setup.js';

/**
 * The UiAutomator2 server's ugly states, as appium-uiautomator2-server and Android produce them: a
 * session another client replaced, a crash mid-request, a /source that never answers, the
 * UiAutomation connection lost under a running server, and an instrumentation that outlives the
 * shell stream that started it.
 */
const states = suite<{ rig?: AndroidRig; tmp?: string; opened: Engine[] }>('android UiAutomator2 server states', { opened: [] });

states.before(async (ctx) => {
  ctx.tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mb-uia2-states-'));
  const rig = await startRig();
  // Each test's engines are closed after it: one left open may still be starting its server in the
  // background, and its `am instrument` would end the next test's server (ActivityManager force-stops
  // the target first), as seen once in CI under load.
  const engineWith = rig.engineWith;
  rig.engineWith = (options, timeoutMs) => {
    const engine = engineWith(options, timeoutMs);
    ctx.opened.push(engine);
    return engine;
  };
  ctx.rig = rig;
});
states.after(async (ctx) => {
  await ctx.rig?.stop();
  if (ctx.tmp) fs.rmSync(ctx.tmp, { recursive: true, force: true });
});
states.after.each(async ({ rig, opened }) => {
  await Promise.all(opened.splice(0).map((e) => e.close()));
  const uia2 = rig!.phone.uia2;
  uia2.sourceStalls = false;
  uia2.uiAutomationLost = false;
  uia2.focusedTakesNoText = false;
  uia2.staleFocus = 0;
  uia2.focusedIsProgress = false;
  uia2.renderFails = false;
  await uia2.stop();
});

const apks = (dir: string) => ({
  server: writeApk(dir, { package: UIA2_PACKAGES[0], label: 'Appium Settings' }, 'appium-uiautomator2-server-v7.0.0.apk'),
  test: writeApk(dir, { package: UIA2_PACKAGES[1] }, 'appium-uiautomator2-server-debug-androidTest.apk'),
});

function warm(engine: Engine, serial: string): Promise<boolean> {
  return engine.withDevice(serial, 'starting the UiAutomator2 server', async (handle) => (await (handle as AndroidDevice).uiServer?.ready()) ?? false);
}

/** What `work` settled to, or 'still waiting' after a while: a test that fails must not hang. */
function settledWithin<T>(work: Promise<T>, ms = 5000): Promise<T | 'still waiting'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'still waiting'>((r) => (timer = setTimeout(() => r('still waiting'), ms)));
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** A warm server and the demo's sign-in form with its email field tapped: what the typing states start from. */
async function typingIntoEmail(rig: AndroidRig, tmp: string) {
  const engine = rig.engineWith({ uiServerApks: apks(tmp) });
  const serial = rig.phone.serial;
  const call = async (tool: string, params: object = {}) => (await engine.call(tool, { device: serial, ...params })) as Record<string, any>;
  const email = async () => ((await call('mobile_list_elements_on_screen')).elements as { id: string; text?: string; center: object }[]).find((e) => e.id === 'email')!;
  await call('mobile_launch_app', { packageName: DEMO_PACKAGE });
  await call('mobile_open_url', { url: 'mbdemo://screen/signin' });
  assert.ok(await warm(engine, serial));
  await call('mobile_click_on_screen_at_coordinates', (await email()).center);
  return { call, emailText: async () => (await email()).text, before: (await email()).text ?? '' };
}

const dumped = (rig: AndroidRig) => rig.phone.stats.opened.some((s) => s.includes('uiautomator dump'));

states('a session another client replaced (404 "invalid session id"): a new session on the running server, no restart, no dump', async ({ rig, tmp }) => {
  const engine = rig!.engineWith({ uiServerApks: apks(tmp!) });
  const serial = rig!.phone.serial;
  assert.ok(await warm(engine, serial));
  rig!.phone.uia2.replaceSession();
  rig!.phone.stats.reset();
  rig!.phone.uia2.requests = [];
  const r = (await engine.call('mobile_list_elements_on_screen', { device: serial })) as { elements?: unknown[] };
  assert.ok(r.elements && r.elements.length > 0, JSON.stringify(r).slice(0, 300));
  const opened = rig!.phone.stats.opened;
  assert.equal(opened.filter((s) => /uiautomator|am instrument|force-stop/.test(s)), [], `no dump and no restart: ${opened.join(', ')}`);
  assert.equal(rig!.phone.uia2.requests, ['GET /source', 'POST /wd/hub/session', 'GET /source']);
});

states('closing the engine stops the server it started: the instrumentation outlives its shell stream and would keep UiAutomation', async ({ rig, tmp }) => {
  const engine = rig!.engineWith({ uiServerApks: apks(tmp!) });
  const uia2 = rig!.phone.uia2;
  assert.ok(await warm(engine, rig!.phone.serial));
  await engine.close();
  await until(() => !uia2.running && !uia2.holdsUiAutomation, 'the server stopped after the engine closed');
  const dump = rig!.engineWith({ uiServer: 'off' });
  const r = (await dump.call('mobile_list_elements_on_screen', { device: rig!.phone.serial })) as { elements?: unknown[]; code?: string };
  assert.ok(r.elements && r.elements.length > 0, `uiautomator dump works again: ${JSON.stringify(r).slice(0, 300)}`);
});

states('a /source that never answers: given up after the request limit, the server stopped so that the dump can connect UiAutomation', async ({ rig, tmp }) => {
  const uia2 = rig!.phone.uia2;
  const serial = rig!.phone.serial;
  const device = createAdbClient({ host: '127.0.0.1', port: rig!.server.port, source: 'test' }, undefined).getDevice(serial);
  const server = uiServerFor(device, serial, apks(tmp!), { requestMs: 300 });
  try {
    assert.ok(await server.ready());
    uia2.sourceStalls = true;
    const served = await settledWithin(server.source(AbortSignal.timeout(30_000)));
    assert.is(served, undefined, 'the caller falls back to a dump');
    assert.not.ok(uia2.holdsUiAutomation, 'the wedged server was stopped');
    const dump = rig!.engineWith({ uiServer: 'off' });
    const r = (await dump.call('mobile_list_elements_on_screen', { device: serial })) as { elements?: unknown[] };
    assert.ok(r.elements && r.elements.length > 0, JSON.stringify(r).slice(0, 300));
    uia2.sourceStalls = false;
    assert.ok(await server.ready(), 'started again on the next call');
    assert.match(String(await server.source(AbortSignal.timeout(10_000))), /<hierarchy/);
  } finally {
    await server.close();
  }
});

states('a /source that never answers under a tool deadline shorter than the request limit: two listings given up in a row stop the server, and listing works again', async ({ rig, tmp }) => {
  const engine = rig!.engineWith({ uiServerApks: apks(tmp!) }, 3_000);
  const serial = rig!.phone.serial;
  const uia2 = rig!.phone.uia2;
  assert.ok(await warm(engine, serial));
  uia2.sourceStalls = true;
  rig!.phone.stats.reset();
  for (let i = 0; i < 2; i++) {
    const r = (await engine.call('mobile_list_elements_on_screen', { device: serial })) as { code?: string };
    assert.is(r.code, 'TIMEOUT', JSON.stringify(r).slice(0, 300));
  }
  await until(() => rig!.phone.stats.opened.some((s) => /am force-stop io\.appium\.uiautomator2\.server/.test(s)), 'the wedged server to be stopped');
  uia2.sourceStalls = false;
  const r = (await engine.call('mobile_list_elements_on_screen', { device: serial })) as { elements?: unknown[] };
  assert.ok(r.elements && r.elements.length > 0, JSON.stringify(r).slice(0, 300));
});

states('the server crashing mid-request: that listing is answered by a dump, a later start brings the server back', async ({ rig, tmp }) => {
  const engine = rig!.engineWith({ uiServerApks: apks(tmp!) });
  const serial = rig!.phone.serial;
  const uia2 = rig!.phone.uia2;
  assert.ok(await warm(engine, serial));
  uia2.sourceStalls = true;
  uia2.requests = [];
  rig!.phone.stats.reset();
  const listing = engine.call('mobile_list_elements_on_screen', { device: serial }) as Promise<{ elements?: unknown[] }>;
  await until(() => uia2.requests.includes('GET /source'), 'the listing asked the server');
  uia2.sourceStalls = false;
  await uia2.crash();
  const r = await listing;
  assert.ok(r.elements && r.elements.length > 0, JSON.stringify(r).slice(0, 300));
  assert.ok(dumped(rig!), 'answered by a dump');
  assert.ok(await warm(engine, serial), 'restarted');
  rig!.phone.stats.reset();
  await engine.call('mobile_list_elements_on_screen', { device: serial });
  assert.equal(rig!.phone.stats.opened, ['tcp:6790']);
});

states('UiAutomation lost under a running server (500 "UiAutomation not connected", /status still ready): the listing dumps, a later one restarts the server', async ({ rig, tmp }) => {
  const engine = rig!.engineWith({ uiServerApks: apks(tmp!) });
  const serial = rig!.phone.serial;
  const uia2 = rig!.phone.uia2;
  assert.ok(await warm(engine, serial));
  uia2.uiAutomationLost = true;
  rig!.phone.stats.reset();
  const r = (await engine.call('mobile_list_elements_on_screen', { device: serial })) as { elements?: unknown[] };
  assert.ok(r.elements && r.elements.length > 0, JSON.stringify(r).slice(0, 300));
  assert.ok(dumped(rig!), 'answered by a dump');
  assert.not.ok(uia2.running, 'the broken server was stopped, not left answering /status');
  assert.ok(await warm(engine, serial), 'restarted');
  rig!.phone.stats.reset();
  await engine.call('mobile_list_elements_on_screen', { device: serial });
  assert.equal(rig!.phone.stats.opened, ['tcp:6790']);
});

states('a server left running by another run: stopped before the start, so the new session lives on the server that stays', async ({ rig, tmp }) => {
  const serial = rig!.phone.serial;
  const uia2 = rig!.phone.uia2;
  const earlier = rig!.engineWith({ uiServerApks: apks(tmp!) });
  assert.ok(await warm(earlier, serial));
  const engine = rig!.engineWith({ uiServerApks: apks(tmp!) });
  let release!: () => void;
  uia2.amGate = new Promise((r) => (release = r));
  uia2.requests = [];
  rig!.phone.stats.reset();
  try {
    const warming = warm(engine, serial);
    // Until `am` reaches ActivityManager, the earlier server answers whoever asks it.
    await until(() => uia2.requests.includes('POST /wd/hub/session') || (!uia2.running && rig!.phone.stats.opened.includes('tcp:6790')), 'the new start polled the server');
    release();
    assert.ok(await warming);
  } finally {
    release();
    uia2.amGate = undefined;
  }
  uia2.requests = [];
  rig!.phone.stats.reset();
  const r = (await engine.call('mobile_list_elements_on_screen', { device: serial })) as { elements?: unknown[] };
  assert.ok(r.elements && r.elements.length > 0, JSON.stringify(r).slice(0, 300));
  assert.equal(uia2.requests, ['GET /source'], 'the session was made on the server that stayed');
  assert.not.ok(dumped(rig!));
});

states('typing while the focused element takes no text (400 "invalid element state"): INVALID_PARAMETER saying so, not an internal error', async ({ rig, tmp }) => {
  const { call } = await typingIntoEmail(rig!, tmp!);
  rig!.phone.uia2.focusedTakesNoText = true;
  try {
    const r = await call('mobile_type_keys', { text: 'ñ' });
    assert.is(r.code, 'INVALID_PARAMETER', JSON.stringify(r));
    assert.match(r.message, /does not take text/);
  } finally {
    rig!.phone.uia2.focusedTakesNoText = false;
  }
});

states('typing while a slider has focus (400 "invalid argument": SendKeysToElement parses the text as its progress): INVALID_PARAMETER naming it', async ({ rig, tmp }) => {
  const { call, emailText, before } = await typingIntoEmail(rig!, tmp!);
  rig!.phone.uia2.focusedIsProgress = true;
  const r = await call('mobile_type_keys', { text: 'ñ' });
  assert.is(r.code, 'INVALID_PARAMETER', JSON.stringify(r));
  assert.match(r.message, /Cannot convert 'ñ' to float.*slider or other progress control/);
  rig!.phone.uia2.focusedIsProgress = false;
  assert.is(await emailText(), before, 'nothing typed');
});

states('the focused field replaced between finding it and typing (404 "stale element reference"): asked again and typed once; twice is INVALID_PARAMETER with nothing typed', async ({ rig, tmp }) => {
  const uia2 = rig!.phone.uia2;
  const { call, emailText, before } = await typingIntoEmail(rig!, tmp!);

  uia2.staleFocus = 1;
  uia2.requests = [];
  const once = await call('mobile_type_keys', { text: 'ñ' });
  assert.is(once.status, 'success', JSON.stringify(once));
  assert.is(await emailText(), `${before}ñ`, 'typed exactly once');
  assert.equal(uia2.requests.filter((r) => r === 'GET /element/active').length, 2, 'the focused element was asked for again');

  uia2.staleFocus = 2;
  const twice = await call('mobile_type_keys', { text: 'ü' });
  assert.is(twice.code, 'INVALID_PARAMETER', JSON.stringify(twice));
  assert.match(twice.message, /replaced twice .*nothing was typed/);
  assert.is(await emailText(), `${before}ñ`, 'nothing typed by the refused call');
});

states('Unicode typing after BACK hid the keyboard: the field kept input focus, so the server types into it', async ({ rig, tmp }) => {
  const { call, emailText, before } = await typingIntoEmail(rig!, tmp!);
  await call('mobile_press_button', { button: 'BACK' });
  assert.not.ok(rig!.phone.phone.keyboardVisible, 'BACK hid the keyboard');
  const r = await call('mobile_type_keys', { text: 'é' });
  assert.is(r.status, 'success', JSON.stringify(r));
  assert.is(await emailText(), `${before}é`);
});

states('Unicode text ending in a backslash and "n" is typed as written: no Enter pressed (SendKeysToElement would press it)', async ({ rig, tmp }) => {
  const { call, emailText, before } = await typingIntoEmail(rig!, tmp!);
  const r = await call('mobile_type_keys', { text: 'ñ\\n' });
  assert.is(r.status, 'success', JSON.stringify(r));
  assert.is(await emailText(), `${before}ñ\\n`, 'the backslash and n are in the field');
  // An Enter on the email field moves focus on (the demo's sign-in form): still on the email field means none was pressed.
  assert.is(rig!.phone.phone.focusedField, 'email');
});

states('an answer the server could not render (HTTP 500 with `{}`, no error in it): the server is given up and the listing dumps, not refused as "another client holds UiAutomation"', async ({ rig, tmp }) => {
  const engine = rig!.engineWith({ uiServerApks: apks(tmp!) });
  const serial = rig!.phone.serial;
  const uia2 = rig!.phone.uia2;
  assert.ok(await warm(engine, serial));
  uia2.renderFails = true;
  rig!.phone.stats.reset();
  const r = (await engine.call('mobile_list_elements_on_screen', { device: serial })) as { elements?: unknown[] };
  assert.ok(r.elements && r.elements.length > 0, JSON.stringify(r).slice(0, 300));
  assert.ok(dumped(rig!), 'answered by a dump');
});

if (hasAdb()) states.run();
