import { test } from 'uvu';
import * as assert from 'uvu/assert';

import { EmulatedWda } from '../harness/wda/emulated-wda.js';
import type { WdaJsonNode } from '../harness/wda/wda-tree.js';
import { find, makeRig, type Rig } from './rig.js';

/*
 * WDA builds from the W3C protocol (2019) until March 2020, and JSON Wire builds before them, refused element
 * lookups whose every match lay under an alert: "unexpected alert open" (HTTP 500), JSON Wire status 26.
 */

const DEMO = 'com.mobilebridge.demo';

function node(type: string, label: string, rect: WdaJsonNode['rect'], children: WdaJsonNode[] = []): WdaJsonNode {
  return {
    type, rawIdentifier: null, name: label, value: null, label, rect, frame: `{{${rect.x}, ${rect.y}}, {${rect.width}, ${rect.height}}}`,
    isEnabled: '1', isVisible: '1', isAccessible: '1', isFocused: '0', children,
  };
}

function alertOver(tree: WdaJsonNode): WdaJsonNode {
  const alert = node('Alert', 'Allow notifications?', { x: 60, y: 300, width: 270, height: 150 }, [
    node('Button', "Don't Allow", { x: 60, y: 400, width: 135, height: 50 }),
    node('Button', 'Allow', { x: 195, y: 400, width: 135, height: 50 }),
  ]);
  return { ...tree, children: [...(tree.children ?? []), node('Window', '', tree.rect, [alert])] };
}

async function typeUnderAlert(rig: Rig, wda: EmulatedWda): Promise<{ code?: string; message?: string; status?: string }> {
  await rig.call('mobile_launch_app', { packageName: DEMO });
  const { elements } = await rig.call('mobile_list_elements_on_screen');
  await rig.call('mobile_click_on_screen_at_coordinates', find(elements, 'Email').center);
  wda.faults.obstructingAlerts = true;
  wda.faults.decorateSource = alertOver;
  return rig.call('mobile_type_keys', { text: 'abc' });
}

test('typing while an alert covers the app on a 2019 WDA: told to answer the alert, nothing typed', async () => {
  const rig = await makeRig();
  try {
    const r = await typeUnderAlert(rig, rig.wda);
    assert.is(r.code, 'INTERNAL', JSON.stringify(r));
    assert.match(r.message ?? '', /an alert is open on .* answer the alert first/);
    assert.is(rig.device.fieldValue('email'), '');
    assert.not.ok(rig.wda.requests.includes('POST /session/:id/wda/keys'));
  } finally {
    await rig.close();
  }
});

test('the same on a JSON Wire WDA (HTTP 200, status 26)', async () => {
  const rig = await makeRig();
  const old = new EmulatedWda(rig.device, { legacy: true, name: 'iPhone 15' });
  await rig.wda.stop();
  await old.start(Number(new URL(rig.wda.url).port));
  try {
    const r = await typeUnderAlert(rig, old);
    assert.match(r.message ?? '', /an alert is open on .* answer the alert first/, JSON.stringify(r));
    assert.is(rig.device.fieldValue('email'), '');
  } finally {
    await old.stop();
    await rig.close();
  }
});

test.run();
