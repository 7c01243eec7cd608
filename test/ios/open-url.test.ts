import { test } from 'uvu';
import * as assert from 'uvu/assert';

import { makeRig, PHONE_UDID } from './rig.js';

/*
 * iPhones open URLs through WDA's POST /url (XCUIDevice+FBHelpers.m fb_openUrl). From iOS 16.4 a scheme no app handles
 * fails with FBResponseWithUnknownError (500 "unknown error"); before 16.4 WDA hands the URL to Siri and answers success.
 */

test('iPhone: a scheme no app handles is INVALID_PARAMETER with the simulator\'s hint, quoting WebDriverAgent', async () => {
  const rig = await makeRig({ phone: { version: '17.5', tunnel: true } });
  try {
    const r = await rig.call('mobile_open_url', { url: 'nosuchscheme://x' });
    assert.is(r.code, 'INVALID_PARAMETER', JSON.stringify(r));
    assert.match(r.message, new RegExp(`^${PHONE_UDID} could not open nosuchscheme://x: WebDriverAgent said: Error Domain=NSOSStatusErrorDomain Code=-10814 .*\\(is an app installed that handles this URL scheme\\?\\)$`));
    assert.equal(await rig.call('mobile_open_url', { url: 'https://example.com' }), { status: 'success', message: `opened https://example.com on ${PHONE_UDID}` });
  } finally {
    await rig.close();
  }
});

test('iPhone below iOS 16.4: WDA asks Siri and answers success; the message says nothing confirms the URL opened', async () => {
  const rig = await makeRig({ phone: { version: '16.3', tunnel: false }, wda: { osVersion: '16.3' } });
  try {
    const r = await rig.call('mobile_open_url', { url: 'https://example.com' });
    assert.is(r.status, 'success', JSON.stringify(r));
    assert.match(r.message, /^opened https:\/\/example\.com on .*; not confirmed: .* runs iOS 16\.3, below 16\.4, .*Siri \("Open \{https:\/\/example\.com\}"\).*nothing confirms that it opened/);
    assert.equal(rig.wda.siriRequests, ['Open {https://example.com}']);
  } finally {
    await rig.close();
  }
});

test('a runner built with an SDK below 16.4 falls back to Siri too, whatever the phone runs', async () => {
  const rig = await makeRig({ phone: { version: '17.5', tunnel: true }, wda: { sdkVersion: '16.2' } });
  try {
    const r = await rig.call('mobile_open_url', { url: 'https://example.com' });
    assert.match(r.message, /not confirmed: WebDriverAgent on .* was built with the iOS 16\.2 SDK, below 16\.4/);
  } finally {
    await rig.close();
  }
});

test.run();
