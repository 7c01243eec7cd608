import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createEngine } from '../../src/engine/create.js';
import type { DevicesChange } from '../../src/engine/driver.js';
import { systemClock, VirtualDriver } from '../../src/engine/drivers/virtual/index.js';
import { EmulatedWda } from '../harness/wda/emulated-wda.js';
import { deadPort } from '../support/dead-port.js';

test('--wda name=url: an iPhone reached only over the network, down and back by itself', async () => {
  const virtual = new VirtualDriver({ devices: ['ios'], clock: systemClock });
  const wda = new EmulatedWda(virtual.devices[0]);
  await wda.start();
  const engine = createEngine({ virtual: false, ios: false, sources: { adb: [], wda: [{ name: 'lab-iphone', url: wda.url }], listTimeoutMs: 1000, firstRetryMs: 50, maxRetryMs: 200 } });
  const changes: DevicesChange[] = [];
  engine.onDevicesChanged((c) => changes.push(c));
  try {
    const [listed] = await engine.listDevices();
    assert.equal({ id: listed.id, os: listed.os, source: listed.source, state: listed.state }, { id: 'lab-iphone', os: 'iOS', source: 'lab-iphone', state: 'ready' });
    await virtual.devices[0].launchApp('com.mobilebridge.demo', { signal: AbortSignal.timeout(2000) });
    const elements = (await engine.call('mobile_list_elements_on_screen', { device: 'lab-iphone' })) as { elements?: unknown[] };
    assert.ok(elements.elements?.length, JSON.stringify(elements).slice(0, 300));
    const apps = (await engine.call('mobile_list_apps', { device: 'lab-iphone' })) as { code?: string; message?: string };
    assert.is(apps.code, 'UNSUPPORTED');
    assert.match(apps.message ?? '', /--peer/);
    // WDA's /wda/apps/terminate answers whether the app was running.
    const stop = () => engine.call('mobile_terminate_app', { device: 'lab-iphone', packageName: 'com.mobilebridge.demo' }) as Promise<{ message?: string }>;
    assert.is((await stop()).message, 'terminated com.mobilebridge.demo on lab-iphone');
    assert.is((await stop()).message, 'com.mobilebridge.demo was not running on lab-iphone; nothing to terminate');
    // WDA answers "invalid argument" with FBSOpenApplication's "returned nil for" when the phone lacks the app.
    const missing = (await engine.call('mobile_launch_app', { device: 'lab-iphone', packageName: 'com.example.absent' })) as { code?: string; message?: string };
    assert.is(missing.code, 'APP_NOT_INSTALLED', JSON.stringify(missing));
    assert.match(missing.message ?? '', /com\.example\.absent is not installed on lab-iphone/);

    await wda.stop();
    const [down] = await engine.listDevices();
    assert.is(down.state, 'offline');
    assert.match(down.message ?? '', /source lab-iphone \(WebDriverAgent http:\/\/127\.0\.0\.1:\d+\) is unreachable/);
    const refused = (await engine.call('mobile_take_screenshot', { device: 'lab-iphone' })) as { code?: string };
    assert.is(refused.code, 'DEVICE_NOT_FOUND');

    changes.length = 0;
    await wda.start();
    const until = Date.now() + 10_000;
    while (!changes.some((c) => c.added.some((d) => d.id === 'lab-iphone' && d.state === 'ready')) && Date.now() < until) await new Promise((r) => setTimeout(r, 25));
    assert.ok(changes.some((c) => c.added.some((d) => d.id === 'lab-iphone' && d.state === 'ready')), 'announced ready again without a listing');
  } finally {
    await engine.close();
    await wda.stop();
  }
});

test('--wda name=url: WDA answers a launch with success even when the app died at start; the state it then reports is believed, not the answer', async () => {
  const virtual = new VirtualDriver({ devices: ['ios'], clock: systemClock });
  const wda = new EmulatedWda(virtual.devices[0]);
  await wda.start();
  const engine = createEngine({ virtual: false, ios: false, sources: { adb: [], wda: [{ name: 'lab-iphone', url: wda.url }], listTimeoutMs: 1000, firstRetryMs: 50, maxRetryMs: 200 } });
  try {
    const launch = () => engine.call('mobile_launch_app', { device: 'lab-iphone', packageName: 'com.mobilebridge.demo' }) as Promise<{ status?: string; code?: string; message?: string }>;
    assert.is((await launch()).status, 'success');
    await engine.call('mobile_terminate_app', { device: 'lab-iphone', packageName: 'com.mobilebridge.demo' });
    wda.faults.crashOnLaunch = ['com.mobilebridge.demo'];
    const crashed = await launch();
    assert.is(crashed.code, 'INTERNAL', JSON.stringify(crashed));
    assert.match(crashed.message ?? '', /WebDriverAgent said it launched com\.mobilebridge\.demo on lab-iphone, but the app is not running \(XCUIApplicationState 1\)/);
    assert.ok(wda.requests.includes('POST /session/:id/wda/apps/state'));
  } finally {
    await engine.close();
    await wda.stop();
  }
});

test('--wda name=url down from the start: the phone is listed offline with the reason, and announced ready once WDA answers', async () => {
  const virtual = new VirtualDriver({ devices: ['ios'], clock: systemClock });
  const wda = new EmulatedWda(virtual.devices[0]);
  const port = await deadPort();
  const engine = createEngine({ virtual: false, ios: false, sources: { adb: [], wda: [{ name: 'desk-iphone', url: `http://127.0.0.1:${port}` }], listTimeoutMs: 1000, firstRetryMs: 50, maxRetryMs: 200 } });
  const changes: DevicesChange[] = [];
  engine.onDevicesChanged((c) => changes.push(c));
  try {
    const listed = await engine.listDevices();
    assert.equal(
      listed.map((d) => ({ id: d.id, os: d.os, source: d.source, state: d.state })),
      [{ id: 'desk-iphone', os: 'iOS', source: 'desk-iphone', state: 'offline' }],
    );
    assert.match(listed[0].message ?? '', `source desk-iphone (WebDriverAgent http://127.0.0.1:${port}) is unreachable`);
    const refused = (await engine.call('mobile_take_screenshot', { device: 'desk-iphone' })) as { code?: string; message?: string };
    assert.is(refused.code, 'DEVICE_NOT_FOUND');
    assert.match(refused.message ?? "", /unreachable/, JSON.stringify(refused));

    await wda.start(port);
    const until = Date.now() + 10_000;
    const ready = () => changes.some((c) => c.added.some((d) => d.id === 'desk-iphone' && d.state === 'ready'));
    while (!ready() && Date.now() < until) await new Promise((r) => setTimeout(r, 25));
    assert.ok(ready(), 'announced ready without a listing');
  } finally {
    await engine.close();
    await wda.stop();
  }
});

test.run();
