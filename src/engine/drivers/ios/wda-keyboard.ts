import type { CallContext } from '../../driver.js';
import { ToolError } from '../../errors.js';
import type { Key } from '../../types.js';

/** A WebDriverAgent request in the device's session, errors already translated to ToolErrors. */
export type WdaSessionCall = (method: string, path: string, body: unknown, ctx: CallContext) => Promise<unknown>;

/** Typing, keys and the on-screen keyboard of one iOS device, through WebDriverAgent. */
export class WdaKeyboard {
  constructor(
    private readonly deviceId: string,
    private readonly call: WdaSessionCall,
  ) {}

  /**
   * Keys typed on the on-screen keyboard through /wda/keys: Backspace is XCUIKeyboardKeyDelete ("\b"),
   * Enter a newline. The iOS keyboard has no forward delete, arrows, Tab or app switch key to type.
   */
  async pressKey(key: Key, ctx: CallContext): Promise<void> {
    const typed: Partial<Record<Key, string>> = { BACKSPACE: '\u0008', ENTER: '\n' };
    const value = typed[key];
    if (!value) throw new ToolError('UNSUPPORTED', `iOS (WebDriverAgent) cannot press ${key} on ${this.deviceId}: the on-screen keyboard has no such key; nothing was pressed`);
    await this.requireFocus(ctx, 'tap a field first');
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
    if (await this.keyboardShown(ctx)) return;
    if (await this.activeElement(ctx)) return;
    throw new ToolError('INVALID_PARAMETER', `no text field is focused on ${this.deviceId} (no keyboard is showing and no element has keyboard focus): ${advice}`);
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

  /** W3C element clear on the active (focused) element. */
  async clearText(ctx: CallContext): Promise<void> {
    const uuid = await this.activeElement(ctx);
    if (!uuid) throw new ToolError('INVALID_PARAMETER', `no text field is focused on ${this.deviceId}; tap a text field first`);
    await this.call('POST', `/element/${encodeURIComponent(uuid)}/clear`, {}, ctx);
  }

  /**
   * WDA's own dismissal (POST /wda/keyboard/dismiss, FBCustomCommands.m): it taps one of the named keys
   * when the keyboard has one and fails when the keyboard stays; no text is typed either way.
   */
  async dismissKeyboard(ctx: CallContext): Promise<void> {
    if (!(await this.keyboardShown(ctx))) return;
    await this.call('POST', '/wda/keyboard/dismiss', { keyNames: ['Done', 'done', 'Return', 'return', 'Go', 'Search', 'Send', 'Next', 'Hide keyboard'] }, ctx).catch((err: unknown) => {
      if (err instanceof ToolError && err.code === 'INTERNAL') {
        throw new ToolError('INVALID_PARAMETER', `the keyboard on ${this.deviceId} has no Done/return key WebDriverAgent can use to close it; close it with the app's own control (e.g. tap outside the field). ${err.message}`);
      }
      throw err;
    });
    if (await this.keyboardShown(ctx)) throw new ToolError('INVALID_PARAMETER', `the keyboard on ${this.deviceId} is still showing after WebDriverAgent's dismissal; close it with the app's own control`);
  }

  /** POST /elements {using: "class name"}: an empty list when no keyboard is on screen. */
  private async keyboardShown(ctx: CallContext): Promise<boolean> {
    const found = await this.call('POST', '/elements', { using: 'class name', value: 'XCUIElementTypeKeyboard' }, ctx);
    return Array.isArray(found) && found.length > 0;
  }
}
