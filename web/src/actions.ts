import { CTRL_LETTERS, type CtrlLetter, type Key } from '../../src/engine/types.js';
import type { Size } from './geometry.js';
import type { Gesture } from './gestures.js';

/** One engine tool call, as `tools.call` takes it. */
export interface ToolCall {
  tool: string;
  parameters: Record<string, unknown>;
}

/**
 * The engine call for a gesture. mobile_swipe_on_screen swipes through the middle of the
 * screen by direction and distance (seed §4.2), so a drag keeps its direction and length
 * but not its exact path; the distance must stay below the screen's span along the swipe.
 */
export function gestureToCall(device: string, gesture: Gesture, screen: Size): ToolCall {
  switch (gesture.kind) {
    case 'tap':
      return { tool: 'mobile_click_on_screen_at_coordinates', parameters: { device, x: gesture.at.x, y: gesture.at.y } };
    case 'double_tap':
      return { tool: 'mobile_double_tap_on_screen', parameters: { device, x: gesture.at.x, y: gesture.at.y } };
    case 'long_press':
      return {
        tool: 'mobile_long_press_on_screen_at_coordinates',
        parameters: { device, x: gesture.at.x, y: gesture.at.y, duration: Math.max(1, gesture.durationMs) },
      };
    case 'swipe': {
      const span = gesture.direction === 'up' || gesture.direction === 'down' ? screen.height : screen.width;
      const distance = Math.max(1, Math.min(gesture.distance, span - 1));
      return { tool: 'mobile_swipe_on_screen', parameters: { device, direction: gesture.direction, distance } };
    }
    case 'pinch':
      return { tool: 'mobile_pinch_on_screen', parameters: { device, x: gesture.at.x, y: gesture.at.y, scale: gesture.scale } };
  }
}

/** What a key press on the focused screen means for the device; `repeat`: the browser's auto-repeat of a held key. */
export type KeyInput =
  | { kind: 'text'; text: string }
  | { kind: 'button'; button: 'ENTER' | 'BACK' | 'HOME' | 'VOLUME_UP' | 'VOLUME_DOWN'; repeat?: true }
  | { kind: 'key'; key: Key; repeat?: true }
  | { kind: 'key'; key: CtrlLetter; modifiers: ['CTRL']; repeat?: true };

/** Browser key names (KeyboardEvent.key) forwarded as keyboard keys (bridge input.key). */
const FORWARDED_KEYS: Record<string, Key> = {
  Backspace: 'BACKSPACE',
  Delete: 'DELETE',
  ArrowLeft: 'LEFT',
  ArrowRight: 'RIGHT',
  ArrowUp: 'UP',
  ArrowDown: 'DOWN',
  Tab: 'TAB',
};

export interface KeyLike {
  key: string;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
  shiftKey?: boolean;
  isComposing?: boolean;
  repeat?: boolean;
}

/**
 * Printable characters become text, Enter becomes the ENTER button, Backspace, Delete, arrows and
 * Tab go to the device as keys (issue 17: like scrcpy). Shift+Tab and Escape stay with the browser,
 * so the keyboard can always leave the screen. AltGr characters arrive with ctrlKey+altKey on
 * Windows and are printable, so only a lone Ctrl or Meta marks a shortcut. Ctrl+A, C, X and Z (⌘ on
 * a Mac) go to the device as its own Ctrl shortcuts, as scrcpy forwards them; Ctrl+V stays the
 * browser's paste (the host clipboard is typed), and the other shortcuts stay the browser's.
 */
export function keyToInput(e: KeyLike): KeyInput | undefined {
  if (e.isComposing) return undefined;
  const repeat = e.repeat ? { repeat: true as const } : {};
  if (e.metaKey || (e.ctrlKey && !e.altKey)) {
    const letter = e.key.toUpperCase();
    const plain = !e.altKey && !e.shiftKey && !(e.ctrlKey && e.metaKey);
    return plain && (CTRL_LETTERS as readonly string[]).includes(letter) ? { kind: 'key', key: letter as CtrlLetter, modifiers: ['CTRL'], ...repeat } : undefined;
  }
  if (e.key === 'Enter') return { kind: 'button', button: 'ENTER', ...repeat };
  if (e.key === 'Tab' && e.shiftKey) return undefined;
  const key = FORWARDED_KEYS[e.key];
  if (key) return { kind: 'key', key, ...repeat };
  if ([...e.key].length === 1) return { kind: 'text', text: e.key };
  return undefined;
}

/** A gesture on the screen, queued with the keys so the two reach the device in the order they were made. */
export type GestureInput = { kind: 'gesture'; gesture: Gesture; screen: Size };

/** What the user does to the screen: keys and gestures, sent in one order. */
export type ScreenInput = KeyInput | GestureInput;

/** The calls for a run of inputs, in order, with neighbouring text merged into one mobile_type_keys. */
export function inputsToCalls(device: string, inputs: readonly ScreenInput[]): ToolCall[] {
  const calls: ToolCall[] = [];
  let text = '';
  const flush = () => {
    if (text) calls.push({ tool: 'mobile_type_keys', parameters: { device, text } });
    text = '';
  };
  for (const input of inputs) {
    if (input.kind === 'text') {
      text += input.text;
      continue;
    }
    flush();
    if (input.kind === 'gesture') calls.push(gestureToCall(device, input.gesture, input.screen));
    else if (input.kind === 'key') calls.push({ tool: 'input.key', parameters: { device, key: input.key, ...('modifiers' in input ? { modifiers: input.modifiers } : {}) } });
    else calls.push({ tool: 'mobile_press_button', parameters: { device, button: input.button } });
  }
  flush();
  return calls;
}
