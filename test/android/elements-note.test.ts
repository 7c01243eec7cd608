import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startBridge } from '../../src/bridge/index.js';
import { runScenario } from '../../src/engine/runner/index.js';
import { loadScenario } from '../../src/validate/index.js';
import { DEMO_PACKAGE } from '../../src/engine/drivers/virtual/index.js';
import type { ElementsChangedParams } from '../../src/protocol/notifications.js';
import { connectBridge } from '../../src/protocol/node.js';
import { hasAdb, startRig } from './setup.js';

/**
 * A watcher of a device's elements hears what a caller of mobile_list_elements_on_screen reads in
 * its `note`: here Android's crash dialog over the app, over the real adb server. Without it a
 * viewer showed the dialog's buttons as if they were the app's.
 */
const note = suite('elements.changed carries the listing note');

async function waitFor(got: ElementsChangedParams[], test: (c: ElementsChangedParams) => boolean, what: string): Promise<ElementsChangedParams> {
  const started = Date.now();
  for (;;) {
    const hit = got.find(test);
    if (hit) return hit;
    if (Date.now() - started > 10_000) throw new Error(`no elements.changed ${what} within 10 s; got ${JSON.stringify(got.map((c) => ({ seq: c.seq, reset: c.reset, note: c.note })))}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

note('a crash dialog: the note comes with the diff, stays on a late joiner\'s reset, and goes with null', async () => {
  const rig = await startRig();
  const bridge = await startBridge({ engine: rig.engine, host: '127.0.0.1', port: 0, webRoot: '/nonexistent-mobilebridge-web', log: () => undefined, elementsPollMs: 200 });
  const first = await connectBridge(bridge.wsUrl);
  const late = await connectBridge(bridge.wsUrl);
  const quirks = rig.phone.shell.quirks;
  try {
    await rig.call('mobile_launch_app', { packageName: DEMO_PACKAGE });
    const seen: ElementsChangedParams[] = [];
    first.on('elements.changed', (c) => seen.push(c as ElementsChangedParams));
    await first.requestRaw('devices.subscribe', { device: rig.phone.serial, elements: true });
    const reset = await waitFor(seen, (c) => !!c.reset, 'reset');
    assert.is(reset.note, undefined, 'no note while the app is in front');

    quirks.appError = { kind: 'crash', label: 'MobileBridge Demo' };
    const crashed = await waitFor(seen, (c) => typeof c.note === 'string', 'with the crash note');
    assert.match(String(crashed.note), /app error dialog \("MobileBridge Demo keeps stopping"\): the app crashed/);
    assert.ok(crashed.added.some((e) => e.text === 'Close app'), 'the dialog\'s buttons come in the same message');

    const lateSeen: ElementsChangedParams[] = [];
    late.on('elements.changed', (c) => lateSeen.push(c as ElementsChangedParams));
    await late.requestRaw('devices.subscribe', { device: rig.phone.serial, elements: true });
    const lateReset = await waitFor(lateSeen, (c) => !!c.reset, 'reset for the late joiner');
    assert.is(lateReset.note, crashed.note, 'a late joiner gets the note in its reset');

    const quiet = seen.length;
    await new Promise((r) => setTimeout(r, 600)); // three polls of an unchanged screen
    assert.not.ok(seen.slice(quiet).some((c) => c.note !== undefined), 'an unchanged note is not sent again');

    quirks.appError = undefined;
    const cleared = await waitFor(seen, (c) => c.note === null, 'clearing the note');
    assert.ok(cleared.seq > crashed.seq);
  } finally {
    quirks.appError = undefined;
    await first.close();
    await late.close();
    await bridge.close();
    await rig.stop();
  }
});

note('a screen that cannot be listed any more is said in the note, not shown as the screen as it is; a late joiner hears it too', async () => {
  const rig = await startRig();
  const bridge = await startBridge({ engine: rig.engine, host: '127.0.0.1', port: 0, webRoot: '/nonexistent-mobilebridge-web', log: () => undefined, elementsPollMs: 200 });
  const first = await connectBridge(bridge.wsUrl);
  const late = await connectBridge(bridge.wsUrl);
  const quirks = rig.phone.shell.quirks;
  try {
    await rig.call('mobile_launch_app', { packageName: DEMO_PACKAGE });
    const seen: ElementsChangedParams[] = [];
    first.on('elements.changed', (c) => seen.push(c as ElementsChangedParams));
    await first.requestRaw('devices.subscribe', { device: rig.phone.serial, elements: true });
    const reset = await waitFor(seen, (c) => !!c.reset, 'reset');
    assert.ok(reset.added.length > 0);

    // An animation that never stops: uiautomator dump gives no tree any more.
    quirks.neverIdle = true;
    const failed = await waitFor(seen, (c) => typeof c.note === 'string', 'with a note saying the listing failed');
    assert.match(String(failed.note), /^the elements could not be listed \(UNSUPPORTED: uiautomator dump .* could not get idle state.*\): the list is the screen as last listed/);
    assert.equal([failed.added, failed.removed, failed.changed], [[], [], []], 'the last listing stays, marked as such');

    const lateSeen: ElementsChangedParams[] = [];
    late.on('elements.changed', (c) => lateSeen.push(c as ElementsChangedParams));
    await late.requestRaw('devices.subscribe', { device: rig.phone.serial, elements: true });
    const lateReset = await waitFor(lateSeen, (c) => !!c.reset, 'reset for the late joiner');
    assert.is(lateReset.note, failed.note);

    quirks.neverIdle = false;
    const back = await waitFor(seen, (c) => c.note === null, 'clearing the note');
    assert.ok(back.seq > failed.seq);
  } finally {
    quirks.neverIdle = false;
    await first.close();
    await late.close();
    await bridge.close();
    await rig.stop();
  }
});

note('a failing assertion names the crash dialog the listing saw, not only "not visible"', async () => {
  const rig = await startRig();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mb-elements-note-'));
  const quirks = rig.phone.shell.quirks;
  try {
    await rig.call('mobile_launch_app', { packageName: DEMO_PACKAGE });
    await rig.call('mobile_open_url', { url: 'mbdemo://screen/signin' });
    const text = JSON.stringify({
      $schema_version: '2.1',
      scenario_id: 'sign_in_covered',
      name: 'Sign in, covered by a crash dialog',
      description: 'The app crashed under its sign-in screen.',
      platform: 'android',
      metadata: { app_version: '1.0', environment: 'test' },
      app_package: DEMO_PACKAGE,
      steps: [{ id: 'look', description: 'Look down the screen', action: 'swipe', value: 'down' }],
      assertions: [{ id: 'sign_in_shown', after_step: 'look', type: 'element_visible', description: 'Sign in is there', element_description: 'the Sign in button' }],
    });
    const loaded = loadScenario(text);
    assert.ok(loaded.scenario, JSON.stringify(loaded.report));
    quirks.appError = { kind: 'crash', label: 'MobileBridge Demo' };
    const { document } = await runScenario({ engine: rig.engine, device: rig.phone.serial, scenario: loaded.scenario!, scenarioDir: dir, outDir: dir, settleMs: 0, screenshots: 'none' });
    const check = document.assertion_results.find((a) => a.assertion_id === 'sign_in_shown')!;
    assert.is(check.status, 'failed', JSON.stringify(check));
    assert.match(String(check.message), /the app crashed, and nothing reaches it until the dialog is closed/);
  } finally {
    quirks.appError = undefined;
    fs.rmSync(dir, { recursive: true, force: true });
    await rig.stop();
  }
});

if (hasAdb()) note.run();
