import type { CallContext, DeviceHandle } from './driver.js';
import { failure, ToolError, type ToolFailure } from './errors.js';
import { CTRL_LETTERS, type CtrlLetter, type Key, type KeyModifier } from './types.js';

/** A key input.key may press: a keyboard key, or (with CTRL) a letter's shortcut. */
export interface KeyPress {
  key: Key | CtrlLetter;
  /** Set for a Ctrl shortcut (CTRL+A). */
  letter?: CtrlLetter;
  /** How messages name it: "ENTER", "CTRL+A". */
  name: string;
}

/** The press asked for, or why it is refused before any device is asked: a letter is text, CTRL goes with letters only. */
export function keyPress(key: Key | CtrlLetter, modifiers: readonly KeyModifier[]): KeyPress | ToolFailure {
  const ctrl = modifiers.includes('CTRL');
  const letter = (CTRL_LETTERS as readonly string[]).includes(key) ? (key as CtrlLetter) : undefined;
  if (letter && !ctrl) return failure('INVALID_PARAMETER', `${key} alone is text: type it with mobile_type_keys; input.key takes a letter only with modifiers ["CTRL"] (CTRL+${CTRL_LETTERS.join(', CTRL+')})`);
  if (ctrl && !letter) return failure('INVALID_PARAMETER', `CTRL goes with ${CTRL_LETTERS.join(', ')} only (select all, copy, cut, undo); press ${key} without modifiers`);
  return { key, letter, name: ctrl ? `CTRL+${key}` : key };
}

/** Presses it on the device; UNSUPPORTED where its driver has no way to. */
export async function pressOn(handle: DeviceHandle, device: string, press: KeyPress, ctx: CallContext): Promise<void> {
  if (press.letter) {
    const why = handle.info.os === 'iOS' ? 'WebDriverAgent types through the on-screen keyboard, which has no Ctrl key; select text with a long press and the edit menu instead' : 'its driver has no key combinations';
    if (!handle.pressCtrl) throw new ToolError('UNSUPPORTED', `${device} cannot press ${press.name}: ${why}; nothing was pressed`);
    await handle.pressCtrl(press.letter, ctx);
  } else if (handle.pressKey) await handle.pressKey(press.key as Key, ctx);
  else if (press.key === 'ENTER') await handle.pressButton('ENTER', ctx);
  else throw new ToolError('UNSUPPORTED', `${device} cannot press ${press.key}: its driver has no keyboard keys besides the buttons of mobile_press_button`);
}
