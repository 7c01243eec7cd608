import { test } from 'uvu';
import * as assert from 'uvu/assert';

import { createEngine } from '../../src/engine/create.js';
import { systemClock, VirtualDriver } from '../../src/engine/drivers/virtual/index.js';
import type { Engine } from '../../src/engine/engine.js';
import { EmulatedWda, type WdaFaults } from '../harness/wda/emulated-wda.js';
import { FEW_ROUTES } from './few-routes.js';

/** A phone reached only through its WebDriverAgent (--wda name=url), whose WDA answers only mobile-mcp's routes. */
async function withRemoteWda(faults: WdaFaults, body: (call: (tool: string, params?: Record<string, unknown>) => Promise<any>, wda: EmulatedWda) => Promise<void>): Promise<void> {
  const virtual = new VirtualDriver({ devices: ['ios'], clock: systemClock });
  const wda = new EmulatedWda(virtual.devices[0], { simulator: false });
  await wda.start();
  Object.assign(wda.faults, { onlyRoutes: FEW_ROUTES }, faults);
  const engine: Engine = createEngine({ virtual: false, ios: false, sources: { adb: [], wda: [{ name: 'lab', url: wda.url }], listTimeoutMs: 1000, firstRetryMs: 50, maxRetryMs: 200 } });
  try {
    await body((tool, params = {}) => engine.call(tool, { device: 'lab', ...params }), wda);
  } finally {
    await engine.close();
    await wda.stop();
  }
}

test('--wda without /wda/activeAppInfo: the app in front comes from the XML tree, else the answer says only its name is known', async () => {
  await withRemoteWda({}, async (call, wda) => {
    assert.is((await call('mobile_launch_app', { packageName: 'com.mobilebridge.demo' })).status, 'success');
    const named = await call('mobile_get_foreground_app');
    assert.is(named.code, 'UNSUPPORTED', JSON.stringify(named));
    assert.match(named.message, /lacks GET \/wda\/activeAppInfo, and its \/source shows the app in front only by name, "MobileBridge Demo"/);
    wda.faults.sourceFormats = ['xml'];
    assert.equal(await call('mobile_get_foreground_app'), { package: 'com.mobilebridge.demo' });
  });
});

test('--wda without /wda/apps/state: an app that died as it started is not reported launched (XML tree), and a launch /source cannot check says so', async () => {
  await withRemoteWda({ sourceFormats: ['xml'], crashOnLaunch: ['com.apple.Preferences'] }, async (call) => {
    assert.equal(await call('mobile_launch_app', { packageName: 'com.mobilebridge.demo' }), { status: 'success', message: 'launched com.mobilebridge.demo on lab' });
    const crashed = await call('mobile_launch_app', { packageName: 'com.apple.Preferences' });
    assert.is(crashed.code, 'INTERNAL', JSON.stringify(crashed));
    assert.match(crashed.message, /com\.apple\.Preferences did not come up on lab: .* reports Home Screen \(com\.apple\.springboard\) in front/);
  });
  await withRemoteWda({ crashOnLaunch: ['com.apple.Preferences'] }, async (call) => {
    const unsure = await call('mobile_launch_app', { packageName: 'com.apple.Preferences' });
    assert.is(unsure.status, 'success', JSON.stringify(unsure));
    assert.match(unsure.message, /not confirmed: WebDriverAgent on lab lacks GET \/wda\/activeAppInfo and POST \/wda\/apps\/state, and its \/source names the app in front only as "Home Screen"/);
  });
});

test('--wda with a /status without os: an opened URL says it is not confirmed, as the iOS version (below 16.4: Siri) is unknown', async () => {
  await withRemoteWda({ bareStatus: true }, async (call) => {
    const r = await call('mobile_open_url', { url: 'mbdemo://screen/settings' });
    assert.is(r.status, 'success', JSON.stringify(r));
    assert.match(r.message, /not confirmed: WebDriverAgent on lab does not report the iOS version/);
  });
  await withRemoteWda({}, async (call) => {
    assert.equal(await call('mobile_open_url', { url: 'mbdemo://screen/settings' }), { status: 'success', message: 'opened mbdemo://screen/settings on lab' });
  });
});

test.run();
