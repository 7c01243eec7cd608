/** Result and resource shapes of the seed (§2.1–2.4, §4.1) and SPEC §2. All coordinates are device pixels. */

export type DeviceOs = 'Android' | 'iOS';

export interface DeviceInfo {
  id: string;
  os: DeviceOs;
  model: string;
  version: string;
  /** Extra, optional: why a device is listed but not usable (unauthorized, offline) and what to do. */
  state?: 'ready' | 'unauthorized' | 'offline' | 'not_responding';
  message?: string;
  /** Where the device was found: a named adb server, WebDriverAgent or peer bridge (SPEC §10). */
  source?: string;
}

export interface InstalledApp {
  package: string;
  /** The app's label; the package id where the device does not tell it (then `labelUnknown`). */
  name: string;
  /** Set when the device does not tell the label (Android 5–6; from 7 a label kept in the app's resources): `name` repeats the package id. */
  labelUnknown?: true;
  version: string;
  installed: boolean;
}

export const ELEMENT_TYPES = [
  'button', 'edittext', 'text', 'image', 'checkbox', 'switch', 'radio', 'tab', 'link',
  'list', 'listitem', 'webview', 'keyboard', 'dialog', 'other',
] as const;
export type ElementType = (typeof ELEMENT_TYPES)[number];

export interface Point { x: number; y: number }

/** One finger of a multi-finger gesture: a straight line from `from` to `to`, device pixels. */
export interface FingerPath {
  from: Point;
  to: Point;
}
export interface Rect { x: number; y: number; width: number; height: number }

export interface UiElement {
  id: string;
  text: string;
  type: ElementType;
  accessibility_label: string | null;
  x: number;
  y: number;
  width: number;
  height: number;
  visible: boolean;
  enabled: boolean;
  center: Point;
  checked?: boolean;
  selected?: boolean;
  focused?: boolean;
  /** Present (true) on password fields: their text is shown as one bullet per character. */
  password?: boolean;
  clickable?: boolean;
  scrollable?: boolean;
  hint?: string;
  resource_id?: string;
  class?: string;
  package?: string;
}

export interface ScreenshotResult {
  image: string;
  format: 'png';
  dimensions: { width: number; height: number };
}

export interface ActionResult {
  status: 'success';
  message: string;
}

export type Orientation = 'portrait' | 'landscape';
/** The hardware and system buttons mobile_press_button presses (MCP and live steps take the same). */
export const BUTTONS = ['BACK', 'HOME', 'VOLUME_UP', 'VOLUME_DOWN', 'ENTER'] as const;
export type Button = (typeof BUTTONS)[number];
export type SwipeDirection = 'up' | 'down' | 'left' | 'right';

/** Keyboard keys beyond the buttons (the viewer's Backspace, arrows, Tab…); see DeviceHandle.pressKey. */
export const KEYS = ['BACKSPACE', 'DELETE', 'TAB', 'ENTER', 'LEFT', 'RIGHT', 'UP', 'DOWN', 'APP_SWITCH'] as const;
export type Key = (typeof KEYS)[number];
/**
 * Letters pressed with CTRL only (input.key with `modifiers: ["CTRL"]`): select all, copy, cut, undo, as a
 * hardware keyboard's shortcuts in a text field. Letters alone are typed text (mobile_type_keys).
 */
export const CTRL_LETTERS = ['A', 'C', 'X', 'Z'] as const;
export type CtrlLetter = (typeof CTRL_LETTERS)[number];
export const KEY_MODIFIERS = ['CTRL'] as const;
export type KeyModifier = (typeof KEY_MODIFIERS)[number];

/** One finger of a streamed touch (the viewer's drags): down, moves, then up or cancel. */
export type TouchPhase = 'down' | 'move' | 'up' | 'cancel';
