import type { UiElement } from '../types.js';
import { isPositionalId } from '../ui-tree.js';
import { appErrorNote, showsAppError } from '../listing/app-error.js';
import { cutAtListEdge } from '../list-edge.js';
import { identifiable, showsAs } from '../listed-elements.js';
import { requirePackageId } from './app-package.js';
import { shownName } from './element-name.js';
import { asOneUnit, call, isDialog, isLoadingIndicator, listElements, textOf, within } from './screen.js';
import { findTarget, TargetMissing, requestOf, resolvedOf, targetPresent, verbScreenSize } from './target.js';
import { VerbError, type ResolvedElement, type VerbContext, type VerbStep } from './types.js';
import { fieldName, focusedFieldName, typedMessage, typesAfterEnter } from './typed-message.js';

/** What an action did: the element it acted on, a message, and for capture_value the text read. */
export interface ActionResult {
  resolved?: ResolvedElement;
  message: string;
  value?: string;
}

export type ActionFn = (ctx: VerbContext, step: VerbStep) => Promise<ActionResult>;

const DEFAULT_WAIT_MS = 10_000;
/** scroll_to's swipes each way (its tool description says so). */
export const MAX_SWIPES_EACH_WAY = 16;
/** Extra short scrolls for an element cut by its list's edge. */
const MAX_NUDGES = 3;

function need(step: VerbStep, field: 'value', what: string): string {
  const v = step[field];
  if (v === undefined || v === '') throw new VerbError('INVALID_PARAMETER', `${step.action} needs "value": ${what}`);
  return v;
}

function appPackage(ctx: VerbContext, step: VerbStep): string {
  const pkg = step.value || ctx.appPackage;
  if (!pkg) throw new VerbError('INVALID_PARAMETER', `${step.action} needs a package: give the step a "value" or run it inside a scenario with app_package`);
  return pkg;
}

/**
 * Runs `work` (which looks for the step's target within `waitMs`) as one unit on the device. A target
 * not there at the first look is waited for outside the unit, so the wait (up to the verb's target
 * wait) holds up no other caller and no viewer's frames; once it shows, the unit runs again. Inside a
 * unit of the caller's the device is held anyway: `work` waits there.
 */
async function waitingOutsideTheUnit<T>(ctx: VerbContext, step: VerbStep, prefer: ((e: UiElement) => boolean) | undefined, work: (unit: VerbContext, waitMs?: number) => Promise<T>): Promise<T> {
  if (ctx.hold?.covers(ctx.device)) return work(ctx);
  try {
    return await asOneUnit(ctx, step.action, (unit) => work(unit, 0));
  } catch (err) {
    if (!(err instanceof TargetMissing)) throw err;
  }
  await findTarget(ctx, step, 'interact', undefined, prefer);
  return asOneUnit(ctx, step.action, (unit) => work(unit, 0));
}

/**
 * Resolves the step's target for acting on it (refusing a disabled one) and runs `tool` on its
 * centre, as one unit on the device: another call (the same agent's next tool call sent at once,
 * a viewer's swipe) landing between the look and the tap would move the screen under the
 * coordinates, and the verb would report the element it meant while touching another.
 */
async function actOn(ctx: VerbContext, step: VerbStep, tool: string, extra: Record<string, unknown> = {}, prefer?: (e: UiElement) => boolean, waitMs?: number): Promise<{ element: UiElement; resolved: ResolvedElement; elements: UiElement[] }> {
  const act = async (unit: VerbContext, wait?: number) => {
    const found = await findTarget(unit, step, 'interact', wait, prefer);
    const { element, elements } = found;
    if (!element.enabled) {
      throw new VerbError('ELEMENT_NOT_FOUND', `the target ${JSON.stringify(shownName(element, elements) ?? element.id)} (${element.type}) is disabled on ${ctx.device}; complete what enables it first`);
    }
    await call(unit, tool, { x: element.center.x, y: element.center.y, ...extra });
    return found;
  };
  // Inside a type step's unit the type step decides where to wait (`waitMs`).
  return ctx.hold?.covers(ctx.device) ? act(ctx, waitMs) : waitingOutsideTheUnit(ctx, step, prefer, act);
}

async function gesture(ctx: VerbContext, step: VerbStep, tool: string, verb: string): Promise<ActionResult> {
  const { element, resolved, elements } = await actOn(ctx, step, tool);
  return { resolved, message: `${verb} ${describe(element, elements)}` };
}

/** A text field (SPEC §2's edittext covers Android EditText and iOS text, secure, search fields and text views). */
const isField = (e: UiElement) => e.type === 'edittext';

