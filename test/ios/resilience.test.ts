import { test } from 'uvu';
import * as assert from 'uvu/assert';

import { writeAppBundle } from '../harness/ipa-builder.js';
import { WdaClient } from '../../src/engine/drivers/ios/wda-client.js';
import { makeRig, PHONE_UDID, SIM_UDID } from './rig.js';

test('WebDriverAgent restarted mid-session: the session is re-created once, the caller sees no error', async () => {
  const rig = await makeRig();
  try {
    await rig.call('mobile_launch_app', { packageName: 'com.mobilebridge.demo' });
    assert.ok(Array.isArray((await rig.call('mobile_list_elements_on_screen')).elements));
    assert.is(rig.wda.sessionsCreated, 1);
    await rig.wda.restart();
    const after = await rig.call('mobile_list_elements_on_screen');
    assert.ok(Array.isArray(after.elements), JSON.stringify(after));
    assert.is((await rig.call('mobile_click_on_screen_at_coordinates', { x: 10, y: 10 })).status, 'success');
    assert.is(rig.wda.sessionsCreated, 2);
    assert.is(rig.wda.requests.filter((r) => r === 'GET /session/:id/source').length, 3, 'one failed source call, retried once');
  } finally {
    await rig.close();
  }
});

test("a WDA session another client keeps open (Appium's, for its app) is used, not replaced: replacing it would terminate that app", async () => {
  const rig = await makeRig();
  try {
    await rig.call('mobile_launch_app', { packageName: 'com.mobilebridge.demo' });
    // Appium's session tests the demo app; a POST /session of ours would kill it, and FBSession kill
    // terminates the app (shouldTerminateApp is YES unless Appium's own session turned it off).
    const theirs = await rig.wda.foreignSession('com.mobilebridge.demo');
    const r = await rig.call('mobile_list_elements_on_screen');
    assert.ok(Array.isArray(r.elements), JSON.stringify(r));
    assert.is(rig.wda.sessionsCreated, 0, 'no session of ours was created');
    assert.is(rig.wda.sessions.id, theirs, "the other client's session is still open");
    assert.is(rig.device.foregroundPackage, 'com.mobilebridge.demo', "the other client's app is still running in front");
    // The other client starts a new session of its own (its previous one ends): ours follows it.
    const next = await rig.wda.foreignSession();
    assert.is((await rig.call('mobile_click_on_screen_at_coordinates', { x: 10, y: 10 })).status, 'success');
    assert.is(rig.wda.sessionsCreated, 0);
    assert.is(rig.wda.sessions.id, next);
  } finally {
    await rig.close();
  }
});

test("an adopted session whose app under test was stopped behind WDA's back (FBApplicationCrashedException on every in-session route) is replaced by one of ours, once", async () => {
  const rig = await makeRig();
  try {
    await rig.call('mobile_launch_app', { packageName: 'com.mobilebridge.demo' });
    await rig.wda.foreignSession('com.mobilebridge.demo');
    assert.ok(Array.isArray((await rig.call('mobile_list_elements_on_screen')).elements));
    assert.is(rig.wda.sessionsCreated, 0, 'adopted');
    // Stopped through simctl, not through WDA: FBSession still expects the tested app to run.
    assert.is((await rig.call('mobile_terminate_app', { packageName: 'com.mobilebridge.demo' })).status, 'success');
    const r = await rig.call('mobile_list_elements_on_screen');
    assert.ok(Array.isArray(r.elements), JSON.stringify(r));
    assert.is((await rig.call('mobile_click_on_screen_at_coordinates', { x: 10, y: 10 })).status, 'success');
    assert.is(rig.wda.sessionsCreated, 1, 'one session of our own, kept');
  } finally {
    await rig.close();
  }
});

test('WebDriverAgent restarted with several kept-alive sockets: a read retries on a new connection, not on another dead one', async () => {
  const rig = await makeRig();
  const client = new WdaClient(rig.wda.url, { deviceLabel: 'simulator iPhone 15', startHint: 'start WebDriverAgent' });
  try {
    // Three reads at once leave three idle sockets in the pool.
    await Promise.all([client.status(), client.status(), client.status()]);
    await rig.wda.restart();
    const status = (await client.status()) as { ready?: unknown } | null;
    assert.ok(status && typeof status === 'object', JSON.stringify(status));
  } finally {
    client.close();
    await rig.close();
  }
});

