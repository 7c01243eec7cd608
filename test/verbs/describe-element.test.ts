import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startBridge } from '../../src/bridge/server.js';
import { createEngine } from '../../src/engine/create.js';
import { DeterministicResolver } from '../../src/engine/resolve/index.js';
import type { ElementType, UiElement } from '../../src/engine/types.js';
import { describeElement } from '../../src/engine/verbs/describe-element.js';
import { connectBridge } from '../../src/protocol/node.js';
import type { ElementDescription } from '../../src/protocol/methods.js';
import { validateScenarioValue } from '../../src/validate/index.js';

const SCREEN = { width: 1080, height: 2400 };
const resolver = new DeterministicResolver();

function element(id: string, type: ElementType, text: string, x: number, y: number, width = 900, height = 120, extra: Partial<UiElement> = {}): UiElement {
  return { id, type, text, accessibility_label: null, x, y, width, height, visible: true, enabled: true, clickable: type !== 'text', center: { x: x + Math.floor(width / 2), y: y + Math.floor(height / 2) }, ...extra };
}

/** The resolver the runner uses, asked for a step's target: which element would a replay act on? */
async function resolvedId(form: { target: string; target_pattern?: string }, elements: UiElement[]): Promise<string | undefined> {
  const r = await resolver.resolve({ description: form.target, pattern: form.target_pattern, intent: 'interact', screen: SCREEN }, elements);
  return r.ok ? r.element.id : undefined;
}

/** A scenario around the examples: they must pass the validator as they are. */
function scenarioWith(d: ElementDescription): Record<string, unknown> {
  const ex = d.step_examples!;
  return {
    $schema_version: '2.2',
    scenario_id: 'inspector_examples',
    name: 'Inspector examples',
    description: 'steps copied from the inspector',
    platform: 'android',
    app_package: 'com.example.app',
    metadata: { app_version: '1.0', environment: 'development' },
    steps: [ex.tap, ...(ex.type ? [ex.type] : [])],
    assertions: [ex.assert],
  };
}

test('a uniquely named element: the plain wording, its matches and valid step examples', async () => {
  const screen = [
    element('title', 'text', 'Sign in', 40, 60, 1000, 160),
    element('email', 'edittext', '', 60, 500, 900, 140, { hint: 'Email' }),
    element('sign_in', 'button', 'Sign in', 60, 900),
  ];
  const d = await describeElement('phone', screen[2], screen, SCREEN, resolver);
  assert.is(d.target, 'the Sign in button');
  assert.is(d.unique, true);
  assert.is(d.alternative, undefined);
  assert.is(await resolvedId({ target: d.target! }, screen), 'sign_in');
  assert.ok(d.matches.some((m) => m.id === 'sign_in'));
  assert.is(d.step_examples!.tap.target, 'the Sign in button');
  assert.is(d.step_examples!.type, undefined, 'no type step for a button');
  const report = validateScenarioValue(scenarioWith(d), 'examples.json');
  assert.equal(report.errors, [], 'the tap step and the assertion validate');

  // A field is named by its placeholder, and gets a type step too.
  const field = await describeElement('phone', screen[1], screen, SCREEN, resolver);
  assert.is(field.target, 'the Email field');
  assert.is(field.unique, true);
  assert.is(field.step_examples!.type!.action, 'type');
  assert.equal(validateScenarioValue(scenarioWith(field), 'examples.json').errors, []);

  // The title shares the button's text: its own wording still singles it out.
  const title = await describeElement('phone', screen[0], screen, SCREEN, resolver);
  assert.is(title.target, 'the Sign in text');
  assert.is(await resolvedId({ target: title.target! }, screen), 'title');
});

test('an ambiguous wording says so and offers a more specific one that resolves to the element', async () => {
  const screen = [
    element('row1', 'text', 'Milk', 60, 300, 600),
    element('delete1', 'button', 'Delete', 700, 300, 300),
    element('row2', 'text', 'Bread', 60, 500, 600),
    element('delete2', 'button', 'Delete', 700, 500, 300),
    element('row3', 'text', 'Eggs', 60, 700, 600),
    element('delete3', 'button', 'Delete', 700, 700, 300),
  ];
  for (const id of ['delete1', 'delete2', 'delete3']) {
    const d = await describeElement('phone', screen.find((e) => e.id === id)!, screen, SCREEN, resolver);
    assert.is(d.target, 'the Delete button');
    assert.is(d.unique, false, `${id}: three Delete buttons`);
    assert.equal(d.matches.map((m) => m.id), ['delete1', 'delete2', 'delete3']);
    assert.ok(d.alternative, `${id}: an alternative exists`);
    assert.is(await resolvedId(d.alternative!, screen), id, `${id}: ${JSON.stringify(d.alternative)} resolves to it`);
    assert.match(d.message, 'not unique');
    assert.is(d.step_examples!.tap.target, d.alternative!.target);
    assert.equal(validateScenarioValue(scenarioWith(d), 'examples.json').errors, []);
  }
});

