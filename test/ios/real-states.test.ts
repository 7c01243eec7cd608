import { test } from 'uvu';
import * as assert from 'uvu/assert';

import { goIosError } from '../../src/engine/drivers/ios/go-ios.js';
import { runVerb, verbContext } from '../../src/engine/verbs/index.js';
import type { WdaJsonNode } from '../harness/wda/wda-tree.js';
import { find, makeRig, PHONE_UDID } from './rig.js';
import { writeIpa } from '../harness/ipa-builder.js';

/** The states real iPhones and WebDriverAgent builds get into (issue 15), reproduced in the emulations. */

const DEMO = 'com.mobilebridge.demo';

function wdaNode(type: string, label: string, rect: WdaJsonNode['rect'], children: WdaJsonNode[] = []): WdaJsonNode {
  return {
    type, rawIdentifier: null, name: label, value: null, label, rect, frame: `{{${rect.x}, ${rect.y}}, {${rect.width}, ${rect.height}}}`,
    isEnabled: '1', isVisible: '1', isAccessible: '1', isFocused: '0', children,
  };
}

/** Appends a window on top of the app's, as iOS adds the keyboard's or an alert's. */
function withTopWindow(tree: WdaJsonNode, content: WdaJsonNode): WdaJsonNode {
  const screen = tree.rect;
  return { ...tree, children: [...(tree.children ?? []), wdaNode('Window', '', screen, [content])] };
}

test('typing with no focused field on a current WDA (which no longer waits for a keyboard) is INVALID_PARAMETER "tap a field first"', async () => {
  const rig = await makeRig();
  try {
    await rig.call('mobile_launch_app', { packageName: DEMO });
    const r = await rig.call('mobile_type_keys', { text: 'abcd' });
    assert.is(r.code, 'INVALID_PARAMETER', JSON.stringify(r));
    assert.match(r.message, /tap a field first/);
    assert.not.ok(rig.wda.requests.includes('POST /session/:id/wda/keys'), 'nothing was sent to be typed');
    const { elements } = await rig.call('mobile_list_elements_on_screen');
    await rig.call('mobile_click_on_screen_at_coordinates', find(elements, 'Email').center);
    assert.is((await rig.call('mobile_type_keys', { text: 'abcd' })).status, 'success');
    assert.is(rig.device.fieldValue('email'), 'abcd');
  } finally {
    await rig.close();
  }
});

test('elements under the keyboard are not listed; the keys are', async () => {
  const rig = await makeRig();
  try {
    await rig.call('mobile_launch_app', { packageName: DEMO });
    const before = (await rig.call('mobile_list_elements_on_screen')).elements;
    const b = (before as { type: string; text: string; y: number }[]).find((e) => e.type === 'button' && e.text === 'Sign in')!;
    const s = rig.wda.scale;
    // Landscape-style keyboard laid over the lower part of the screen, covering "Sign in" (iOS does not resize the app).
    rig.wda.faults.decorateSource = (tree) => {
      const top = (b.y - 20) / s;
      const kb = { x: 0, y: top, width: tree.rect.width, height: tree.rect.height - top };
      return withTopWindow(tree, wdaNode('Keyboard', '', kb, [wdaNode('Key', 'g', { x: kb.x + 10, y: kb.y + 10, width: 30, height: 40 })]));
    };
    const after = (await rig.call('mobile_list_elements_on_screen')).elements as { type: string; text: string; accessibility_label: string | null }[];
    assert.not.ok(after.some((e) => e.type === 'button' && e.text === 'Sign in'), 'the covered button is not offered');
    assert.ok(after.some((e) => e.accessibility_label === 'g' || e.text === 'g'), 'the key over it is');
    assert.is(after.filter((e) => e.type === 'edittext').length, 2, `elements above the keyboard stay: ${JSON.stringify(after.map((e) => [e.type, e.text, e.accessibility_label]))}`);
  } finally {
    await rig.close();
  }
});

test('while an alert shows, only the alert is listed', async () => {
  const rig = await makeRig();
  try {
    await rig.call('mobile_launch_app', { packageName: DEMO });
    rig.wda.faults.decorateSource = (tree) =>
      withTopWindow(tree, wdaNode('Alert', 'Update available', { x: 60, y: 300, width: 270, height: 150 }, [
        wdaNode('StaticText', 'Update available', { x: 70, y: 310, width: 250, height: 30 }),
        wdaNode('Button', 'Later', { x: 60, y: 400, width: 135, height: 50 }),
        wdaNode('Button', 'Update', { x: 195, y: 400, width: 135, height: 50 }),
      ]));
    const labels = ((await rig.call('mobile_list_elements_on_screen')).elements as { text: string; accessibility_label: string | null }[]).map((e) => e.accessibility_label || e.text);
    assert.ok(labels.includes('Later') && labels.includes('Update'), JSON.stringify(labels));
    assert.not.ok(labels.includes('Sign in') || labels.includes('Email'), JSON.stringify(labels));
  } finally {
    await rig.close();
  }
});

