import type { Engine } from '../engine.js';
import { failure, isToolFailure, type ToolFailure } from '../errors.js';
import { fieldName, isTextField } from '../readable-name.js';
import { readingOrder, type Resolver, type ResolveRequest } from '../resolve/index.js';
import { DeterministicResolver } from '../resolve/index.js';
import type { UiElement } from '../types.js';
import type { ScreenSize } from '../ui-tree.js';
import { ROLE_WORD, seenName } from './element-name.js';
import { snakeCase } from './scenario-ids.js';

/**
 * The inspector's question: how would a scenario name this element, and does that name lead the
 * resolver back to it and only it on the screen as it is now? Candidates are tried with the same
 * resolver the runner uses, from the plainest wording to the most specific (quotes, a pattern, a
 * position, an ordinal, a nearby label), so what is offered is what a replay would accept.
 */

/** A way to name the element in a step: `target`, optionally narrowed by `target_pattern`. */
export interface TargetForm {
  target: string;
  target_pattern?: string;
}

/** An element as the inspector lists it among matches. */
export interface ElementSummary {
  id: string;
  type: string;
  text: string;
  label: string | null;
}

export interface StepExamples {
  tap: Record<string, unknown>;
  /** Only for text fields. */
  type?: Record<string, unknown>;
  /** An element_visible assertion after the tap (pattern_match with the pattern when the wording needs one). */
  assert: Record<string, unknown>;
}

export interface ElementDescription {
  device: string;
  element: string;
  /** The plain wording (what the recorder writes, with the element's role word); null when the element shows nothing to name it by. */
  target: string | null;
  /** `target` resolves to this element, and the resolver sees no near-tie. */
  unique: boolean;
  /** Elements that fit `target` (the resolver's findAll, reading order, at most 5): more than one explains a non-unique target. */
  matches: ElementSummary[];
  /** When `target` is not unique: the most specific form the resolver accepts for this element, or null when none exists. */
  alternative?: TargetForm | null;
  /** Ready scenario pieces using `target` (unique) or `alternative`; absent when neither resolves here. */
  step_examples?: StepExamples;
  /** One sentence on the outcome, for people. */
  message: string;
}

const MAX_MATCHES = 5;
const ORDINAL_WORDS = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth'];
const POSITION_PHRASES = ['at the top', 'at the bottom', 'on the left', 'on the right'];
/** Texts near a nameless element that may label it ("the field below Email"). */
const NEARBY_LABELS = 3;

function summary(e: UiElement): ElementSummary {
  return { id: e.id, type: e.type, text: e.text, label: e.accessibility_label };
}

/**
 * A field is known by its label, placeholder or resource id, as the recorder names it: its text is
 * what someone typed, which a replay on an empty form does not find (and may be a secret).
 */