/** The elements a copied assertion checks: what its element_description resolves to, else what its pattern matches. */
async function checkedBy(a: Record<string, unknown>, elements: UiElement[]): Promise<string[]> {
  if (typeof a.element_description === 'string') {
    const r = await resolver.resolve({ description: a.element_description, intent: 'read', screen: SCREEN }, elements);
    return r.ok ? [r.element.id] : r.candidates.map((c) => c.id);
  }
  const re = new RegExp(a.pattern as string);
  return elements.filter((e) => re.test(e.text) || re.test(e.accessibility_label ?? '')).map((e) => e.id);
}

test('a wording that needs target_pattern gets an assertion that checks this element, not any of its kind', async () => {
  // iOS's permission alert over a tab labelled "Shop": the title's quoted "Shop" names that tab exactly, so only a pattern names the title.
  const title = '“Shop” Would Like to Access the Camera';
  const screen = [
    element('alert', 'dialog', '', 40, 600, 1000, 900, { accessibility_label: title }),
    element('title', 'text', title, 80, 650, 920, 120, { accessibility_label: title }),
    element('body', 'text', 'The camera is used to take photos of your items.', 80, 800, 920, 120),
    element('allow', 'button', 'Allow', 80, 1300, 440),
    element('tab', 'text', 'Shop', 0, 2280, 270, 120),
  ];
  const d = await describeElement('phone', screen[1], screen, SCREEN, resolver);
  assert.ok(d.alternative?.target_pattern, d.message);
  assert.match(d.message, `"the ${title} text" leads to another element (tab); "the text" with target_pattern`);
  assert.is(await resolvedId(d.alternative!, screen), 'title');
  // The pattern finds the title (and the alert labelled with it, which comes and goes with it), never the body.
  const checked = await checkedBy(d.step_examples!.assert, screen);
  assert.ok(checked.includes('title') && !checked.includes('body'), `checks ${checked.join(', ')}`);
  assert.equal(validateScenarioValue(scenarioWith(d), 'examples.json').errors, []);
  // Without a pattern the assertion keeps the wording itself.
  const allow = await describeElement('phone', screen[3], screen, SCREEN, resolver);
  assert.is(allow.step_examples!.assert.type, 'element_visible');
  assert.equal(await checkedBy(allow.step_examples!.assert, screen), ['allow']);
  // Without the tab, the title's own words name it.
  const alone = await describeElement('phone', screen[1], screen.slice(0, 4), SCREEN, resolver);
  assert.is(alone.unique, true, alone.message);
});

test('a wording that fits no element is said to fit nothing, not to be "not unique"', async () => {
  // A text that is all quotes reads as a quoted text without them.
  const sale = element('sale', 'text', '“Sale”', 80, 650);
  const d = await describeElement('phone', sale, [sale, element('other', 'text', 'Other', 80, 900)], SCREEN, resolver);
  assert.equal(d.matches, []);
  assert.match(d.message, '"the “Sale” text" fits no element here;');
  assert.is(await resolvedId(d.alternative!, [sale]), 'sale');
});

test('when no wording can single the element out, it says none exists', async () => {
  // A hidden OK button behind a visible one: every wording that fits it fits the visible one better.
  const a = element('a', 'button', 'OK', 100, 100);
  const b = element('b', 'button', 'OK', 100, 400, 900, 120, { visible: false });
  const d = await describeElement('phone', b, [a, b], SCREEN, resolver);
  assert.is(d.unique, false);
  assert.is(d.alternative, null);
  assert.is(d.step_examples, undefined);
  assert.match(d.message, 'no more specific wording');

  const blank = element('blank', 'other', '', 0, 0, 1080, 2400);
  const none = await describeElement('phone', blank, [blank], SCREEN, resolver);
  assert.is(none.target, null);
  assert.is(none.alternative, null);
  assert.match(none.message, 'no text or accessibility label');
});