test('dismiss_keyboard on a Next keyboard: WDA taps nothing (Next would act), the keyboard closes, no text typed', async () => {
  const rig = await makeRig();
  try {
    await rig.call('mobile_launch_app', { packageName: DEMO });
    const { elements } = await rig.call('mobile_list_elements_on_screen');
    await rig.call('mobile_click_on_screen_at_coordinates', find(elements, 'Email').center);
    await rig.call('mobile_type_keys', { text: 'me' });
    assert.ok(rig.device.keyboardVisible);
    const ctx = await verbContext({ engine: rig.engine, device: (await rig.engine.listDevices())[0].id });
    const outcome = await runVerb(ctx, { action: 'dismiss_keyboard' });
    assert.is(outcome.status, 'passed', JSON.stringify(outcome));
    assert.not.ok(rig.device.keyboardVisible);
    assert.is(rig.device.fieldValue('email'), 'me', 'no newline or other text typed');
    assert.equal(rig.wda.keysTappedToDismiss, [], 'WDA was not asked for Next');
    assert.is(rig.device.currentScreen, 'signin');
    assert.is(rig.wda.requests.filter((r) => r === 'POST /session/:id/wda/keys').length, 1, 'only the typing itself used /wda/keys');
  } finally {
    await rig.close();
  }
});

test('a connection reset after WDA carried out a tap: reported, never sent twice', async () => {
  const rig = await makeRig();
  try {
    await rig.call('mobile_launch_app', { packageName: DEMO });
    await rig.call('mobile_get_screen_size');
    rig.wda.faults.resetAfter = /^POST \/session\/:id\/actions$/;
    const r = await rig.call('mobile_click_on_screen_at_coordinates', { x: 10, y: 300 });
    rig.wda.faults.resetAfter = undefined;
    assert.is(r.status, 'error', JSON.stringify(r));
    assert.match(r.message, /may or may not have been carried out/);
    assert.is(rig.wda.requests.filter((x) => x === 'POST /session/:id/actions').length, 1, 'the tap reached WDA exactly once');
    // Reads stay transparent: a reset on a kept-alive socket is retried for GETs.
    rig.wda.faults.resetAfter = undefined;
    assert.ok(Array.isArray((await rig.call('mobile_list_elements_on_screen')).elements));
  } finally {
    await rig.close();
  }
});

test('an iPhone on USB and Wi-Fi at once is listed once', async () => {
  const rig = await makeRig({ phone: { version: '16.7.8', tunnel: false } });
  try {
    rig.tools.config.phones[0].wifi = true;
    const { devices } = (await rig.engine.call('mobile_list_available_devices', {})) as { devices: { id: string }[] };
    assert.equal(devices.map((d: { id: string }) => d.id), [PHONE_UDID]);
  } finally {
    await rig.close();
  }
});

test('uninstalling a system app is PERMISSION_DENIED on phones and simulators; an absent one APP_NOT_INSTALLED', async () => {
  for (const phone of [true, false]) {
    const rig = await makeRig(phone ? { phone: { version: '16.7.8', tunnel: false } } : {});
    try {
      const r = await rig.call('mobile_uninstall_app', { bundle_id: 'com.apple.mobilesafari' });
      assert.is(r.code, 'PERMISSION_DENIED', JSON.stringify(r));
      assert.match(r.message, /system app/);
      assert.is((await rig.call('mobile_uninstall_app', { bundle_id: 'com.example.absent' })).code, 'APP_NOT_INSTALLED');
    } finally {
      await rig.close();
    }
  }
});

test('go-ios 1.1+ slog JSON errors are quoted as text, never as raw JSON', async () => {
  const rig = await makeRig({ phone: { version: '16.7.8', tunnel: false } });
  try {
    rig.tools.config.goIosLogs = 'slog';
    const bad = writeIpa(rig.dir, { bundleId: 'com.example.broken', platform: 'iPhoneOS' }, 'broken.ipa');
    // The driver refuses a file that is no .ipa before the tool runs: the tool fails on a real one here.
    rig.device.installApp = async () => {
      throw new Error('not a zip archive');
    };
    const r = await rig.call('mobile_install_app', { path: bad });
    assert.is(r.status, 'error');
    assert.match(r.message, /failed writing: /);
    assert.not.match(r.message, /[{}]|"level"/);
  } finally {
    await rig.close();
  }
});