test('WebDriverAgent absent: UI tools name the missing piece and the command that starts it; app tools still work', async () => {
  const rig = await makeRig({ wdaDown: true });
  try {
    const r = await rig.call('mobile_list_elements_on_screen');
    assert.is(r.code, 'UNSUPPORTED');
    assert.match(r.message, /WebDriverAgent is not running for simulator iPhone 15/);
    assert.match(r.message, new RegExp(`xcodebuild -project WebDriverAgent\\.xcodeproj -scheme WebDriverAgentRunner -destination 'platform=iOS Simulator,id=${SIM_UDID}' test`));
    assert.match(r.message, /--wda-project/);
    assert.ok((await rig.call('mobile_list_apps')).apps.length > 0);
    await rig.wda.start();
    assert.ok(Array.isArray((await rig.call('mobile_list_elements_on_screen')).elements), 'works once WDA is up');
  } finally {
    await rig.close();
  }
});

test('Xcode absent: no simulators, and a simulator id gets the install command', async () => {
  const rig = await makeRig({ bins: ['ios'] });
  try {
    assert.equal(await rig.engine.call('mobile_list_available_devices', {}), { devices: [] });
    const r = await rig.call('mobile_get_screen_size');
    assert.is(r.code, 'UNSUPPORTED');
    assert.match(r.message, /Xcode is not installed/);
    assert.match(r.message, /xcode-select -s/);
  } finally {
    await rig.close();
  }
});

test('Command Line Tools only (no Xcode selected): the error says to select Xcode', async () => {
  const rig = await makeRig({ xcodeSelected: false });
  try {
    const r = await rig.call('mobile_list_apps');
    assert.is(r.code, 'UNSUPPORTED');
    assert.match(r.message, /Xcode is not selected/);
  } finally {
    await rig.close();
  }
});

test('go-ios absent: an iPhone id gets the go-ios install command', async () => {
  const rig = await makeRig({ phone: { version: '17.4.1', tunnel: true }, bins: ['xcrun'] });
  try {
    const r = await rig.call('mobile_list_apps');
    assert.is(r.code, 'UNSUPPORTED');
    assert.match(r.message, new RegExp(`device ${PHONE_UDID} looks like an iOS device id, but go-ios is not installed`));
    assert.match(r.message, /npm install -g go-ios/);
  } finally {
    await rig.close();
  }
});

test('no tunnel on iOS 17+: launching and stopping apps name `sudo ios tunnel start`; listing apps and WDA (started by Xcode) work', async () => {
  const rig = await makeRig({ phone: { version: '17.4.1', tunnel: false } });
  try {
    // go-ios reaches installation_proxy, and WebDriverAgent is reached, through usbmuxd; only instruments needs the tunnel.
    assert.ok((await rig.call('mobile_list_apps')).apps.length > 0, 'ios apps needs no tunnel');
    assert.ok(Array.isArray((await rig.call('mobile_list_elements_on_screen')).elements), 'usbmuxd connections need no tunnel');
    for (const tool of ['mobile_launch_app', 'mobile_terminate_app']) {
      const r = await rig.call(tool, { packageName: 'com.mobilebridge.demo' });
      assert.is(r.code, 'UNSUPPORTED', `${tool}: ${JSON.stringify(r)}`);
      assert.match(r.message, /no go-ios tunnel to 00008110-001A2B3C4D5E801E, which runs iOS 17 or later/);
      assert.match(r.message, /sudo ios tunnel start/);
    }
    // `ios launch` runs once, to learn whether go-ios has it (WebDriverAgent would launch without a tunnel otherwise).
    assert.is(rig.tools.calls.filter((c) => c.startsWith('ios launch')).length, 1, 'asked once whether go-ios knows it');
    assert.not.ok('com.mobilebridge.demo' in rig.device.snapshot().tasks, 'nothing launched without a tunnel');
    // `ios kill` looks the bundle id up before it needs process control: an app that is not installed is said so.
    const missing = await rig.call('mobile_terminate_app', { packageName: 'com.example.gone' });
    assert.is(missing.code, 'APP_NOT_INSTALLED', JSON.stringify(missing));
  } finally {
    await rig.close();
  }
});

