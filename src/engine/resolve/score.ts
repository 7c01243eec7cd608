import type { ElementType, UiElement } from '../types.js';
import { normalizeText, tokenize } from './normalize.js';
import { isFiller, particlePairs, type Query } from './query.js';

/** Element types a user acts on; `interact` requests prefer them over static text. */
const ACTIONABLE: ReadonlySet<ElementType> = new Set(['button', 'edittext', 'switch', 'checkbox', 'radio', 'tab', 'link', 'listitem']);

export const ROLE_MISMATCH_FACTOR = 0.55;
const ROLE_ONLY_SCORE = 0.8;
const INTERACT_BONUS = 0.1;
/**
 * Share of an element's own words a description must name for "all its words are there" to count
 * as naming the element: "Items" names "My items" but not "Sign in to see your items.", which a
 * wait for the Items screen must not take for it. Controls carry short labels, so a third will do
 * ("Sign in" still finds the button "Continue to sign in with Google"). Below it the element only
 * shares words with the description and scores as a partial overlap, which stays under the
 * confidence threshold (0.75·F1 < 0.43, < 0.48 with the interact bonus).
 */
const LABEL_COVERAGE = 0.4;
const CONTROL_LABEL_COVERAGE = 1 / 3;

/**
 * Words that turn a text into the opposite of the words beside it: "No items" is not the Items
 * screen, "Not connected" is not "Connected". An element whose own words hold one the description
 * does not say is never its label, however much of it the description covers, nor even a likely
 * partial match (a two-word text sharing one word would otherwise score 0.5).
 */
const NEGATIONS: ReadonlySet<string> = new Set(['no', 'not', 'none', 'nothing', 'never', 'without', 'cannot', 'unable', 'nobody', 'nowhere']);

function negatedAgainst(fieldWords: readonly string[], words: readonly string[]): boolean {
  for (const w of fieldWords) if (NEGATIONS.has(w) && !words.includes(w)) return true;
  return false;
}

/**
 * Whether the string puts another particle after a word the description gives one: "Sign out" or
 * "Sign up" against "Sign in", "Turn off" against "Turn on". Those are other controls, though "in"
 * and "on" are filler words everywhere else; like a negation, such a string is never a match. A
 * string that also says the description's pair ("Log in or sign up" for "Sign up") is not against it,
 * nor is one when the description gives no particle ("Sign" may still be "Sign out").
 */
function particleAgainst(fieldPairs: readonly [string, string][], particles: readonly [string, string][]): boolean {
  for (const [word, particle] of particles) {
    const after = fieldPairs.filter(([w]) => w === word).map(([, q]) => q);
    if (after.length && !after.includes(particle)) return true;
  }
  return false;
}

/** Prefixes that make a word its opposite: "Unlike" is not "Like", "Unfollow" not "Follow", "Disconnect" not "Connect". */
const OPPOSITE_PREFIXES = ['un', 'dis', 'non'];

function oppositeWords(a: string, b: string): boolean {
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  return short.length >= 3 && OPPOSITE_PREFIXES.some((p) => long === p + short);
}

/**
 * Whether what the element shows (its text or label) says otherwise than the description: a word
 * that is the opposite of one of the description's ("Unlike" for "Like"), or another particle after
 * its word ("Sign out" for "Sign in"). Its developer id, kept when the text flips ("like_button"
 * showing "Unlike"), then does not name it.
 */
function showsOtherwise(p: Prepared, words: readonly string[], particles: readonly [string, string][]): boolean {
  return p.fields.some((f) => f.kind === 'name' && (particleAgainst(f.pairs, particles) || f.words.some((fw) => words.some((w) => oppositeWords(fw, w)))));
}

/** An id match on an element that shows otherwise counts this much: under the threshold, only to name it in a miss. */
const ID_AGAINST_SHOWN_FACTOR = 0.3;

/** Where an element string comes from: what it shows or is announced as, its placeholder, its developer id. */
type FieldKind = 'name' | 'hint' | 'id';

interface Field {
  kind: FieldKind;
  raw: string;
  norm: string;
  /** Letters and digits only, so "wifi" finds "Wi-Fi". */
  compact: string;
  stems: string[];
  /** The stems without filler words ("to", "the"): what coverage and contiguity count. */
  words: string[];
  /** [stem, particle] pairs of the string ("sign out"), see particleAgainst. */
  pairs: [string, string][];
  weight: number;
}

/** Platform wording that means the same as what users say. */
const ALIASES: Record<string, string> = { 'navigate up': 'back', 'navigate back': 'back' };

const compact = (norm: string) => norm.replace(/[^\p{L}\p{N}]+/gu, '');

/** Element strings prepared once per resolution so scoring 300 elements stays well under a millisecond. */
export interface Prepared {
  element: UiElement;
  fields: Field[];
}

