import { normalizeText } from '../resolve/index.js';
import type { UiElement } from '../types.js';
import { isDialog, within } from './screen.js';

/** Packages that own Android's runtime permission prompt (GrantPermissionsActivity; packageinstaller before Android 10). */
const ANDROID_PROMPT_OWNERS = /permissioncontroller|packageinstaller/i;
/** Packages that own system permission prompts on Android and iOS (an iOS prompt is SpringBoard's alert). */
const PROMPT_OWNERS = /permissioncontroller|packageinstaller|com\.apple\.springboard/i;
const PERMISSION_IDS = /permission_(allow|deny)/i;
const PERMISSION_WORDING = /\b(allow|would like to access|would like to send|to access|take pictures|record audio)\b/i;

/** Texts of a showing dialog: its label and every element inside its bounds. */
export function dialogTexts(elements: UiElement[]): string[] | undefined {
  const dialog = elements.find(isDialog);
  if (!dialog) return undefined;
  const inside = elements.filter((e) => e !== dialog && within(e, dialog));
  return textsOf([dialog, ...inside]);
}

/**
 * Each text once, in order: an iOS element's label repeats its text, and an alert's label its
 * title, so a verdict quoting them said everything two or three times.
 */
function textsOf(elements: UiElement[]): string[] {
  return [...new Set(elements.flatMap((e) => [e.text, e.accessibility_label ?? '']).filter(Boolean))];
}

export interface PermissionPrompt {
  texts: string[];
  /** The prompt's own elements: its buttons are among them. */
  elements: UiElement[];
}

/**
 * The system permission prompt showing, if one is: a dialog owned by the system or worded as one
 * (with an Allow / Don't allow button), or, on Android, the permission controller's screen, whose
 * views are no AlertDialog. An app's own dialog ("We need the camera — Continue") is not one, nor
 * is a screen with an "OK" somewhere on it.
 */
export function permissionPrompt(elements: UiElement[]): PermissionPrompt | undefined {
  const dialog = elements.find(isDialog);
  if (dialog) {
    const inside = elements.filter((e) => within(e, dialog));
    const texts = dialogTexts(elements) ?? [];
    const system = inside.some((e) => PROMPT_OWNERS.test(e.package ?? '') || PERMISSION_IDS.test(e.resource_id ?? ''));
    const worded = texts.some((t) => PERMISSION_WORDING.test(t)) && inside.some((e) => /^(allow|don.t allow|deny)$/i.test(normalizeText(e.text)));
    return system || worded ? { texts, elements: inside } : undefined;
  }
  const own = elements.filter((e) => ANDROID_PROMPT_OWNERS.test(e.package ?? '') || PERMISSION_IDS.test(e.resource_id ?? ''));
  if (!own.length) return undefined;
  return { texts: textsOf(own), elements: own };
}
