import type { UiElement } from '../types.js';
import type { ActionFn } from './actions.js';
import { describe } from './actions.js';
import { closeKey, outsideSpot, returnKeyOf, TOP_BAND } from './keyboard-spots.js';
import { dialogTexts, permissionPrompt, type PermissionPrompt } from './permission-prompt.js';
import { call, isKeyboard, keyboardVisible, listElements, screenFingerprint, words } from './screen.js';
import { normalizeText } from '../resolve/index.js';
import { resolvedOf, verbScreenSize } from './target.js';
import { VerbError, type VerbContext } from './types.js';

/**
 * Button wording of the system permission prompts, most permissive first (field notes,
 * mobile-automator). Compared after normalisation, so "Don’t Allow" equals "don't allow".
 */
export const PERMISSION_LABELS = {
  Android: {
    allow: ['allow', 'while using the app', 'allow only this time', 'only this time', 'ok', 'continue'],
    deny: ['deny', "don't allow", 'deny & don\'t ask again'],
  },
  iOS: {
    allow: ['allow', 'allow while using app', 'allow once', 'ok'],
    deny: ["don't allow"],
  },
} as const;

/** Labels of a navigation bar's back button. */
const BACK_LABELS = ['back', 'navigate up'];

const pressBack: ActionFn = async (ctx) => {
  if (ctx.os === 'Android') {
    await call(ctx, 'mobile_press_button', { button: 'BACK' });
    return { message: 'pressed BACK' };
  }
  const elements = await listElements(ctx);
  const size = await verbScreenSize(ctx);
  const back = elements.find((e) => e.type === 'button' && e.center.y < size.height * TOP_BAND && words(e).some((w) => BACK_LABELS.includes(w)));
  if (back) {
    await call(ctx, 'mobile_click_on_screen_at_coordinates', { x: back.center.x, y: back.center.y });
    return { resolved: resolvedOf(back, 1), message: `tapped the navigation bar's back button ${describe(back, elements)}` };
  }
  // iOS has no back key: the system gesture is a swipe from the left edge to the right. No tool
  // swipes from an edge, so it goes straight to the device in its queue.
  const y = Math.round(size.height / 2);
  await ctx.engine.withDevice(ctx.device, 'left-edge back swipe', (h, c) => h.swipe(2, y, Math.round(size.width * 0.7), y, 300, c));
  // The gesture answers nothing: on a root screen, or under an alert, it does nothing at all.
  const before = screenFingerprint(elements);
  for (const until = ctx.clock.now() + BACK_SETTLE_MS; ; ) {
    if (screenFingerprint(await listElements(ctx)) !== before) return { message: 'swiped right from the left edge (iOS back gesture)' };
    if (ctx.clock.now() >= until) break;
    await ctx.clock.sleep(ctx.pollMs, ctx.signal);
  }
  throw new VerbError('ELEMENT_NOT_FOUND', `nothing went back on ${ctx.device}: there is no back button in the navigation bar, and the screen did not change after the iOS back gesture (a swipe from the left edge) within ${BACK_SETTLE_MS} ms: this is a root screen, or a dialog that wants one of its buttons`);
};

/** How long the back gesture's navigation may take to show in the listing. */
const BACK_SETTLE_MS = 1500;

const dismissKeyboard: ActionFn = async (ctx) => {
  let elements = await listElements(ctx);
  if (!(await keyboardVisible(ctx, elements))) return { message: 'the keyboard was not showing' };
  const tried: string[] = [];
  const gone = async () => {
    elements = await listElements(ctx);
    return !(await keyboardVisible(ctx, elements));
  };
  if (ctx.os === 'Android') {
    // BACK closes the keyboard first and only then navigates.
    await call(ctx, 'mobile_press_button', { button: 'BACK' });
    tried.push('BACK');
    if (await gone()) return { message: 'closed the keyboard with BACK' };
  } else {
    // WebDriverAgent's own dismissal first (it looks for the keyboard's Done/return key itself);
    // never a typed newline.
    const dismissed = await ctx.engine
      .withDevice(ctx.device, 'dismissing the keyboard', async (h, c) => (h.dismissKeyboard ? (await h.dismissKeyboard(c), true) : false))
      .catch(() => false);
    if (dismissed) {
      tried.push("the platform's keyboard dismissal");
      if (await gone()) return { message: "closed the keyboard with the platform's own dismissal (its Done/return key)" };
    }
    // Then the way iOS users do it: the Done key, a tap outside the field, then a plain return key.
    // Never ENTER: on a Next or Go key it moves on or submits the form.
    const keyboard = elements.find(isKeyboard);
    for (const attempt of [closeKey, outsideSpot, returnKeyOf]) {
      const spot = attempt(elements, keyboard, (await verbScreenSize(ctx)).height);
      if (!spot) continue;
      await call(ctx, 'mobile_click_on_screen_at_coordinates', { x: spot.element.center.x, y: spot.element.center.y });
      tried.push(spot.what);
      if (await gone()) return { message: `closed the keyboard with ${spot.what}` };
    }
  }
  const how = ctx.os === 'iOS' ? 'give the field a Done key, or let a tap outside it end editing' : 'close it with the app\'s own control';
  throw new VerbError('INVALID_PARAMETER', `the keyboard is still showing on ${ctx.device} after ${tried.join(', then ') || 'finding no Done key, return key or free spot to tap'}; ${how}`);
};

