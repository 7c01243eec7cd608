import { test } from 'uvu';
import * as assert from 'uvu/assert';

import { EmulatedWda } from '../harness/wda/emulated-wda.js';
import { makeRig } from './rig.js';

/** How the emulated WDA routes what it does not serve, as appium/WebDriverAgent 16.7.0 does (FBHTTPServer.m, FBUnknownCommands.m). */

async function get(url: string, init?: RequestInit): Promise<{ status: number; body: any }> {
  const r = await fetch(url, init);
  return { status: r.status, body: await r.json() };
}

test('an unknown route: 404 "unknown command", the bare path and the wildcard plus query items as NSDictionary prints them', async () => {
  const rig = await makeRig();
  try {
    const r = await get(`${rig.wda.url}/wda/nope?b=1&a=x-y`);
    assert.is(r.status, 404);
    assert.equal(r.body, {
      value: { error: 'unknown command', message: 'Unhandled endpoint: /wda/nope with parameters {\n    a = "x-y";\n    b = 1;\n    wildcards = "wda/nope";\n}', traceback: '' },
      sessionId: null,
    });
  } finally {
    await rig.close();
  }
});

test('GET /status and POST /session exist without a session only: under one they are unknown commands, whatever the id', async () => {
  const rig = await makeRig();
  try {
    await rig.call('mobile_get_orientation');
    const { sessionId } = (await get(`${rig.wda.url}/status`)).body as { sessionId: string };
    const status = await get(`${rig.wda.url}/session/${sessionId}/status`);
    assert.equal([status.status, status.body.value.error, status.body.sessionId], [404, 'unknown command', sessionId]);
    const created = await get(`${rig.wda.url}/session/${sessionId}/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"capabilities":{}}' });
    assert.equal([created.status, created.body.value.error], [404, 'unknown command']);
    assert.is(rig.wda.sessionsCreated, 1, 'no session was opened by it');
  } finally {
    await rig.close();
  }
});

test('a build before 2024 (RoutingHTTPServer) printed the URL against the server and the wildcards as an array', async () => {
  const rig = await makeRig();
  const old = new EmulatedWda(rig.device, { before2024: true });
  await old.start();
  try {
    const r = await get(`${old.url}/wda/nope`);
    assert.is(r.body.value.message, `Unhandled endpoint: /wda/nope -- ${old.url}/ with parameters {\n    wildcards =     (\n        "wda/nope"\n    );\n}`);
  } finally {
    await old.stop();
    await rig.close();
  }
});

test('/wda/activeAppInfo carries the process arguments WDA knows: none for an app it did not launch', async () => {
  const rig = await makeRig();
  try {
    await rig.call('mobile_launch_app', { packageName: 'com.mobilebridge.demo' });
    const { body } = await get(`${rig.wda.url}/wda/activeAppInfo`);
    assert.equal(body.value, { pid: 4242, bundleId: 'com.mobilebridge.demo', name: '', processArguments: { args: [], env: {} } });
  } finally {
    await rig.close();
  }
});

test('answers are NSJSONSerialization\'s pretty-printed JSON with "/" escaped, under FBWebServer.m\'s default headers', async () => {
  const rig = await makeRig();
  try {
    const r = await fetch(`${rig.wda.url}/wda/nope`);
    assert.equal(
      [r.headers.get('content-type'), r.headers.get('server'), r.headers.get('access-control-allow-origin'), r.headers.get('access-control-allow-headers')],
      ['application/json;charset=UTF-8', 'WebDriverAgent/1.0', '*', 'Content-Type, X-Requested-With'],
    );
    const text = await r.text();
    assert.ok(text.startsWith('{\n  "value" : {\n'), text);
    assert.ok(text.includes('"message" : "Unhandled endpoint: \\/wda\\/nope with parameters'), text);
    // The driver reads such answers: a screenshot's base64 is full of escaped slashes.
    assert.equal((await rig.call('mobile_take_screenshot')).dimensions, { width: rig.device.size.width, height: rig.device.size.height });
  } finally {
    await rig.close();
  }
});

test.run();
