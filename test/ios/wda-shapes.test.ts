import { test } from 'uvu';
import * as assert from 'uvu/assert';

import { iosSetupFromFlags } from '../../src/engine/drivers/ios/setup.js';
import { parseWdaSource } from '../../src/engine/sources/index.js';
import type { WdaFaults } from '../harness/wda/wda-faults.js';
import type { WdaJsonNode } from '../harness/wda/wda-tree.js';
import { find, makeRig, type Rig } from './rig.js';

/* WebDriverAgent answers shaped otherwise than 16.7.0's, as older builds, emulations and what stands in front of WDA send them. */

async function withShapes(faults: WdaFaults, body: (rig: Rig) => Promise<void>): Promise<void> {
  const rig = await makeRig();
  Object.assign(rig.wda.faults, faults);
  try {
    await body(rig);
  } finally {
    await rig.close();
  }
}

const count = (rig: Rig, request: string) => rig.wda.requests.filter((r) => r === request).length;

test('a /wda/screen without scale: the scale is the screenshot\'s pixels per point, read once, and sizes and taps are right', () =>
  withShapes({ screenWithoutScale: true }, async (rig) => {
    assert.equal(await rig.call('mobile_get_screen_size'), { width: rig.device.size.width, height: rig.device.size.height });
    await rig.call('mobile_launch_app', { packageName: 'com.mobilebridge.demo' });
    const { elements } = await rig.call('mobile_list_elements_on_screen');
    await rig.call('mobile_click_on_screen_at_coordinates', find(elements, 'Email').center);
    assert.is(rig.device.focusedField, 'email', 'the tap landed on the field');
    assert.is(count(rig, 'GET /screenshot'), 1, JSON.stringify(rig.wda.requests));
  }));

test('a switch whose /source value is a JSON boolean (WDA before July 2017) is listed checked when on, unchecked when off', () =>
  withShapes({ booleanValues: true }, async (rig) => {
    await rig.call('mobile_launch_app', { packageName: 'com.apple.Preferences' });
    const wifi = () => rig.call('mobile_list_elements_on_screen').then(({ elements }) => find(elements, 'Wi-Fi'));
    const on = await wifi();
    assert.is(on.checked, true, JSON.stringify(on));
    await rig.call('mobile_click_on_screen_at_coordinates', on.center);
    assert.is((await wifi()).checked, false);
  }));

test('a proxy in front of a WebDriverAgent that does not answer (HTTP 502 with its HTML page) is WDA not answering, with how to start it', () =>
  withShapes({}, async (rig) => {
    assert.type((await rig.call('mobile_take_screenshot')).image, 'string');
    rig.wda.faults.proxyAnswers = 502;
    const shot = await rig.call('mobile_take_screenshot');
    assert.is(shot.code, 'UNSUPPORTED', JSON.stringify(shot));
    assert.match(shot.message, /WebDriverAgent is not answering for simulator .*HTTP 502 Bad Gateway/);
    assert.match(shot.message, /xcodebuild -project WebDriverAgent.xcodeproj/);
    rig.wda.faults.proxyAnswers = undefined;
    assert.type((await rig.call('mobile_take_screenshot')).image, 'string', 'answers again once WDA is back');
  }));

function other(label: string, accessible: boolean, rect: WdaJsonNode['rect'], children: WdaJsonNode[] = []): WdaJsonNode {
  const frame = `{{${rect.x}, ${rect.y}}, {${rect.width}, ${rect.height}}}`;
  return { type: 'Other', rawIdentifier: null, name: label, value: null, label, rect, frame, isEnabled: '1', isVisible: '1', isAccessible: accessible ? '1' : '0', isFocused: '0', ...(children.length ? { children } : {}) };
}

for (const format of ['json', 'xml'] as const) test(`a WebDriverAgent from before April 2021 (no isAccessible, ${format}): a labelled view without children (an icon button) is listed and tappable, a container is not`, () =>
  withShapes({ withoutIsAccessible: true, sourceFormats: [format] }, async (rig) => {
    await rig.call('mobile_launch_app', { packageName: 'com.mobilebridge.demo' });
    // React Native's shapes: an icon-only touchable (accessible, no children), a header whose label is its text's.
    const text: WdaJsonNode = { ...other('Sneakers', true, { x: 20, y: 700, width: 120, height: 20 }), type: 'StaticText', value: 'Sneakers' };
    rig.wda.faults.decorateSource = (tree) => {
      const [window, ...rest] = tree.children ?? [];
      const added = [other('Favorite', true, { x: 330, y: 700, width: 44, height: 44 }), other('Sneakers', false, { x: 20, y: 700, width: 200, height: 20 }, [text])];
      return { ...tree, children: [{ ...window, children: [...(window.children ?? []), ...added] }, ...rest] };
    };
    const { elements } = await rig.call('mobile_list_elements_on_screen');
    const favorite = find(elements, 'Favorite');
    assert.is(favorite.clickable, true, JSON.stringify(favorite));
    assert.is(elements.filter((e: { text: string; accessibility_label: string | null }) => e.text === 'Sneakers' || e.accessibility_label === 'Sneakers').length, 1, JSON.stringify(elements));
  }));