/**
 * Taps the target of a type step and says which field will take the text. Typing goes to the
 * focused field whatever was tapped, so a target that is not a field counts only when the tap left
 * the focus on a field inside it; otherwise nothing is typed (the text would land elsewhere).
 */
async function tapFieldOf(ctx: VerbContext, step: VerbStep, waitMs?: number): Promise<ResolvedElement> {
  const { element, resolved, elements } = await actOn(ctx, step, 'mobile_click_on_screen_at_coordinates', {}, isField, waitMs);
  if (isField(element)) return resolved;
  const focused = (await listElements(ctx)).find((e) => e.focused && isField(e));
  if (focused && within(focused, element)) return resolvedOf(focused, resolved.confidence);
  const where = focused
    ? `the focus is on another field, ${describe(focused)}${focused.hint && shownName(focused) !== focused.hint ? ` with hint ${JSON.stringify(focused.hint)}` : ''}, so typing would have gone there`
    : 'no text field has the focus after the tap';
  throw new VerbError(
    'INVALID_PARAMETER',
    `type: the target ${describe(element, elements)} on ${ctx.device} is not a text field. It was tapped, but ${where}: nothing was typed, no field took the text. Describe the field to type into (e.g. "the Email field"); list_elements shows the edittext elements`,
  );
}

/**
 * An element as messages name it: as the inspector does (shownName: a row by its title, a field by
 * its label rather than what was typed into it), else by its id; `elements` is the listing it is in.
 */
export function describe(e: UiElement, elements: readonly UiElement[] = []): string {
  return `${JSON.stringify(shownName(e, elements) ?? e.id)} (${e.type}) at (${e.center.x}, ${e.center.y})`;
}

function timeoutOf(step: VerbStep): number {
  return step.wait_config?.timeout_ms ?? DEFAULT_WAIT_MS;
}

/** A home screen and the system bars on it: where a left or dead app leaves the device. */
const HOME = /launcher|springboard|systemui/i;

/**
 * Why a wait cannot count what it sees as its app's screen: Android's app error dialog over it (an
 * app that crashed or does not respond shows no spinner and no element), or, when the scenario's app
 * is known, the home screen (the app was left or died: no spinner there either). Another app in front
 * (a browser tab the app opened) is not judged. A wait does not pass on such a screen: it goes on
 * looking, and its timeout says why.
 */
function notTheApp(ctx: VerbContext, elements: UiElement[]): string | undefined {
  if (showsAppError(elements)) return appErrorNote(elements);
  const pkg = ctx.appPackage;
  const owners = [...new Set(elements.map((e) => e.package).filter((p): p is string => !!p))];
  if (pkg && owners.length && !owners.includes(pkg) && owners.every((o) => HOME.test(o))) return `${pkg} is not in front: the home screen shows (${owners.slice(0, 3).join(', ')})`;
  return undefined;
}

/**
 * Looks at the screen until `done` says so of a screen of the app (notTheApp) or the step's timeout
 * passes; gives the last listing, and on timeout why that screen could not count.
 */
async function poll(ctx: VerbContext, step: VerbStep, done: (elements: UiElement[]) => Promise<boolean> | boolean): Promise<{ done: boolean; elements: UiElement[]; why?: string }> {
  const deadline = ctx.clock.now() + timeoutOf(step);
  for (;;) {
    const elements = await listElements(ctx);
    const why = notTheApp(ctx, elements);
    if (!why && (await done(elements))) return { done: true, elements };
    if (ctx.clock.now() >= deadline) return { done: false, elements, why };
    await ctx.clock.sleep(ctx.pollMs, ctx.signal);
  }
}

/**
 * The element chosen before scrolling, found again on the moved screen by what it shows (its text,
 * label and type, shown by no other element), else the step resolved afresh. Resolving the
 * description again would chase another element: "the last row" is a new row after each scroll.
 */
async function following(ctx: VerbContext, step: VerbStep, chosen: { element: UiElement; resolved: ResolvedElement }): Promise<{ element: UiElement; resolved: ResolvedElement; elements: UiElement[] }> {
  const elements = await listElements(ctx);
  const was = { text: chosen.element.text, label: chosen.element.accessibility_label, type: chosen.element.type };
  // A textless row is known by the app's id for it (`item_16`); an id from its place in the tree (`n0…`) moves with the scroll.
  const byId = isPositionalId(chosen.element.id) ? [] : elements.filter((e) => e.id === chosen.element.id && e.type === was.type);
  const same = identifiable(was) ? elements.filter((e) => showsAs(e, was)) : byId;
  if (same.length === 1) return { element: same[0], resolved: resolvedOf(same[0], chosen.resolved.confidence), elements };
  return findTarget(ctx, step, 'interact', 0);
}

