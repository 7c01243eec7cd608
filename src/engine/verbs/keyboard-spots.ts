import type { UiElement } from '../types.js';
import { within, words } from './screen.js';

/**
 * Where to tap to close the iOS keyboard the way a user does, without acting on the form: a key
 * that only closes it, a spot outside the field, or a plain return key where that ends editing.
 */

/** Keys and accessory buttons that only close the iOS keyboard (a "Go" or "Send" key would act). */
const IOS_CLOSE_KEYS = ['done', 'hide keyboard', 'dismiss keyboard', 'close keyboard'];
/** The plain return key: in a single-line field iOS apps usually end editing with it (never in a text view). */
const IOS_RETURN_KEY = 'return';
/** Above this share of the screen lies the navigation bar: a tap there may navigate. */
export const TOP_BAND = 0.15;

export type Spot = { element: UiElement; what: string } | undefined;

export function closeKey(elements: UiElement[], keyboard: UiElement | undefined): Spot {
  // A Done key on the keyboard, or a Done button on the accessory bar just above it.
  const near = (e: UiElement) => !keyboard || within(e, keyboard) || (e.center.y < keyboard.y && e.center.y > keyboard.y - keyboard.height / 3);
  const key = elements.find((e) => e.type !== 'keyboard' && near(e) && words(e).some((w) => IOS_CLOSE_KEYS.includes(w)));
  return key && { element: key, what: `its ${JSON.stringify(key.text || key.accessibility_label)} key` };
}

export function returnKeyOf(elements: UiElement[], keyboard: UiElement | undefined): Spot {
  // In a multi-line text view (XCUIElementTypeTextView) return types a newline and the keyboard stays.
  if (elements.some((e) => e.focused && /TextView/.test(e.class ?? ''))) return undefined;
  const key = keyboard && elements.find((e) => e.type !== 'keyboard' && within(e, keyboard) && words(e).includes(IOS_RETURN_KEY));
  return key && { element: key, what: 'the return key' };
}

const INTERACTIVE = new Set(['button', 'edittext', 'checkbox', 'switch', 'radio', 'tab', 'link', 'listitem', 'keyboard', 'dialog', 'webview']);

/** A static text of the app, away from anything tappable: a tap there ends editing and does nothing else. */
export function outsideSpot(elements: UiElement[], keyboard: UiElement | undefined, screenHeight: number): Spot {
  const interactive = elements.filter((e) => INTERACTIVE.has(e.type) || e.clickable);
  const inside = (e: UiElement, box: UiElement) => e !== box && within(e, box);
  const spot = elements.find(
    (e) =>
      e.type === 'text' &&
      !e.clickable &&
      e.center.y > screenHeight * TOP_BAND &&
      (!keyboard || e.center.y < keyboard.y) &&
      !interactive.some((i) => inside(e, i)),
  );
  return spot && { element: spot, what: `a tap outside the field (on ${JSON.stringify(spot.text)})` };
}