test('goIosError: logrus, slog JSON and slog text forms; info-only JSON never shown raw', () => {
  const slog = '{"time":"2026-11-20T10:00:00Z","level":"INFO","msg":"connecting"}\n{"time":"2026-11-20T10:00:00Z","level":"ERROR","msg":"failed launching","err":"no app"}\n';
  assert.is(goIosError({ stdout: '', stderr: slog, code: 1 }), 'failed launching: no app');
  assert.is(goIosError({ stdout: '', stderr: 'time=2026-11-20T10:00:00Z level=ERROR msg="failed launching" err="no such app"\n', code: 1 }), 'failed launching: no such app');
  assert.is(goIosError({ stdout: '', stderr: '{"level":"info","msg":"waiting for device","time":"x"}\n', code: 1 }), 'waiting for device');
  assert.is(goIosError({ stdout: '', stderr: '', code: 3 }), 'exit code 3');
});

test('a replugged iPhone: the usbmuxd relay reopens for its new device id (logged as such), calls work again without a restart', async () => {
  const logs: string[] = [];
  const rig = await makeRig({ phone: { version: '16.7.8', tunnel: false }, driver: { log: (m) => logs.push(m) } });
  try {
    await rig.call('mobile_launch_app', { packageName: DEMO });
    assert.ok(Array.isArray((await rig.call('mobile_list_elements_on_screen')).elements));
    rig.tools.unplug(PHONE_UDID);
    const gone = await rig.call('mobile_list_elements_on_screen');
    assert.is(gone.code, 'DEVICE_NOT_FOUND', JSON.stringify(gone));
    assert.match(gone.message, /no longer connected/);
    assert.not.match(gone.message, /install|WebDriverAgentRunner/i);
    rig.tools.replug(PHONE_UDID);
    const back = await rig.call('mobile_list_elements_on_screen');
    assert.ok(Array.isArray(back.elements), JSON.stringify(back));
    assert.ok(logs.some((l) => /device reconnected, relay reopened/.test(l)), JSON.stringify(logs));
    // The first plug-in's id is unknown to usbmuxd after the unplug; the second plug-in's is used after.
    assert.ok(rig.tools.usbmuxd.connects.some((c) => c === `${'?'}:8100 → 2`), rig.tools.usbmuxd.connects.join('\n'));
    assert.ok(rig.tools.usbmuxd.connects.at(-1)!.endsWith(':8100 → 0'), rig.tools.usbmuxd.connects.join('\n'));
  } finally {
    await rig.close();
  }
});

test('a replugged iPhone asked twice at once: both failures share one relink and its answer, both calls work after the replug', async () => {
  const logs: string[] = [];
  const rig = await makeRig({ phone: { version: '16.7.8', tunnel: false }, driver: { log: (m) => logs.push(m) } });
  try {
    await rig.call('mobile_launch_app', { packageName: DEMO });
    const device = await rig.engine.withDevice(PHONE_UDID, 'test', async (d) => d);
    const ctx = () => ({ signal: AbortSignal.timeout(20_000), deadline: performance.now() + 20_000 });
    assert.ok((await device.listElements(ctx())).length > 0);
    // Two requests side by side, as a watcher's listing beside an agent's call or a stream's settings beside a call.
    const both = async () => {
      const outcomes = await Promise.allSettled([device.listElements(ctx()), device.screenshot(ctx())]);
      return outcomes.map((o) => (o.status === 'fulfilled' ? 'ok' : `${(o.reason as { code?: string }).code}: ${(o.reason as Error).message}`));
    };
    const reopened = () => logs.filter((l) => /device reconnected, relay reopened/.test(l)).length;
    rig.tools.unplug(PHONE_UDID);
    for (const answer of await both()) assert.match(answer, /^DEVICE_NOT_FOUND: .*no longer connected/);
    rig.tools.replug(PHONE_UDID);
    assert.equal(await both(), ['ok', 'ok']);
    assert.is(reopened(), 1, JSON.stringify(logs));
    // Unplugged and plugged back between two calls: both find the old relay dead, and one new relay serves both.
    rig.tools.unplug(PHONE_UDID);
    rig.tools.replug(PHONE_UDID);
    assert.equal(await both(), ['ok', 'ok']);
    assert.is(reopened(), 2, JSON.stringify(logs));
  } finally {
    await rig.close();
  }
});

test.run();
