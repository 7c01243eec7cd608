import { test } from 'uvu';
import * as assert from 'uvu/assert';

import { runVerb, verbContext } from '../../src/engine/verbs/index.js';
import type { WdaJsonNode } from '../harness/wda/wda-tree.js';
import { makeRig } from './rig.js';

/** WDA snapshots the app only snapshotMaxDepth levels deep: deeper elements vanish without a word. */

const DEMO = 'com.mobilebridge.demo';

function wdaNode(type: string, label: string, children: WdaJsonNode[] = []): WdaJsonNode {
  const rect = { x: 40, y: 300, width: 200, height: 44 };
  return {
    type, rawIdentifier: null, name: label || null, value: null, label: label || null, rect, frame: `{{40, 300}, {200, 44}}`,
    isEnabled: '1', isVisible: '1', isAccessible: type === 'Other' ? '0' : '1', isFocused: '0', ...(children.length ? { children } : {}),
  };
}

/** A "Deep" button nested `levels` levels below the app (the app being level 1), as React Native nests views. */
function withDeepButton(tree: WdaJsonNode, levels: number): WdaJsonNode {
  let inner = wdaNode('Button', 'Deep');
  for (let i = 0; i < levels - 3; i++) inner = wdaNode('Other', '', [inner]);
  return { ...tree, children: [...(tree.children ?? []), wdaNode('Window', '', [inner])] };
}

test('a button within WDA\'s snapshot depth is listed, and the listing carries no depth note', async () => {
  const rig = await makeRig();
  try {
    await rig.call('mobile_launch_app', { packageName: DEMO });
    rig.wda.faults.decorateSource = (tree) => withDeepButton(tree, 30);
    const r = await rig.call('mobile_list_elements_on_screen');
    assert.ok((r.elements as { text: string }[]).some((e) => e.text === 'Deep'), JSON.stringify(r.elements));
    assert.is(r.note, undefined);
  } finally {
    await rig.close();
  }
});

test('a tree cut at WDA\'s snapshot depth: the listing says so, and so does ELEMENT_NOT_FOUND for the cut-off button', async () => {
  const rig = await makeRig();
  try {
    await rig.call('mobile_launch_app', { packageName: DEMO });
    rig.wda.faults.decorateSource = (tree) => withDeepButton(tree, 55);
    const r = await rig.call('mobile_list_elements_on_screen');
    assert.not.ok((r.elements as { text: string }[]).some((e) => e.text === 'Deep'), 'the emulated WDA cuts the tree at 50 levels as WDA does');
    assert.match(String(r.note), /snapshotMaxDepth 50\b/);
    assert.match(String(r.note), /elements nested deeper are cut off/);

    const ctx = await verbContext({ engine: rig.engine, device: (await rig.engine.listDevices())[0].id, targetWaitMs: 0 });
    const outcome = await runVerb(ctx, { action: 'tap', target: 'Deep' });
    assert.is(outcome.status, 'failed', JSON.stringify(outcome));
    assert.match(JSON.stringify(outcome), /ELEMENT_NOT_FOUND/);
    assert.match(JSON.stringify(outcome), /snapshot depth limit \(snapshotMaxDepth 50/);

    const scrolled = await rig.call('mobile_scroll_to_element', { element: 'deep_button' });
    assert.is(scrolled.code, 'ELEMENT_NOT_FOUND', JSON.stringify(scrolled));
    assert.match(scrolled.message, /snapshot depth limit \(snapshotMaxDepth 50/);
  } finally {
    await rig.close();
  }
});

/** Raises WDA's snapshotMaxDepth the way an Appium client sharing it would, through the open session; the value WDA answers. */
async function raiseDepth(wdaUrl: string, depth: number): Promise<number> {
  const { sessionId } = (await (await fetch(`${wdaUrl}/status`)).json()) as { sessionId: string };
  const set = await fetch(`${wdaUrl}/session/${sessionId}/appium/settings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ settings: { snapshotMaxDepth: depth } }) });
  return ((await set.json()) as { value: { snapshotMaxDepth: number } }).value.snapshotMaxDepth;
}

test('a raised snapshotMaxDepth setting lists the deep button, and the limit read back is the one WDA uses', async () => {
  const rig = await makeRig();
  try {
    await rig.call('mobile_launch_app', { packageName: DEMO });
    rig.wda.faults.decorateSource = (tree) => withDeepButton(tree, 55);
    await rig.call('mobile_list_elements_on_screen');
    assert.is(await raiseDepth(rig.wda.url, 60), 60);
    const r = await rig.call('mobile_list_elements_on_screen');
    assert.ok((r.elements as { text: string }[]).some((e) => e.text === 'Deep'), JSON.stringify(r.elements));
    assert.is(r.note, undefined);

    rig.wda.snapshotMaxDepth = 20;
    const low = await rig.call('mobile_list_elements_on_screen');
    assert.match(String(low.note), /snapshotMaxDepth 20\b/);
  } finally {
    await rig.close();
  }
});

test('a raised snapshotMaxDepth lasts one WDA session: after another client opens one, the depth is 50 again and the listing says so', async () => {
  const rig = await makeRig();
  try {
    await rig.call('mobile_launch_app', { packageName: DEMO });
    rig.wda.faults.decorateSource = (tree) => withDeepButton(tree, 55);
    await rig.call('mobile_list_elements_on_screen');
    await raiseDepth(rig.wda.url, 60);
    assert.ok(((await rig.call('mobile_list_elements_on_screen')).elements as { text: string }[]).some((e) => e.text === 'Deep'));

    // Another client (an Appium run) opens its own session: WDA ends ours and resets its session settings.
    const created = await fetch(`${rig.wda.url}/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ capabilities: {} }) });
    assert.is(created.status, 200);
    const r = await rig.call('mobile_list_elements_on_screen');
    assert.not.ok((r.elements as { text: string }[]).some((e) => e.text === 'Deep'), 'cut again at 50 levels');
    assert.match(String(r.note), /snapshotMaxDepth 50\b/);
    assert.match(String(r.note), /until a new WebDriverAgent session starts, which puts it back to 50/);
    assert.is(rig.wda.sessionsCreated, 2, 'ours, then the other client\'s, which ours then uses rather than replacing it');
  } finally {
    await rig.close();
  }
});

test.run();
