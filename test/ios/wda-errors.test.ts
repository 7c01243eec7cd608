import { test } from 'uvu';
import * as assert from 'uvu/assert';

import { find, makeRig } from './rig.js';

/** WebDriverAgent's own failures, as its handlers report them (FBExceptionHandler.m, FBElementCache.m, FBTypeText). */

const DEMO = 'com.mobilebridge.demo';

test('XCTest gets no snapshot of a launching app once: the listing is asked again and succeeds', async () => {
  const rig = await makeRig();
  try {
    await rig.call('mobile_launch_app', { packageName: DEMO });
    rig.wda.faults.snapshotFailures = 1;
    const before = rig.wda.requests.length;
    const r = await rig.call('mobile_list_elements_on_screen');
    assert.ok(Array.isArray(r.elements) && r.elements.length > 0, JSON.stringify(r).slice(0, 300));
    assert.is(rig.wda.requests.slice(before).filter((q) => q === 'GET /session/:id/source').length, 2);
  } finally {
    await rig.close();
  }
});

test('no snapshot twice (the app keeps changing or crashed): an error that says so, not a bare "stale element reference"', async () => {
  const rig = await makeRig();
  try {
    await rig.call('mobile_launch_app', { packageName: DEMO });
    rig.wda.faults.snapshotFailures = 2;
    const r = await rig.call('mobile_list_elements_on_screen');
    assert.is(r.code, 'INTERNAL', JSON.stringify(r));
    assert.match(r.message, /could not read the app in front/);
    assert.match(r.message, /launches, closes or has just crashed; call again in a moment/);
    assert.ok(Array.isArray((await rig.call('mobile_list_elements_on_screen')).elements), 'the next call works');
  } finally {
    await rig.close();
  }
});

test('a tree XCTest refuses to snapshot (kAXErrorIllegalArgument, too deep): said so at once, not "call again in a moment"', async () => {
  const rig = await makeRig();
  try {
    await rig.call('mobile_launch_app', { packageName: DEMO });
    rig.wda.faults.treeTooDeep = true;
    const before = rig.wda.requests.length;
    const r = await rig.call('mobile_list_elements_on_screen');
    assert.is(r.code, 'INTERNAL', JSON.stringify(r));
    assert.match(r.message, /refused to snapshot its accessibility tree \(kAXErrorIllegalArgument\).*asking again will not help/);
    assert.not.match(r.message, /call again in a moment/);
    assert.is(rig.wda.requests.slice(before).filter((q) => q === 'GET /session/:id/source').length, 1, 'not asked twice');
  } finally {
    await rig.close();
  }
});

test('typing that XCTest fails to synthesize into a focused field is not called "no field focused"', async () => {
  const rig = await makeRig();
  try {
    await rig.call('mobile_launch_app', { packageName: DEMO });
    await rig.call('mobile_open_url', { url: 'mbdemo://screen/signin' });
    await rig.call('mobile_click_on_screen_at_coordinates', find((await rig.call('mobile_list_elements_on_screen')).elements, 'Email').center);
    rig.wda.faults.typingFails = 'Error Domain=com.apple.dt.xctest.ui-testing.error Code=10000 "Failed to synthesize event"';
    const r = await rig.call('mobile_type_keys', { text: 'abc' });
    assert.is(r.code, 'INTERNAL', JSON.stringify(r));
    assert.match(r.message, /could not type/);
    assert.match(r.message, /Failed to synthesize event/);
    assert.not.match(r.message, /tap a field first|no text field is focused/);
  } finally {
    await rig.close();
  }
});

test('clear_first when the session ended between finding the field and clearing it: the field is found again and cleared', async () => {
  const rig = await makeRig();
  try {
    await rig.call('mobile_launch_app', { packageName: DEMO });
    await rig.call('mobile_open_url', { url: 'mbdemo://screen/signin' });
    await rig.call('mobile_click_on_screen_at_coordinates', find((await rig.call('mobile_list_elements_on_screen')).elements, 'Email').center);
    await rig.call('mobile_type_keys', { text: 'old@example.org' });
    let taken = false;
    rig.wda.faults.afterAnswer = (request) => {
      if (request !== 'GET /session/:id/element/active' || taken) return;
      taken = true;
      void rig.wda.foreignSession();
    };
    const r = await rig.call('mobile_type_keys', { text: 'new@example.com', clear_first: true });
    assert.is(r.status, 'success', JSON.stringify(r));
    assert.is(rig.device.fieldValue('email'), 'new@example.com');
    assert.ok(taken);
  } finally {
    await rig.close();
  }
});

test.run();