function stem(token: string): string {
  return token.length > 3 && token.endsWith('s') && !token.endsWith('ss') ? token.slice(0, -1) : token;
}

// Listings are not mutated once taken, so their normalised strings can be kept while the listing lives.
const prepared = new WeakMap<UiElement, Prepared>();

export function prepare(element: UiElement): Prepared {
  let p = prepared.get(element);
  if (!p) {
    p = prepareFresh(element);
    prepared.set(element, p);
  }
  return p;
}

function prepareFresh(element: UiElement): Prepared {
  const fields: Field[] = [];
  const add = (kind: FieldKind, raw: string | null | undefined, weight: number) => {
    if (!raw) return;
    const norm = normalizeText(raw);
    if (!norm) return;
    const tokens = tokenize(norm);
    const stems = tokens.map(stem);
    fields.push({ kind, raw, norm, compact: compact(norm), stems, words: tokens.filter((t) => !isFiller(t)).map(stem), pairs: particlePairs(stems), weight });
    const alias = ALIASES[norm];
    if (alias) fields.push({ kind, raw: alias, norm: alias, compact: alias, stems: [alias], words: [alias], pairs: [], weight: weight * 0.95 });
  };
  add('name', element.text, 1);
  add('name', element.accessibility_label, 1);
  // A field's placeholder names it until something is typed ("the Email field").
  add('hint', element.hint, 0.9);
  // Developer ids ("items", "account") are weak evidence: they name lists and other textless
  // elements, and say what a changing text is about.
  const rid = element.resource_id?.replace(/^.*:id\//, '');
  if (rid) add('id', rid.replace(/[_-]+/g, ' '), element.text || element.accessibility_label ? 0.6 : 0.8);
  return { element, fields };
}

/**
 * How a description met an element: `score` as computed, whether it said one of the element's
 * strings whole (`whole`, and `named` when that string is the element's text, label or placeholder
 * rather than its developer id), and how many of its words the element's string holds (`shared`).
 */
export interface TextMatch {
  score: number;
  whole: boolean;
  named: boolean;
  shared: number;
  /** The match rests on the element's id while what it shows says otherwise (showsOtherwise): no interact bonus. */
  idAgainstShown?: boolean;
  /** The whole description is what the element shows (its text, label or placeholder): see exactlyNamed. */
  exact?: boolean;
}

const NO_MATCH: TextMatch = { score: 0, whole: false, named: false, shared: 0 };

/**
 * How well the words of the description match one element string: 1 exact, lower for partial
 * overlap. `minCoverage`: the share of the string's words the description must name to be its label.
 */
function fieldMatch(field: Field, phrase: string, words: string[], particles: readonly [string, string][], minCoverage: number): TextMatch {
  const whole = (score: number): TextMatch => ({ score, whole: true, named: field.kind !== 'id', shared: words.length });
  if (field.norm === phrase) return whole(1);
  if (words.length === 0) return NO_MATCH;
  if (field.compact === compact(phrase)) return whole(0.95);
  const overlap = words.filter((w) => field.stems.includes(w)).length;
  if (overlap === 0) return NO_MATCH;
  const partial = (score: number): TextMatch => ({ score, whole: false, named: false, shared: overlap });
  const coverage = words.length / Math.max(words.length, field.words.length);
  const f1 = (2 * overlap) / (words.length + field.stems.length);
  // Sharing words with a text that denies them is a weak hint, kept only to name it in a miss.
  if (negatedAgainst(field.words, words) || particleAgainst(field.pairs, particles)) return partial(0.3 * f1);
  if (overlap === words.length && coverage >= minCoverage) {
    // Every word is there; a contiguous phrase ranks above scattered words, a short text above a long one.
    const contiguous = ` ${field.words.join(' ')} `.includes(` ${words.join(' ')} `);
    return partial((contiguous ? 0.7 : 0.6) + 0.2 * coverage);
  }
  return partial(0.75 * f1);
}

/**
 * A placeholder is not what a field is called, only a prompt inside it: one word shared with it
 * names the field only when the description speaks of a field ("the search field", "the field
 * hinted search") or says the placeholder whole ("Search your items"). Otherwise "Items" would be
 * the field hinted "Search your items"; the overlap is kept this weak only to name the field in a
 * miss. Several words of it ("web address" of "Search or type web address") still name the field.
 */
const HINT_WITHOUT_FIELD_FACTOR = 0.3;

function speaksOfField(query: Query): boolean {
  return query.hinted === true || query.roles.includes('edittext');
}

/**
 * The element shows exactly what the description says, all of it: "Item not found" is that text,
 * not an item whose text is "not found". Its developer id does not count: it is no visible text.
 */
export function exactlyNamed(p: Prepared, query: Query): TextMatch | null {
  let best: TextMatch | null = null;
  for (const f of p.fields) {
    if (f.kind !== 'id' && f.norm === query.whole && (!best || f.weight > best.score)) best = { score: f.weight, whole: true, named: true, shared: query.fullWords.length, exact: true };
  }
  return best;
}

/** Whether one of the element's strings is exactly one of the description's quoted texts. */
export function quotesShown(p: Prepared, query: Query): boolean {
  return query.quoted.some((q) => {
    const wanted = normalizeText(q);
    return p.fields.some((f) => f.norm === wanted);
  });
}

/** The best match of the description among the element's strings; null when the description names no text. */
export function textMatch(p: Prepared, query: Query): TextMatch | null {
  const exact = exactlyNamed(p, query);
  if (exact) return exact;
  if (query.quoted.length) {
    const wanted = query.quoted.map(normalizeText);
    let best = NO_MATCH;
    for (const f of p.fields) {
      for (const q of wanted) {
        const score = f.raw.trim() === q ? 1 : 0.97;
        if (f.norm === q && score > best.score) best = { score, whole: true, named: f.kind !== 'id', shared: query.words.length };
      }
    }
    return best;
  }
  if (!query.words.length) {
    if (!query.roleWord) return null;
    // Only a role word ("the list"): it may still be the element's own text ("List").
    const own = p.fields.find((f) => f.norm === query.fullPhrase);
    return own ? { score: 1, whole: true, named: own.kind !== 'id', shared: query.fullWords.length } : null;
  }
  const words = query.words.map(stem);
  const fullWords = query.fullWords.map(stem);
  const particles = query.particles.map(([w, q]): [string, string] => [stem(w), q]);
  const minCoverage = isActionable(p.element) ? CONTROL_LABEL_COVERAGE : LABEL_COVERAGE;
  const field = speaksOfField(query);
  const otherwise = showsOtherwise(p, [...new Set([...words, ...fullWords])], particles);
  let best = NO_MATCH;
  for (const f of p.fields) {
    let m = fieldMatch(f, query.phrase, words, particles, minCoverage);
    if (query.roleWord) {
      const full = fieldMatch(f, query.fullPhrase, fullWords, particles, minCoverage);
      if (full.score > m.score) m = full;
    }
    let score = m.score * f.weight;
    if (f.kind === 'hint' && !m.whole && !field && m.shared <= 1) score *= HINT_WITHOUT_FIELD_FACTOR;
    const against = f.kind === 'id' && otherwise;
    if (against) score *= ID_AGAINST_SHOWN_FACTOR;
    if (score > best.score) best = against ? { ...m, score, idAgainstShown: true } : { ...m, score };
  }
  return best;
}

function roleAsText(query: Query): Query {
  return { ...query, words: query.fullWords, phrase: query.fullPhrase, roles: [], roleWord: undefined };
}

function stateFits(el: UiElement, state: Query['state']): boolean {
  switch (state) {
    case undefined: return true;
    case 'enabled': return el.enabled;
    case 'disabled': return !el.enabled;
    case 'checked': return el.checked === true;
    case 'unchecked': return el.checked === false;
    case 'selected': return el.selected === true;
    case 'focused': return el.focused === true;
  }
}

export function isActionable(el: UiElement): boolean {
  return ACTIONABLE.has(el.type) || el.clickable === true;
}

/** Overall fit of one element, and the text match it rests on (null: the role alone). */
export interface Assessment {
  score: number;
  text: TextMatch | null;
}

/**
 * Overall fit of one element; 0 means "cannot be it". Not capped at 1 so preferences can break ties.
 * `exactWins`: an element showing exactly the description counts whatever its kind and state
 * (false once it has lent its text to the element of the asked kind it names, see credit).
 */
export function assess(p: Prepared, query: Query, intent: 'interact' | 'read', exactWins = true): Assessment {
  const el = p.element;
  const none = { score: 0, text: null };
  const exact = exactWins ? exactlyNamed(p, query) : null;
  if (!exact && !stateFits(el, query.state)) return none;
  const roleFits = exact !== null || query.roles.length === 0 || query.roles.includes(el.type);
  // An element of another kind that is no control is what the description names only if the role
  // word is part of its text: "Item Welcome back" is not the text "Welcome back". A control of
  // another kind ("Sign in" drawn as clickable text, for "the Sign in button") keeps the words without it.
  const text = exact ?? textMatch(p, roleFits || isActionable(el) ? query : roleAsText(query));
  let s: number;
  if (text === null) {
    if (query.roles.length === 0) return none;
    s = roleFits ? ROLE_ONLY_SCORE : 0;
  } else {
    s = roleFits ? text.score : text.score * ROLE_MISMATCH_FACTOR;
  }
  if (s === 0) return none;
  if (intent === 'interact') {
    if (isActionable(el) && !text?.idAgainstShown) s += INTERACT_BONUS;
    if (!el.enabled && query.state !== 'disabled') s *= 0.9;
  }
  if (!el.visible) s *= 0.5;
  return { score: s, text };
}