test('the emulated WDA refuses a pointer source without pointerType, as FBW3CActionsSynthesizer does (a mouse): the driver always says touch', async () => {
  const rig = await makeRig();
  const client = new WdaClient(rig.wda.url, { deviceLabel: 'simulator iPhone 15', startHint: 'start WebDriverAgent' });
  try {
    const pointer = (parameters?: object) => ({ type: 'pointer', id: 'finger1', ...(parameters ? { parameters } : {}), actions: [{ type: 'pointerMove', duration: 0, x: 10, y: 10 }, { type: 'pointerDown', button: 0 }, { type: 'pointerUp', button: 0 }] });
    const bare = await client.sessionCall('POST', '/actions', { actions: [pointer()] }).then(() => 'ok', (e: Error) => e.message);
    assert.match(bare, /Only pointer type 'touch' is supported\. 'mouse' is given instead/);
    assert.is(await client.sessionCall('POST', '/actions', { actions: [pointer({ pointerType: 'touch' })] }).then(() => 'ok', (e: Error) => e.message), 'ok');
    assert.is((await rig.call('mobile_click_on_screen_at_coordinates', { x: 10, y: 10 })).status, 'success');
  } finally {
    client.close();
    await rig.close();
  }
});

test('neither xcrun nor ios on PATH (Linux): the driver lists nothing, quietly', async () => {
  const rig = await makeRig({ bins: [] });
  const errors: unknown[] = [];
  const original = console.error;
  console.error = (...a: unknown[]) => errors.push(a);
  try {
    assert.equal(await rig.engine.call('mobile_list_available_devices', {}), { devices: [] });
    assert.equal(errors, []);
    assert.equal(rig.tools.calls, []);
  } finally {
    console.error = original;
    await rig.close();
  }
});

test('--wda-runner: a prebuilt runner is installed and launched with simctl when nothing answers', async () => {
  const runnerId = 'com.facebook.WebDriverAgentRunner.xctrunner';
  const rig = await makeRig({ wdaDown: true, onLaunch: (wda) => ({ [runnerId]: () => wda.start() }) });
  try {
    const runner = writeAppBundle(rig.dir, { bundleId: runnerId, name: 'WebDriverAgentRunner-Runner' });
    await rig.engine.close();
    const { createEngine } = await import('../../src/engine/create.js');
    const engine = createEngine({ virtual: false, ios: { wdaUrl: rig.wda.url, wdaStart: { runner } } });
    try {
      const r = (await engine.call('mobile_get_screen_size', { device: SIM_UDID })) as { width?: number };
      assert.is(r.width, 1179, JSON.stringify(r));
      assert.ok(rig.tools.calls.includes(`xcrun simctl install ${SIM_UDID} ${runner}`));
      assert.ok(rig.tools.calls.includes(`xcrun simctl launch ${SIM_UDID} ${runnerId}`));
    } finally {
      await engine.close();
    }
  } finally {
    await rig.close();
  }
});

test('WebDriverAgent stuck on one route: the TIMEOUT says which request it had not answered, and the next call is not stuck behind it', async () => {
  const rig = await makeRig({ timeoutMs: 1500 });
  try {
    await rig.call('mobile_launch_app', { packageName: 'com.mobilebridge.demo' });
    rig.wda.faults.hangOn = /^GET \/session\/:id\/source$/;
    const r = await rig.call('mobile_list_elements_on_screen');
    assert.is(r.code, 'TIMEOUT', JSON.stringify(r));
    assert.match(r.message, /^mobile_list_elements_on_screen on \S+ did not finish within 1500 ms; WebDriverAgent at http:\/\/\S+ had not answered GET \/session\/[^/]+\/source by then \(XCTest snapshots/);
    rig.wda.faults.hangOn = undefined;
    assert.is((await rig.call('mobile_click_on_screen_at_coordinates', { x: 10, y: 10 })).status, 'success');
  } finally {
    await rig.close();
  }
});

test.run();