/** A label as whole words of the button's text ("allow" in "Allow only while using the app", never "ok" in "Outlook"). */
const hasLabel = (word: string, label: string): boolean => new RegExp(`(^|[^\\p{L}\\p{N}])${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^\\p{L}\\p{N}])`, 'u').test(word);

function permissionButton(ctx: VerbContext, prompt: PermissionPrompt, grant: boolean): UiElement | undefined {
  const labels = PERMISSION_LABELS[ctx.os];
  const wanted: readonly string[] = grant ? labels.allow : labels.deny;
  const opposite: readonly string[] = grant ? labels.deny : labels.allow;
  const buttons = prompt.elements.filter((e) => e.type === 'button' || e.clickable);
  // Exact wording first, in the list's order; then a longer text that holds the wording as words.
  for (const label of wanted) {
    const hit = buttons.find((b) => words(b).includes(label));
    if (hit) return hit;
  }
  return buttons.find((b) => words(b).some((w) => wanted.some((l) => hasLabel(w, l)) && !opposite.includes(w)));
}

function permissionVerb(grant: boolean): ActionFn {
  return async (ctx, step) => {
    const elements = await listElements(ctx);
    const prompt = permissionPrompt(elements);
    const labels = (grant ? PERMISSION_LABELS[ctx.os].allow : PERMISSION_LABELS[ctx.os].deny).join('", "');
    if (!prompt) {
      // An app's own dialog is no permission prompt: "granted" would claim what did not happen.
      const other = dialogTexts(elements);
      const showing = other ? `; the dialog showing is the app's own ("${other.join(' / ').slice(0, 120)}"): tap its button with a tap step` : '';
      throw new VerbError('ELEMENT_NOT_FOUND', `no permission prompt is showing on ${ctx.device}${showing}; trigger the prompt first (the step before should request the permission)`);
    }
    const button = permissionButton(ctx, prompt, grant);
    if (!button) throw new VerbError('ELEMENT_NOT_FOUND', `the permission prompt on ${ctx.device} has no "${labels}" button ("${prompt.texts.join(' / ').slice(0, 120)}")`);
    if (step.permission_name) {
      const promptText = prompt.texts.map(normalizeText).join(' ');
      const name = normalizeText(step.permission_name);
      if (!promptText.includes(name) && !(PERMISSION_WORDS[name] ?? []).some((w) => promptText.includes(w))) {
        throw new VerbError('ELEMENT_NOT_FOUND', `the permission prompt on ${ctx.device} does not ask for ${step.permission_name} ("${promptText.slice(0, 120)}")`);
      }
    }
    await call(ctx, 'mobile_click_on_screen_at_coordinates', { x: button.center.x, y: button.center.y });
    return { resolved: resolvedOf(button, 1), message: `${grant ? 'granted' : 'denied'} the permission with ${describe(button, prompt.elements)}` };
  };
}

/** How system prompts word each permission (Android asks to "take pictures", iOS to "access the camera"). */
export const PERMISSION_WORDS: Record<string, string[]> = {
  camera: ['camera', 'take pictures', 'photo'],
  location: ['location'],
  microphone: ['microphone', 'record audio'],
  contacts: ['contacts'],
  photos: ['photos', 'media', 'images'],
  notifications: ['notifications', 'send you notifications'],
  bluetooth: ['bluetooth', 'nearby devices'],
};

export const SEMANTIC_ACTIONS: Record<string, ActionFn> = {
  press_back: pressBack,
  dismiss_keyboard: dismissKeyboard,
  grant_permission: permissionVerb(true),
  deny_permission: permissionVerb(false),
};
