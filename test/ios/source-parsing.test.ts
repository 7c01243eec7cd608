import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

import { mapXcuiType, parseWdaSource, wdaToUiNode } from '../../src/engine/drivers/ios/wda-source.js';
import { elementsFromTree } from '../../src/engine/ui-tree.js';

const fixture = (name: string) => readFileSync(new URL(`../../../test/fixtures/ios/${name}`, import.meta.url), 'utf8');

/** [id, type, text, accessibility_label, centre x, centre y] in pixels at scale 3 (393×852 pt → 1179×2556 px). */
type Row = [string, string, string, string | null, number, number];

// Hand-checked against the fixtures: hidden (isVisible "0"), zero-size and off-screen nodes are absent,
// plain containers (Application, Window, NavigationBar, non-accessible Other) are absent,
// accessible React Native "Other"s are kept.
const EXPECTED: Record<string, Row[]> = {
  'uikit': [
    ['BackButton','button','Back','Back',129,243],
    ['n0.0.0.0.1','text','Sign in','Sign in',590,243],
    ['logo','image','Shop logo','Shop logo',588,540],
    ['email_field','edittext','Email',null,590,846],
    ['password_field','edittext','••••••','Password',590,1014],
    ['remember_switch','switch','Remember me','Remember me',1037,1175],
    ['n0.0.0.5','text','Remember me','Remember me',372,1173],
    ['sign_in_button','button','Sign in','Sign in',590,1365],
    ['n0.0.0.8','link','Forgot password?','Forgot password?',590,1530],
    ['recent_table','list','',null,590,2088],
    ['recent_1','listitem','',null,590,1710],
    ['n0.0.0.9.0.0.0','text','alice@example.com','alice@example.com',348,1707],
  ],
  'swiftui': [
    ['n0.0.0.0.0','text','Settings','Settings',273,371],
    ['n0.0.0.1','list','',null,590,1386],
    ['n0.0.0.1.0','listitem','',null,590,591],
    ['n0.0.0.1.0.0','image','wifi','wifi',132,591],
    ['wifi_row','button','Wi-Fi, Home Network','Wi-Fi, Home Network',590,591],
    ['n0.0.0.1.1','listitem','',null,590,723],
    ['airplane_toggle','switch','Airplane Mode','Airplane Mode',590,723],
    ['n0.0.0.1.1.0.0','switch','',null,1013,722],
    ['n0.0.0.1.2','listitem','',null,590,855],
    ['n0.0.0.1.2.0','text','Version','Version',276,855],
    ['n0.0.0.1.2.1','text','17.5','17.5',990,855],
    ['settings_search','edittext','',null,590,1014],
    ['n0.0.0.2.0','button','General','General',197,2381],
    ['n0.0.0.2.1','button','Privacy','Privacy',590,2381],
    ['n0.0.0.2.2','button','About','About',983,2381],
  ],
  'react-native': [
    ['n0.0.0.0.0.0','text','Sneakers','Sneakers',348,267],
    ['price','text','$89.00','$89.00',228,1596],
    ['add-button','other','Add to cart','Add to cart',590,1758],
    ['n0.0.0.0.3.0','text','Add to cart','Add to cart',585,1758],
    ['qty-input','edittext','1',null,590,1956],
    ['n0.0.0.0.5','other','Favorite','Favorite',114,2136],
    ['n0.0.0.0.6','list','',null,590,2388],
    ['related-1','other','Boots','Boots',228,2385],
    ['related-2','other','Sandals','Sandals',618,2385],
  ],
};

for (const [name, rows] of Object.entries(EXPECTED)) {
  test(`${name} /source JSON becomes the expected element list`, () => {
    const envelope = JSON.parse(fixture(`${name}-source.json`)) as { value: unknown };
    const elements = elementsFromTree(wdaToUiNode(parseWdaSource(envelope.value), 3), { width: 1179, height: 2556 });
    assert.equal(
      elements.map((e) => [e.id, e.type, e.text, e.accessibility_label, e.center.x, e.center.y]),
      rows,
    );
  });
}

test('points become pixels with the screen scale (bounds rounded)', () => {
  const node = parseWdaSource({ type: 'Button', label: 'Go', rect: { x: 10.5, y: 20, width: 100, height: 44.3 }, isVisible: '1', isEnabled: '1' });
  assert.equal(wdaToUiNode(node, 2).bounds, { x: 21, y: 40, width: 200, height: 89 });
  assert.equal(wdaToUiNode(node, 3).bounds, { x: 32, y: 60, width: 300, height: 133 });
});

test('switch state, disabled buttons, focus and placeholders are carried over', () => {
  const envelope = JSON.parse(fixture('swiftui-source.json')) as { value: unknown };
  const elements = elementsFromTree(wdaToUiNode(parseWdaSource(envelope.value), 3), { width: 1179, height: 2556 });
  const byId = new Map(elements.map((e) => [e.id, e]));
  assert.is(byId.get('airplane_toggle')?.checked, false);
  assert.is(byId.get('n0.0.0.2.2')?.enabled, false);
  assert.is(byId.get('settings_search')?.hint, 'Search');
  assert.is(byId.get('settings_search')?.text, '');
  assert.is(byId.get('wifi_row')?.class, 'XCUIElementTypeButton');
  assert.is(byId.get('wifi_row')?.resource_id, 'wifi_row');
});

test('XCUIElementType names map to the SPEC vocabulary, with or without prefix', () => {
  assert.is(mapXcuiType('XCUIElementTypeSecureTextField'), 'edittext');
  assert.is(mapXcuiType('SearchField'), 'edittext');
  assert.is(mapXcuiType('StaticText'), 'text');
  assert.is(mapXcuiType('Cell'), 'listitem');
  assert.is(mapXcuiType('Switch'), 'switch');
  assert.is(mapXcuiType('Link'), 'link');
  assert.is(mapXcuiType('Alert'), 'dialog');
  assert.is(mapXcuiType('Window'), 'other');
});

test('a /source tree of the wrong shape is one INTERNAL error naming where', () => {
  try {
    parseWdaSource({ type: 'Application', rect: { x: 0, y: 0, width: 1, height: 1 }, children: [{ type: 'Button' }] });
    assert.unreachable('should have thrown');
  } catch (err) {
    assert.match((err as Error).message, /children\.0/);
    assert.is((err as { code?: string }).code, 'INTERNAL');
  }
});

test.run();