/**
 * The element chosen, checked whole after the engine's scroll: one still cut by the edge of its list
 * (a row under a bottom bar) is scrolled by what is missing, and one that stays cut is an error, so the
 * verb's "scrolled to" means the whole element is in view (the engine's tool answers success with a
 * "partly on screen" note there). Usually one listing that finds it whole.
 */
async function intoList(ctx: VerbContext, step: VerbStep, chosen: { element: UiElement; resolved: ResolvedElement }): Promise<{ element: UiElement; resolved: ResolvedElement; elements: UiElement[] }> {
  for (let nudge = 0; ; nudge++) {
    const found = await following(ctx, step, chosen);
    const cut = cutAtListEdge(found.element, found.elements);
    if (!cut) return found;
    if (nudge === MAX_NUDGES) {
      throw new VerbError('ELEMENT_NOT_FOUND', `${describe(found.element, found.elements)} is still cut off at the ${cut.edge} of its list on ${ctx.device} after ${nudge} extra scrolls; the list may not scroll further`);
    }
    // "up" moves the content up, bringing in what is cut at the bottom; a quarter row of margin.
    await call(ctx, 'mobile_swipe_on_screen', { direction: cut.edge === 'bottom' ? 'up' : 'down', distance: cut.missing + Math.round(cut.height / 4) });
  }
}

/** How one way of a scroll_to search went: its swipes, whether the list stopped moving, and what showed last at that end. */
interface ScrollWay {
  direction: 'up' | 'down';
  swipes: number;
  stopped: boolean;
  last?: string;
}

/**
 * What shows at the end a search way reached: the row (or text) nearest that end of the screen, by
 * the name the inspector gives it (a row without text of its own by its title).
 */
function endName(elements: readonly UiElement[], way: 'up' | 'down'): string | undefined {
  const rows = elements.filter((e) => e.type === 'listitem');
  const named = (rows.length ? rows : elements.filter((e) => e.type === 'text')).flatMap((e) => {
    const name = shownName(e, elements);
    return name ? [{ name, y: e.center.y }] : [];
  });
  // "up" moves the content up: it ends at the bottom of the list.
  named.sort((a, b) => (way === 'up' ? b.y - a.y : a.y - b.y));
  return named[0]?.name;
}

function wayWords(w: ScrollWay): string {
  const at = w.last ? `, at ${JSON.stringify(w.last)}` : '';
  const swipes = `${w.swipes} swipe${w.swipes === 1 ? '' : 's'} ${w.direction}`;
  if (!w.stopped) return `${swipes} (the most each way) with the list still moving${at}`;
  if (w.swipes <= 1) return `${swipes} moved nothing${at}`;
  return `${swipes} until the list stopped moving at its ${w.direction === 'up' ? 'bottom' : 'top'}${at}`;
}

async function scrollToTarget(ctx: VerbContext, step: VerbStep): Promise<ActionResult> {
  if (step.target === undefined && step.target_pattern === undefined) {
    throw new VerbError('INVALID_PARAMETER', 'scroll_to_element needs "target" (a description such as "the Load more button") or "target_pattern" (a regex over the element text); add one');
  }
  const size = await verbScreenSize(ctx);
  const ways: ScrollWay[] = [];
  for (const direction of ['up', 'down'] as const) {
    const way: ScrollWay = { direction, swipes: 0, stopped: false };
    ways.push(way);
    let previous = '';
    for (;;) {
      const elements = await listElements(ctx);
      const signature = elements.map((e) => `${e.id}@${e.y}`).join('|');
      if (await targetPresent(ctx, requestOf(step, 'interact'), elements)) {
        const chosen = await findTarget(ctx, step, 'interact', 0);
        // The engine's own scroll nudges an element cut by a screen or list edge fully into view.
        await call(ctx, 'mobile_scroll_to_element', { element: chosen.element.id });
        const { element: shown, resolved, elements: now } = await intoList(ctx, step, chosen);
        const scrolls = ways.reduce((n, w) => n + w.swipes, 0);
        return { resolved, message: `scrolled to ${describe(shown, now)}${scrolls ? ` after ${scrolls} swipes` : ''}` };
      }
      way.last = endName(elements, direction);
      // The swipe before this look did not move the list: this end of it is reached.
      if (signature === previous) {
        way.stopped = true;
        break;
      }
      if (way.swipes === MAX_SWIPES_EACH_WAY) break;
      previous = signature;
      // "up" moves the content up, revealing what lies below; half a screen keeps items from being skipped.
      await call(ctx, 'mobile_swipe_on_screen', { direction, distance: Math.round(size.height * 0.5) });
      way.swipes++;
    }
  }
  throw new VerbError(
    'ELEMENT_NOT_FOUND',
    `${JSON.stringify(step.target ?? step.target_pattern)} did not appear on ${ctx.device}: ${ways.map(wayWords).join(', then ')}; check the description or the screen the step starts on`,
  );
}

