import { test } from 'uvu';
import * as assert from 'uvu/assert';

import { makeRig, PHONE_UDID, SIM_UDID } from './rig.js';

/*
 * `simctl launch` ("<id>: <pid>", exit 0) and `ios launch` ("Process launched") answer once the process exists.
 * An app that dies right after (a build for another platform or architecture: facebook/idb#261) looks launched
 * to them; WebDriverAgent then reports SpringBoard in front and the app not running. The launch is confirmed
 * through WDA, and refused with the app in front named when it did not come up.
 */

const DEMO = 'com.mobilebridge.demo';

test('simulator: an app that dies right after `simctl launch` is INTERNAL naming SpringBoard in front, not "launched"', async () => {
  const rig = await makeRig({ crashOnLaunch: [DEMO] });
  try {
    const r = await rig.call('mobile_launch_app', { packageName: DEMO });
    assert.is(r.code, 'INTERNAL', JSON.stringify(r));
    assert.match(r.message, /com\.mobilebridge\.demo did not come up on .*`simctl launch` started it, but 2 s later WebDriverAgent reports com\.apple\.springboard in front and com\.mobilebridge\.demo is not running \(XCUIApplicationState 1\).*crashed while starting/);
    assert.ok(rig.wda.requests.includes('GET /wda/activeAppInfo'));
    assert.ok(rig.wda.requests.includes('POST /session/:id/wda/apps/state'));
  } finally {
    await rig.close();
  }
});

test('iPhone: an app that dies right after `ios launch` is INTERNAL naming the app in front', async () => {
  const rig = await makeRig({ phone: { version: '16.7', tunnel: false }, crashOnLaunch: [DEMO] });
  try {
    const r = await rig.call('mobile_launch_app', { packageName: DEMO });
    assert.is(r.code, 'INTERNAL', JSON.stringify(r));
    assert.match(r.message, new RegExp(`com\\.mobilebridge\\.demo did not come up on ${PHONE_UDID}: \`ios launch\` started it, but .*com\\.apple\\.springboard in front`));
  } finally {
    await rig.close();
  }
});

test('a launch WebDriverAgent sees in front is plain success, with no note', async () => {
  const rig = await makeRig();
  try {
    assert.equal(await rig.call('mobile_launch_app', { packageName: DEMO }), { status: 'success', message: `launched ${DEMO} on ${SIM_UDID}` });
  } finally {
    await rig.close();
  }
});

test('WebDriverAgent down: the launch stands, and the message says nothing confirmed it', async () => {
  const rig = await makeRig({ wdaDown: true });
  try {
    const r = await rig.call('mobile_launch_app', { packageName: DEMO });
    assert.is(r.status, 'success', JSON.stringify(r));
    assert.match(r.message, /^launched com\.mobilebridge\.demo on .*; not confirmed: WebDriverAgent on .* could not be asked, and `simctl launch` only reports that it started the process/);
    assert.is(rig.device.foregroundPackage, DEMO);
  } finally {
    await rig.close();
  }
});

test.run();
