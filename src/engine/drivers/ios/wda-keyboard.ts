import type { CallContext } from '../../driver.js';
import { ToolError } from '../../errors.js';
import type { Key } from '../../types.js';
import type { LackingRoutes } from './wda-lacking.js';
import { WdaRouteMissing } from './wda-refusals.js';
import { flag, INPUTS, type WdaNode } from './wda-source.js';

/** A WebDriverAgent request in the device's session, errors already translated to ToolErrors. */
export type WdaSessionCall = (method: string, path: string, body: unknown, ctx: CallContext) => Promise<unknown>;

/**
 * Keys that only close the keyboard: "Done" (a Done return key or accessory button), iPad's hide key.
 * Never return, Go, Send, Search, Join or Next: WDA taps whatever it is named, and those act on the app.
 */
const CLOSING_KEYS = ['Done', 'done', 'Hide keyboard', 'Dismiss keyboard'];

/** The app's accessibility tree from GET /source, in the device's session. */
export type WdaSourceRead = (ctx: CallContext) => Promise<WdaNode>;

function findNode(node: WdaNode, hit: (n: WdaNode) => boolean): WdaNode | undefined {
  if (hit(node)) return node;
  for (const child of node.children ?? []) {
    const found = findNode(child, hit);
    if (found) return found;
  }
  return undefined;
}

/** Typing, keys and the on-screen keyboard of one iOS device, through WebDriverAgent. */
export class WdaKeyboard {
  constructor(
    private readonly deviceId: string,
    private readonly call: WdaSessionCall,
    private readonly source: WdaSourceRead,
    /** A WDA lacking POST /elements has the keyboard looked for in /source. */
    private readonly lacking: LackingRoutes,
  ) {}

  /**
   * Keys typed on the on-screen keyboard through /wda/keys: Backspace is XCUIKeyboardKeyDelete ("\b"),
   * Enter a newline. The iOS keyboard has no forward delete, arrows, Tab or app switch key to type.
   */
  async pressKey(key: Key, ctx: CallContext): Promise<void> {
    const typed: Partial<Record<Key, string>> = { BACKSPACE: '\u0008', ENTER: '\n' };
    const value = typed[key];
    if (!value) throw new ToolError('UNSUPPORTED', `iOS (WebDriverAgent) cannot press ${key} on ${this.deviceId}: the on-screen keyboard has no such key; nothing was pressed`);
    await this.requireFocus(ctx, `tap a text field first, then press ${key}`);
    await this.call('POST', '/wda/keys', { value: [value] }, ctx);
  }

  async typeText(text: string, ctx: CallContext): Promise<void> {
    await this.requireFocus(ctx, 'tap a field first, then type');
    // POST /wda/keys {value: [characters]}; older WDA still answers "invalid element state" without a keyboard.
    await this.call('POST', '/wda/keys', { value: Array.from(text) }, ctx);
  }

  /**
   * WDA stopped waiting for the keyboard in 2023 (/wda/keys then "types" into nothing and succeeds), so a
   * focused field is made sure of first: the on-screen keyboard, or else the element with keyboard focus.
   * A simulator typing with the Mac's keyboard (I/O › Keyboard › Connect Hardware Keyboard) shows no
   * on-screen keyboard, yet /wda/keys (synthesized key events) types into its focused field.
   */
  private async requireFocus(ctx: CallContext, advice: string): Promise<void> {
    const keyboard = await this.lookForKeyboard(ctx);
    if (keyboard.shown) return;
    // Asked every time, though a WDA may lack it (null): only when no keyboard shows, and the refusal below names it.
    const active = await this.activeElement(ctx).catch((err: unknown) => {
      if (err instanceof WdaRouteMissing) return null;
      throw err;
    });
    if (active) return;
    if (active === undefined) throw new ToolError('INVALID_PARAMETER', `no text field is focused on ${this.deviceId} (no keyboard is showing and no element has keyboard focus): ${advice}`);
    // /source's isFocused (builds since 2023 write it in the JSON tree) stands for the element lookup.
    const tree = keyboard.tree ?? (await this.source(ctx));
    if (findNode(tree, (n) => INPUTS.has(n.type.replace(/^XCUIElementType/, '')) && flag(n.isFocused) === true)) return;
    throw new ToolError(
      'INVALID_PARAMETER',
      `no text field is focused on ${this.deviceId} (no keyboard is showing; WebDriverAgent there lacks GET /element/active, so a field focused without the on-screen keyboard, as with a hardware keyboard, cannot be told): ${advice}`,
    );
  }