test('a sparse JSON tree (prefixed types, absent flags, names and values, numbers for digits) lists and types as the full one', async () => {
  const full = await makeRig();
  let expected: unknown;
  try {
    await full.call('mobile_launch_app', { packageName: 'com.mobilebridge.demo' });
    expected = await full.call('mobile_list_elements_on_screen');
  } finally {
    await full.close();
  }
  await withShapes({ sparseJson: true }, async (rig) => {
    await rig.call('mobile_launch_app', { packageName: 'com.mobilebridge.demo' });
    const listing = await rig.call('mobile_list_elements_on_screen');
    assert.equal(listing, expected);
    await rig.call('mobile_click_on_screen_at_coordinates', find(listing.elements, 'Email').center);
    assert.is((await rig.call('mobile_type_keys', { text: 'me@example.com' })).status, 'success');
    assert.is(rig.device.fieldValue('email'), 'me@example.com');
    await rig.call('mobile_launch_app', { packageName: 'com.apple.Preferences' });
    assert.is(find((await rig.call('mobile_list_elements_on_screen')).elements, 'Wi-Fi').checked, true, 'a switch valued 1');
  });
});

test('an XML /source: a label with a line break or tab (libxml2 writes them as &#10; and &#9;) reads as in the JSON tree', async () => {
  const twoLines: WdaJsonNode = { ...other('Free shipping\non orders\tover $50', true, { x: 20, y: 700, width: 300, height: 40 }), type: 'StaticText', value: 'Free shipping\non orders\tover $50' };
  const decorate = (tree: WdaJsonNode): WdaJsonNode => {
    const [window, ...rest] = tree.children ?? [];
    return { ...tree, children: [{ ...window, children: [...(window.children ?? []), twoLines] }, ...rest] };
  };
  const listed = async (faults: WdaFaults) => {
    let texts: string[] = [];
    await withShapes({ ...faults, decorateSource: decorate }, async (rig) => {
      texts = (await rig.call('mobile_list_elements_on_screen')).elements.map((e: { text: string }) => e.text);
    });
    return texts;
  };
  const fromJson = await listed({});
  assert.ok(fromJson.includes('Free shipping\non orders\tover $50'), JSON.stringify(fromJson));
  assert.equal(await listed({ sourceFormats: ['xml'] }), fromJson);
});

test('a screenshot in 64-character base64 lines (WDA before October 2022) is read, also for the scale of a /wda/screen without one', () =>
  withShapes({ base64Lines: true, screenWithoutScale: true }, async (rig) => {
    const shot = await rig.call('mobile_take_screenshot');
    assert.type(shot.image, 'string', JSON.stringify(shot).slice(0, 300));
    assert.equal(await rig.call('mobile_get_screen_size'), { width: rig.device.size.width, height: rig.device.size.height });
  }));

test('a WebDriverAgent URL with a path (a proxy serving WDA under /iphone1/) keeps the path in --wda-url and --wda', () => {
  assert.equal(iosSetupFromFlags({ wdaUrl: 'http://gateway:8080/iphone1/' }), { wdaUrl: 'http://gateway:8080/iphone1' });
  assert.equal(parseWdaSource('lab=http://gateway:8080/farm/iphone1'), { name: 'lab', url: 'http://gateway:8080/farm/iphone1' });
});

test('behind a proxy serving WebDriverAgent under a path, every request goes under that path', async () => {
  const rig = await makeRig({ wdaPath: '/iphone1' });
  try {
    await rig.call('mobile_launch_app', { packageName: 'com.mobilebridge.demo' });
    const { elements } = await rig.call('mobile_list_elements_on_screen');
    assert.is((await rig.call('mobile_click_on_screen_at_coordinates', find(elements, 'Email').center)).status, 'success');
    assert.is(rig.device.focusedField, 'email');
  } finally {
    await rig.close();
  }
});

test.run();