function nameOf(e: UiElement): string | undefined {
  if (isTextField(e)) return seenName({ text: fieldName(e) });
  return seenName({ text: e.text, label: e.accessibility_label }) ?? seenName({ text: e.hint });
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Scenario strings treat `${…}` as a variable; a literal one is written `$${…}` (SPEC §3). */
function literal(s: string): string {
  return s.replace(/\$\{/g, '$${');
}

function phrase(...parts: (string | undefined)[]): string {
  return parts.filter(Boolean).join(' ');
}

/** Texts above or left of the element, nearest first: what a person reads as its label. */
function nearbyLabels(target: UiElement, elements: readonly UiElement[]): string[] {
  return elements
    .filter((e) => e !== target && e.type === 'text' && seenName(e) && (e.y + e.height <= target.y + 1 || e.x + e.width <= target.x + 1))
    .map((e) => ({ name: seenName(e)!, d: Math.hypot(e.center.x - target.center.x, e.center.y - target.center.y) }))
    .sort((a, b) => a.d - b.d)
    .slice(0, NEARBY_LABELS)
    .map((x) => x.name);
}

/** Every wording worth trying after the plain one, most natural first. */
function alternatives(e: UiElement, name: string | undefined, role: string | undefined, elements: readonly UiElement[]): TargetForm[] {
  const forms: TargetForm[] = [];
  const noun = phrase(name, role);
  if (name) {
    if (role) forms.push({ target: name });
    if (!name.includes('"')) forms.push({ target: phrase('the', `"${name}"`, role) });
    // A pattern needs a description beside it that says something: the role word ("the button").
    if (role) forms.push({ target: `the ${role}`, target_pattern: `^${escapeRegex(name)}$` });
  } else if (role) {
    for (const label of nearbyLabels(e, elements)) {
      forms.push({ target: `the ${label} ${role}` }, { target: `the ${role} below ${label}` }, { target: `the ${role} right of ${label}` });
    }
  }
  if (!noun) return forms;
  for (const where of POSITION_PHRASES) forms.push({ target: `the ${noun} ${where}` });
  for (const ordinal of [...ORDINAL_WORDS, 'last']) forms.push({ target: `the ${ordinal} ${noun}` });
  return forms;
}

/**
 * Describes `element` as a semantic target and checks it against `elements` (the screen it is on)
 * with `resolver`. Pure apart from the resolver.
 */
export async function describeElement(device: string, element: UiElement, elements: readonly UiElement[], screen: ScreenSize, resolver: Resolver = new DeterministicResolver()): Promise<ElementDescription> {
  const name = nameOf(element);
  const role = ROLE_WORD[element.type];
  // Every form carries a description, so the resolver's near-tie check applies: a hit is unique.
  const hits = async (form: TargetForm): Promise<boolean> => {
    const request: ResolveRequest = { description: form.target, pattern: form.target_pattern, intent: 'interact', screen };
    const r = await resolver.resolve(request, elements);
    return r.ok && r.element.id === element.id;
  };
  const plain = name ? (role ? `the ${name} ${role}` : name) : role ? `the ${role}` : null;
  const base: ElementDescription = { device, element: element.id, target: plain, unique: false, matches: [], message: '' };
  if (plain) {
    const found = await resolver.findAll({ description: plain, intent: 'read', screen }, elements);
    base.matches = [...found].sort(readingOrder).slice(0, MAX_MATCHES).map(summary);
    if (await hits({ target: plain })) {
      return { ...base, unique: true, step_examples: stepExamples(element, { target: plain }), message: `"${plain}" names this element and only this one on the current screen.` };
    }
  }
  for (const form of alternatives(element, name, role, elements)) {
    if (await hits(form)) {
      const said = form.target_pattern ? `"${form.target}" with target_pattern ${JSON.stringify(form.target_pattern)}` : `"${form.target}"`;
      const why = plain ? whyNotPlain(plain, base.matches, element) : 'this element shows no text or label';
      return { ...base, alternative: form, step_examples: stepExamples(element, form), message: `${why}; ${said} names exactly this one.` };
    }
  }
  return {
    ...base,
    alternative: null,
    message: plain
      ? `"${plain}" does not single this element out, and no more specific wording (quotes, a pattern, a position, an ordinal) does either; give the element a text or an accessibility label in the app.`
      : 'this element shows no text or accessibility label and has no label next to it, so no description can name it; give it an accessibility label in the app.',
  };
}

/** Why the plain wording does not name the element: it fits nothing, several elements, or another one. */
function whyNotPlain(plain: string, matches: readonly ElementSummary[], element: UiElement): string {
  if (matches.length === 0) return `"${plain}" fits no element here`;
  if (matches.length > 1) return `"${plain}" is not unique here (${matches.length} elements fit it)`;
  return matches[0].id === element.id ? `"${plain}" leads a tap to another element` : `"${plain}" leads to another element (${matches[0].id})`;
}

/** Step ids read better without the article: tap_sign_in_button. */
const bare = (target: string) => target.replace(/^the\s+/i, '');

function stepExamples(element: UiElement, form: TargetForm): StepExamples {
  const target = literal(form.target);
  const where = form.target_pattern ? { target, target_pattern: form.target_pattern } : { target };
  const tapId = snakeCase(`tap_${bare(form.target)}`, 'tap');
  const checkId = snakeCase(`check_${bare(form.target)}_visible`, 'check');
  // An assertion takes no target_pattern, and the wording without it ("the text") fits other
  // elements: the pattern itself is what singles the element out.
  const assert = form.target_pattern
    ? { id: checkId, after_step: tapId, type: 'pattern_match', description: `${target} matching ${form.target_pattern} is on screen`, pattern: form.target_pattern }
    : { id: checkId, after_step: tapId, type: 'element_visible', description: `${target} is visible`, element_description: target };
  const examples: StepExamples = { tap: { id: tapId, action: 'tap', description: `Tap ${target}`, ...where }, assert };
  if (element.type === 'edittext') {
    // A password is never written into a scenario: it is a secret parameter given at replay (SPEC §8).
    const value = element.password ? '${PASSWORD}' : 'text to type';
    examples.type = { id: snakeCase(`type_${bare(form.target)}`, 'type'), action: 'type', description: `Type into ${target}`, ...where, value };
  }
  return examples;
}

/**
 * Lists the device's screen and describes the element with that id on it (bridge
 * `elements.describe`). A vanished id is ELEMENT_NOT_FOUND, any tool failure is passed on.
 */
export async function describeOnScreen(engine: Engine, device: string, id: string, origin: string, resolver?: Resolver): Promise<ElementDescription | ToolFailure> {
  const listed = await engine.call('mobile_list_elements_on_screen', { device }, { origin });
  if (isToolFailure(listed)) return listed;
  const size = await engine.call('mobile_get_screen_size', { device }, { origin });
  if (isToolFailure(size)) return size;
  const elements = (listed as { elements: UiElement[] }).elements;
  const element = elements.find((e) => e.id === id);
  if (!element) {
    // Nothing here knows whether the id was ever listed (a typo, another screen's id, or a screen
    // that changed since): say what is known, and where valid ids come from.
    const some = elements.slice(0, 5).map((e) => JSON.stringify(e.id));
    const listed = elements.length ? `${elements.length} elements, e.g. ${some.join(', ')}${elements.length > some.length ? ', …' : ''}` : 'no elements';
    return failure(
      'ELEMENT_NOT_FOUND',
      `element ${JSON.stringify(id)} is not in the element listing of ${device}'s screen as it is now (${listed}); an id is one of that listing's and holds only while the screen shows it: list the elements again (mobile_list_elements_on_screen, or the viewer's element list) and pass an id from it`,
    );
  }
  return describeElement(device, element, elements, size as ScreenSize, resolver);
}
