import assert from 'node:assert/strict';
import type { CallContext } from '../../../src/engine/driver.js';
import { ToolError, type ErrorCode } from '../../../src/engine/errors.js';
import type { UiElement } from '../../../src/engine/types.js';
import { ManualClock, VirtualDriver, type VirtualDevice, type VirtualDriverOptions } from '../../../src/engine/drivers/virtual/index.js';

export const ctx: CallContext = { signal: new AbortController().signal };
export const DEMO = 'com.mobilebridge.demo';

export function setup(options: VirtualDriverOptions = {}): { driver: VirtualDriver; clock: ManualClock; android: VirtualDevice; ios: VirtualDevice } {
  const clock = new ManualClock(Date.UTC(2026, 0, 5, 9, 30));
  const driver = new VirtualDriver({ clock, ...options });
  const android = driver.device('virtual-android-1');
  const ios = driver.device('virtual-ios-1');
  if (!android || !ios) throw new Error('default devices missing');
  return { driver, clock, android, ios };
}

/** The element whose resource id ends with `id` (Android prefixes it with the package). */
export async function byId(device: VirtualDevice, id: string): Promise<UiElement> {
  const all = await device.listElements(ctx);
  const found = all.find((e) => e.resource_id === id || e.resource_id?.endsWith(`:id/${id}`));
  assert.ok(found, `no element ${id} on ${device.id}; have ${all.map((e) => e.resource_id ?? e.text).join(', ')}`);
  return found;
}

export async function byText(device: VirtualDevice, text: string): Promise<UiElement> {
  const all = await device.listElements(ctx);
  const found = all.find((e) => e.text === text);
  assert.ok(found, `no element with text "${text}" on ${device.id}; have ${all.map((e) => e.text).filter(Boolean).join(', ')}`);
  return found;
}

export async function has(device: VirtualDevice, id: string): Promise<boolean> {
  return (await device.listElements(ctx)).some((e) => e.resource_id === id || e.resource_id?.endsWith(`:id/${id}`));
}

export async function tapEl(device: VirtualDevice, el: UiElement): Promise<void> {
  await device.tap(el.center.x, el.center.y, ctx);
}

export async function tapId(device: VirtualDevice, id: string): Promise<void> {
  await tapEl(device, await byId(device, id));
}

/** Signs in to the demo app and waits (on the manual clock) until the list shows. */
export async function signIn(device: VirtualDevice, clock: ManualClock): Promise<void> {
  await device.launchApp(DEMO, ctx);
  await tapId(device, 'email');
  await device.typeText('demo@example.com', ctx);
  await tapId(device, 'password');
  await device.typeText('secret123', ctx);
  await tapId(device, 'sign_in');
  clock.advance(1500);
  assert.equal(device.currentScreen, 'home');
}

export async function rejects(promise: Promise<unknown>, code: ErrorCode, mentions?: string | RegExp): Promise<ToolError> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof ToolError, `expected ToolError ${code}, got ${String(err)}`);
    assert.equal(err.code, code, err.message);
    if (typeof mentions === 'string') assert.ok(err.message.includes(mentions), `"${err.message}" should mention ${mentions}`);
    else if (mentions) assert.match(err.message, mentions);
    return err;
  }
  assert.fail(`expected ${code}, but the call succeeded`);
}