  /**
   * GET /element/active: the element with keyboard focus (XCUIApplication+FBHelpers.m fb_activeElement,
   * "hasKeyboardFocus == YES"); WDA answers "no such element" when none has it.
   */
  private async activeElement(ctx: CallContext): Promise<string | undefined> {
    let active: unknown;
    try {
      active = await this.call('GET', '/element/active', undefined, ctx);
    } catch (err) {
      if (err instanceof ToolError && /no such element|no active element/i.test(err.message)) return undefined;
      throw err;
    }
    const ref = active as Record<string, unknown> | null;
    const uuid = ref?.['element-6066-11e4-a52e-4f735466cecf'] ?? ref?.ELEMENT;
    return typeof uuid === 'string' && uuid ? uuid : undefined;
  }

  /**
   * W3C element clear on the active (focused) element. Its uuid lives in the session's element cache
   * (FBElementCache.m): when the session was re-created in between (WDA restarted, or another client opened
   * one) or the field was redrawn, WDA answers "stale element reference", so the field is looked up once more.
   */
  async clearText(ctx: CallContext): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const uuid = await this.activeElement(ctx);
      if (!uuid) throw new ToolError('INVALID_PARAMETER', `no text field is focused on ${this.deviceId}; tap a text field first`);
      try {
        await this.call('POST', `/element/${encodeURIComponent(uuid)}/clear`, {}, ctx);
        return;
      } catch (err) {
        if (attempt > 1 || !(err instanceof ToolError && /stale element reference/.test(err.message))) throw err;
      }
    }
  }

  /**
   * WDA's own dismissal (POST /wda/keyboard/dismiss, FBCustomCommands.m). fb_dismissKeyboardWithKeyNames taps
   * every key of the keyboard named in keyNames until the keyboard goes, whatever the key does: "return" in a
   * text view types a newline, Go/Send/Search submit, Next moves on. So only keys that close the keyboard
   * and do nothing else are named; WDA adds its own iPad fallback (the keyboard's hide key). When no such
   * key closes it, the keyboard is left open and the caller is told so.
   */
  async dismissKeyboard(ctx: CallContext): Promise<void> {
    if (!(await this.lookForKeyboard(ctx)).shown) return;
    const cannot = `the keyboard on ${this.deviceId} has no Done or Hide keyboard key, so it was left open (its return, Go, Send, Search or Next key would act on the app, so none was pressed); close it with the app's own control, e.g. a tap outside the field`;
    try {
      await this.call('POST', '/wda/keyboard/dismiss', { keyNames: CLOSING_KEYS }, ctx);
    } catch (err) {
      if (err instanceof ToolError && err.code === 'INTERNAL') throw new ToolError('INVALID_PARAMETER', `${cannot}. ${err.message}`);
      throw err;
    }
    if ((await this.lookForKeyboard(ctx)).shown) throw new ToolError('INVALID_PARAMETER', cannot);
  }

  /**
   * POST /elements {using: "class name"}: an empty list when no keyboard is on screen. A WDA without the route
   * has its keyboard looked for in /source, whose tree then comes back for the focus check.
   */
  private async lookForKeyboard(ctx: CallContext): Promise<{ shown: boolean; tree?: WdaNode }> {
    const asked = await this.lacking.unlessLacking('POST /elements', async () => ({ found: await this.call('POST', '/elements', { using: 'class name', value: 'XCUIElementTypeKeyboard' }, ctx) }));
    if (asked) return { shown: Array.isArray(asked.found) && asked.found.length > 0 };
    const tree = await this.source(ctx);
    return { shown: Boolean(findNode(tree, (n) => n.type.replace(/^XCUIElementType/, '') === 'Keyboard')), tree };
  }
}