/**
 * An Android field listed without a hint attribute (plain `uiautomator dump`) shows its placeholder as
 * its text when it is empty (TextView.getTextForAccessibility): such a read may be the placeholder.
 */
function placeholderDoubt(ctx: VerbContext, element: UiElement, value: string): string {
  if (ctx.os !== 'Android' || !isField(element) || value === '' || element.hint !== undefined) return '';
  return `; Android's screen dump shows an empty field's placeholder as its text, so if ${JSON.stringify(value)} is the placeholder the field is empty (not confirmed)`;
}

/**
 * What a tool added after its "did X on DEVICE" (where a link landed, how an app came up), as
 * "; note" for the step's own message, or "" when it added nothing.
 */
function noteOf(message: string): string {
  const note = message.split('; ').slice(1).join('; ');
  return note ? `; ${note}` : '';
}

export const CORE_ACTIONS: Record<string, ActionFn> = {
  async launch_app(ctx, step) {
    const pkg = appPackage(ctx, step);
    await requirePackageId(ctx, 'launch_app', pkg);
    const launched = await call<{ message: string }>(ctx, 'mobile_launch_app', { packageName: pkg });
    return { message: `launched ${pkg}${noteOf(launched.message)}` };
  },
  tap: (ctx, step) => gesture(ctx, step, 'mobile_click_on_screen_at_coordinates', 'tapped'),
  double_tap: (ctx, step) => gesture(ctx, step, 'mobile_double_tap_on_screen', 'double-tapped'),
  long_press: (ctx, step) => gesture(ctx, step, 'mobile_long_press_on_screen_at_coordinates', 'long-pressed'),
  async type(ctx, step) {
    const text = step.value ?? '';
    // "" with clear_first only empties the field (schema 2.2), as mobile_type_keys does.
    if (text === '' && !step.clear_first) throw new VerbError('INVALID_PARAMETER', 'type needs "value": the text to type (or "clear_first": true with "value": "" to only empty the field)');
    let resolved: ResolvedElement | undefined;
    let typed: { message: string } | undefined;
    let focusedNow: string | null | undefined;
    // With a target the field is tapped first, since typing goes to the focused field (seed §4.2 rule 1);
    // tap and typing are one unit on the device, so another caller's tap cannot move the focus between them.
    const targeted = Boolean(step.target || step.target_pattern);
    const typeInUnit = async (unit: VerbContext, waitMs?: number) => {
      if (targeted) resolved = await tapFieldOf(unit, step, waitMs);
      typed = await call<{ message: string }>(unit, 'mobile_type_keys', { text, submit: false, ...(step.clear_first ? { clear_first: true } : {}) });
      // Text after an ENTER went wherever the focus was then: the field holding it now is the best account of where.
      if (typesAfterEnter(text)) {
        // A listing that fails leaves it unsaid; the typing itself is done.
        const now = await listElements(unit).then((elements) => elements.find((e) => e.focused && isField(e)) ?? null, () => undefined);
        focusedNow = now && focusedFieldName(now);
      }
    };
    // A field not on screen yet is waited for outside the unit, as a tap's target is.
    if (targeted) await waitingOutsideTheUnit(ctx, step, isField, typeInUnit);
    else await asOneUnit(ctx, 'type', (unit) => typeInUnit(unit));
    const field = resolved ? fieldName(resolved.label, resolved.id, step.target || resolved.id) : undefined;
    const message = text === '' ? `emptied the field${field ? ` ${field}` : ''}` : `${step.clear_first ? 'emptied the field, then ' : ''}${typedMessage(text, field, focusedNow)}`;
    // Without a target nothing here saw a field take the keys: the driver's word on that is kept
    // (Android: "does not confirm that a text field took it …"). With one, the tap found the field focused.
    return { resolved, message: resolved || !typed ? message : `${message}${noteOf(typed.message)}` };
  },
  async swipe(ctx, step) {
    const direction = need(step, 'value', 'up, down, left or right').toLowerCase();
    if (!['up', 'down', 'left', 'right'].includes(direction)) throw new VerbError('INVALID_PARAMETER', `swipe value must be up, down, left or right (got ${JSON.stringify(step.value)})`);
    await call(ctx, 'mobile_swipe_on_screen', { direction });
    return { message: `swiped ${direction}` };
  },
  scroll_to_element: scrollToTarget,
  async press_button(ctx, step) {
    const button = need(step, 'value', 'BACK, HOME or ENTER').toUpperCase();
    await call(ctx, 'mobile_press_button', { button });
    return { message: `pressed ${button}` };
  },
  async open_url(ctx, step) {
    const url = need(step, 'value', 'the URL or deep link to open');
    const opened = await call<{ message: string }>(ctx, 'mobile_open_url', { url });
    return { message: `opened ${url}${noteOf(opened.message)}` };
  },
  async wait_for_element(ctx, step) {
    const waitMs = timeoutOf(step);
    const started = ctx.clock.now();
    try {
      const { element, resolved, elements } = await findTarget(ctx, step, 'read', waitMs);
      return { resolved, message: `${describe(element, elements)} is visible` };
    } catch (err) {
      // Running out of time is a TIMEOUT, like the other waits; a near-tie fails at once and stays ELEMENT_NOT_FOUND.
      if (err instanceof VerbError && err.code === 'ELEMENT_NOT_FOUND' && ctx.clock.now() - started >= waitMs) {
        throw new VerbError('TIMEOUT', `${JSON.stringify(step.target ?? step.target_pattern)} did not appear on ${ctx.device} within ${waitMs} ms: ${err.message}`, err.candidates);
      }
      throw err;
    }
  },
  async wait_for_element_gone(ctx, step) {
    const request = requestOf(step, 'read');
    const seen = await poll(ctx, step, async (elements) => !(await targetPresent(ctx, request, elements)));
    if (!seen.done) throw new VerbError('TIMEOUT', `${JSON.stringify(step.target ?? step.target_pattern)} was still on screen of ${ctx.device} after ${timeoutOf(step)} ms${seen.why ? `: ${seen.why}` : ''}`);
    const dialog = seen.elements.find(isDialog);
    const covered = dialog ? `; a dialog is showing (${describe(dialog, seen.elements)}), which may only cover it` : '';
    return { message: `${JSON.stringify(step.target ?? step.target_pattern)} is gone${covered}` };
  },
  async wait_for_loading_complete(ctx, step) {
    const indicator = step.wait_config?.indicator ?? 'any';
    const seen = await poll(ctx, step, (elements) => !elements.some((e) => isLoadingIndicator(e, indicator)));
    if (!seen.done) {
      const what = seen.why ? 'loading could not be seen to complete' : `a ${indicator === 'any' ? 'loading' : indicator} indicator was still showing`;
      throw new VerbError('TIMEOUT', `${what} on ${ctx.device} after ${timeoutOf(step)} ms${seen.why ? `: ${seen.why}` : ''}`);
    }
    return { message: 'loading complete' };
  },
  async capture_value(ctx, step) {
    // An element that shows no text is not a read of "" (a row cut by the screen edge whose texts
    // are off screen, a text still loading), so it is looked at again while the screen settles.
    // An empty text field does hold "": that read is true.
    const deadline = ctx.clock.now() + ctx.targetWaitMs;
    for (;;) {
      const { element, resolved, elements } = await findTarget(ctx, step, 'read');
      const value = textOf(element, elements);
      if (value !== '' || isField(element)) return { resolved, value, message: `read ${JSON.stringify(value)} from ${describe(element, elements)}${placeholderDoubt(ctx, element, value)}` };
      if (ctx.clock.now() >= deadline) {
        throw new VerbError(
          'ELEMENT_NOT_FOUND',
          `${describe(element, elements)} was found on ${ctx.device} but shows no text: no text or label of its own and no text inside it on screen. Scroll it into view first (MCP scroll_to, a scroll_to_element step) if its text is off screen, or describe the element that shows the text`,
        );
      }
      await ctx.clock.sleep(ctx.pollMs, ctx.signal);
    }
  },
  async clear_app_data(ctx, step) {
    const pkg = appPackage(ctx, step);
    await requirePackageId(ctx, 'clear_app_data', pkg);
    try {
      await call(ctx, 'mobile_clear_app_data', { packageName: pkg });
    } catch (err) {
      if (err instanceof VerbError && err.code === 'UNSUPPORTED') {
        throw new VerbError('NEEDS_MANUAL', `clearing app data cannot be done unattended on ${ctx.device} (${ctx.os}): ${err.message}. Reinstall ${pkg} by hand, then continue`);
      }
      throw err;
    }
    return { message: `cleared the data of ${pkg}` };
  },
};