test('a filled field is named by its resource id, never by what was typed into it, so the target finds it on an empty form', async () => {
  // A framework `uiautomator dump` has no hint attribute: a filled field shows only the typed text.
  const form = (email: string, password: string) => [
    element('title', 'text', 'Sign in', 40, 60, 1000, 160),
    element('email', 'edittext', email, 60, 500, 900, 140, { resource_id: 'com.example.shop:id/email' }),
    element('password', 'edittext', password, 60, 700, 900, 140, { resource_id: 'com.example.shop:id/password', password: true }),
    element('sign_in', 'button', 'Sign in', 60, 900),
  ];
  const filled = form('ada@example.com', '••••••••');
  const empty = form('', '');
  for (const [id, expected] of [['email', 'the email field'], ['password', 'the password field']] as const) {
    const d = await describeElement('phone', filled.find((e) => e.id === id)!, filled, SCREEN, resolver);
    assert.is(d.target, expected);
    assert.ok(d.unique, `${id}: ${d.message}`);
    assert.not.match(JSON.stringify(d.step_examples), /ada@example|••/, 'typed text stays out of the examples');
    assert.is(await resolvedId({ target: d.target! }, empty), id, `${id}: the copied target finds the field on an empty form`);
  }
});

test('a nameless field is named by the label next to it', async () => {
  const screen = [element('label', 'text', 'Card number', 60, 300, 600, 60), element('field', 'edittext', '', 60, 380, 900, 140)];
  const d = await describeElement('phone', screen[1], screen, SCREEN, resolver);
  assert.is(d.target, 'the field');
  assert.ok(d.alternative || d.unique);
  const form = d.unique ? { target: d.target! } : d.alternative!;
  assert.is(await resolvedId(form, screen), 'field');
});

test('elements.describe over the bridge: unique on the virtual phone, ELEMENT_NOT_FOUND for a gone id, -32602 for bad params', async () => {
  const bridge = await startBridge({ engine: createEngine({ virtual: {} }), host: '127.0.0.1', port: 0 });
  const client = await connectBridge(bridge.wsUrl);
  try {
    await client.request('session.hello', { client: 'test' });
    await client.requestRaw('tools.call', { tool: 'mobile_open_url', parameters: { device: 'virtual-android-1', url: 'mbdemo://screen/signin' } });
    const d = (await client.request('elements.describe', { device: 'virtual-android-1', element: 'sign_in' })) as ElementDescription;
    assert.is(d.target, 'the Sign in button');
    assert.is(d.unique, true);
    // What the inspector copies, run as a live verb: it taps exactly that element.
    const ran = (await client.requestRaw('verbs.run', { device: 'virtual-android-1', step: { action: 'wait_for_element', target: d.target, wait_config: { type: 'element_visible', timeout_ms: 1000 } } })) as { status: string; resolved: { id: string } };
    assert.is(ran.status, 'passed');
    assert.is(ran.resolved.id, 'sign_in');

    const gone = (await client.request('elements.describe', { device: 'virtual-android-1', element: 'no_such_element' })) as { status: string; code: string; message: string };
    assert.is(gone.status, 'error');
    assert.is(gone.code, 'ELEMENT_NOT_FOUND');
    assert.match(gone.message, 'no_such_element');
    // Never on this screen: nothing says the screen changed; the message says where valid ids come from.
    assert.not.match(gone.message, 'screen changed');
    assert.match(gone.message, `is not in the element listing of virtual-android-1's screen as it is now`);
    assert.match(gone.message, /elements, e.g. "[^"]+"/);
    assert.match(gone.message, 'list the elements again (mobile_list_elements_on_screen');

    const noDevice = (await client.request('elements.describe', { device: 'no-such-phone', element: 'sign_in' })) as { code: string };
    assert.is(noDevice.code, 'DEVICE_NOT_FOUND');

    let rpcCode: number | undefined;
    await client.requestRaw('elements.describe', { device: 'virtual-android-1' }).catch((err: { code?: number }) => (rpcCode = err.code));
    assert.is(rpcCode, -32602);
  } finally {
    await client.close();
    await bridge.close();
  }
});

test.run();
