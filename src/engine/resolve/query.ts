import type { ElementType } from '../types.js';
import { normalizeText, straightQuotes, tokenize } from './normalize.js';

/**
 * A semantic description ("the second Delete button", "the field below Email") taken apart
 * into the parts the scorer uses. Parsing is word based and deterministic: no model involved.
 */
export interface Query {
  raw: string;
  /** The whole description normalised: an element showing exactly this is named by it, whatever words it holds. */
  whole: string;
  /** Texts given in quotes: an element must carry one of them exactly. */
  quoted: string[];
  /** Words that should appear in the element's text or label (filler words removed). */
  words: string[];
  /** The text part as said, filler words trimmed only at the ends ("sign in"), for exact matches. */
  phrase: string;
  /** Words and phrase with the role word kept: "Item 2" is the text of an item, not item number 2. */
  fullWords: string[];
  fullPhrase: string;
  /** Element types the role word allows (empty: any). */
  roles: ElementType[];
  roleWord?: string;
  /** 1-based; -1 means "last". */
  ordinal?: number;
  /** Place words, applied in order: a bar first narrows, then a side picks the extreme. */
  positions: Position[];
  /**
   * `anchor` normalised (lower case) for matching; `written` as the description wrote it, for
   * resolving and for messages, which must quote what was asked (a secret in it is masked only as
   * given, never lower-cased). Missing where the two could not be lined up: then no message quotes it.
   */
  relation?: { direction: Direction; anchor: string; written?: string };
  state?: 'enabled' | 'disabled' | 'checked' | 'unchecked' | 'selected' | 'focused';
  /** Said "hint", "hinted" or "placeholder": the words are a field's placeholder ("the field hinted search"). */
  hinted?: boolean;
  /**
   * Each particle said right after a word, as [word, particle]: "Sign in" → [["sign", "in"]]. The
   * particle is what tells "Sign in" from "Sign out", though "in" and "on" are filler words otherwise.
   */
  particles: [string, string][];
}

export type Position = 'top' | 'bottom' | 'left' | 'right' | 'toolbar' | 'bottom_bar' | 'center';
export type Direction = 'below' | 'above' | 'right_of' | 'left_of' | 'next_to';

/** Role words, longest first so that "text box" wins over "text". */
const ROLE_WORDS: [string, ElementType[]][] = [
  ['text field', ['edittext']],
  ['text box', ['edittext']],
  ['textbox', ['edittext']],
  ['input field', ['edittext']],
  ['search field', ['edittext']],
  ['search box', ['edittext']],
  ['check box', ['checkbox']],
  ['list item', ['listitem']],
  ['radio button', ['radio']],
  ['icon button', ['button', 'image']],
  ['field', ['edittext']],
  ['input', ['edittext']],
  ['button', ['button']],
  ['btn', ['button']],
  ['switch', ['switch']],
  ['toggle', ['switch', 'checkbox']],
  ['checkbox', ['checkbox']],
  ['tickbox', ['checkbox']],
  ['radio', ['radio']],
  ['tab', ['tab']],
  ['link', ['link', 'button']],
  ['icon', ['image', 'button']],
  ['image', ['image']],
  ['picture', ['image']],
  ['photo', ['image']],
  ['avatar', ['image']],
  ['logo', ['image']],
  ['row', ['listitem']],
  ['item', ['listitem']],
  ['cell', ['listitem']],
  ['list', ['list']],
  ['dialog', ['dialog']],
  ['alert', ['dialog']],
  ['popup', ['dialog']],
  ['keyboard', ['keyboard']],
  ['label', ['text']],
  ['heading', ['text']],
  ['title', ['text']],
  ['message', ['text']],
  ['text', ['text']],
];

const ORDINALS: Record<string, number> = {
  first: 1, '1st': 1, second: 2, '2nd': 2, third: 3, '3rd': 3, fourth: 4, '4th': 4, fifth: 5, '5th': 5,
  sixth: 6, '6th': 6, seventh: 7, '7th': 7, eighth: 8, '8th': 8, ninth: 9, '9th': 9, tenth: 10, '10th': 10, last: -1,
};

const POSITIONS: [RegExp, Position][] = [
  [/\b(?:in|on) the (?:tool ?bar|top bar|app bar|action bar|navigation bar|nav bar|header)\b/, 'toolbar'],
  [/\b(?:in|on) the (?:tab bar|bottom bar|bottom navigation|footer)\b/, 'bottom_bar'],
  [/\b(?:at|on|in) the (?:very )?top\b|\b(?:topmost|upper|top)\b/, 'top'],
  [/\b(?:at|on|in) the (?:very )?bottom\b|\b(?:bottommost|lower|bottom)\b/, 'bottom'],
  [/\b(?:on|at) the left\b|\b(?:leftmost|left)\b/, 'left'],
  [/\b(?:on|at) the right\b|\b(?:rightmost|right)\b/, 'right'],
  [/\b(?:in the (?:middle|center|centre))\b/, 'center'],
];

const RELATIONS: [RegExp, Direction][] = [
  [/\b(?:below|under|beneath|underneath)\b/, 'below'],
  [/\b(?:above)\b/, 'above'],
  [/\b(?:to the right of|right of)\b/, 'right_of'],
  [/\b(?:to the left of|left of)\b/, 'left_of'],
  [/\b(?:next to|beside|near)\b/, 'next_to'],
];

const STATES: [RegExp, NonNullable<Query['state']>][] = [
  [/\b(?:disabled|greyed out|grayed out|inactive)\b/, 'disabled'],
  [/\b(?:enabled|active)\b/, 'enabled'],
  [/\bunchecked\b|\bnot checked\b/, 'unchecked'],
  [/\bchecked\b|\bticked\b/, 'checked'],
  [/\bselected\b/, 'selected'],
  [/\bfocused\b/, 'focused'],
];

/** Filler words that say nothing about which element is meant. */
const STOP_WORDS = new Set([
  'the', 'a', 'an', 'on', 'in', 'at', 'of', 'to', 'with', 'for', 'that', 'which', 'is', 'labeled', 'labelled',
  'called', 'named', 'titled', 'saying', 'says', 'reads', 'showing', 'shown', 'displayed', 'visible', 'screen',
  'page', 'element', 'control', 'option', 'entry', 'one', 'its', 'it', 'this', 'and', 'or', 'from', 'by', 'containing',
]);

/**
 * Particles that, after a verb, make opposite controls of the same verb: sign in / sign out / sign
 * up, turn on / turn off, zoom in / zoom out, scroll up / scroll down.
 */
const PARTICLES: ReadonlySet<string> = new Set(['in', 'out', 'on', 'off', 'up', 'down']);

/** [word, particle] for each particle that follows a word that is neither filler nor a particle ("sign in", "turn off"). */
export function particlePairs(tokens: readonly string[]): [string, string][] {
  const pairs: [string, string][] = [];
  for (let i = 1; i < tokens.length; i++) {
    const before = tokens[i - 1];
    if (PARTICLES.has(tokens[i]) && !PARTICLES.has(before) && !isFiller(before)) pairs.push([before, tokens[i]]);
  }
  return pairs;
}

/** Whether a word says nothing about which element is meant, in a description or in an element's text. */
export function isFiller(word: string): boolean {
  return STOP_WORDS.has(word);
}

/** Words that say the rest is a placeholder; they are not part of it. */
const HINT_WORDS = new Set(['hint', 'hinted', 'placeholder']);

const QUOTED = /"([^"]+)"|(?:^|\s)'([^']+)'(?=\s|$|[.,;:!?])/g;

/**
 * `literal`: the description is an element's exact text ("Item not found", "Top stories", "Second
 * opinion", "Show hint"), so its words are not taken for a relation, place, state, ordinal or
 * placeholder marker, and every element is matched against all of them. The role word is still
 * found, so that a row holding that text is credited with it and elements of another kind still
 * count less.
 */
export function parseQuery(description: string, literal = false): Query {
  const whole = normalizeText(description);
  const query: Query = { raw: description, whole, quoted: [], words: [], phrase: '', fullWords: [], fullPhrase: '', roles: [], positions: [], particles: [] };
  if (literal) {
    withRole(query, tokenize(whole));
    // Its role word is one of its words too: another text that lacks it ("Not found") is not what is named.
    return { ...query, words: query.fullWords, phrase: query.fullPhrase };
  }
  let rest = whole;
  rest = rest.replace(QUOTED, (_m, a: string | undefined, b: string | undefined) => {
    query.quoted.push((a ?? b ?? '').trim());
    return ' ';
  });

  for (const [re, direction] of RELATIONS) {
    const m = re.exec(rest);
    if (m && m.index > 0) {
      const anchor = rest.slice(m.index + m[0].length).replace(/^\s*(?:the|a|an)\s+/, '').trim();
      if (anchor) {
        const written = writtenAnchor(description, re);
        query.relation = { direction, anchor, ...(written !== undefined && normalizeText(written) === anchor.replace(/\s+/g, ' ') ? { written } : {}) };
        rest = rest.slice(0, m.index);
        break;
      }
    }
  }
  for (const [re, position] of POSITIONS) {
    if (re.test(rest)) {
      query.positions.push(position);
      rest = rest.replace(re, ' ');
    }
  }
  for (const [re, state] of STATES) {
    if (re.test(rest)) {
      query.state = state;
      rest = rest.replace(re, ' ');
      break;
    }
  }

  const tokens = tokenize(rest);
  const ordinalAt = tokens.findIndex((t) => t in ORDINALS);
  if (ordinalAt >= 0) {
    query.ordinal = ORDINALS[tokens[ordinalAt]];
    tokens.splice(ordinalAt, 1);
  }
  withRole(query, tokens);
  // The phrase keeps them, so a button "Show hint" is still said whole.
  if (query.fullWords.some((t) => HINT_WORDS.has(t))) {
    query.hinted = true;
    query.words = query.words.filter((t) => !HINT_WORDS.has(t));
    query.fullWords = query.fullWords.filter((t) => !HINT_WORDS.has(t));
  }
  return query;
}

/** Sets the role word, text words and phrases of `tokens` (what is left once quotes, places, states and ordinals are out). */
function withRole(query: Query, all: string[]): void {
  let tokens = all;
  // The head noun is the last role word: "the Save item button" is a button whose text has "item".
  const joined = ` ${tokens.join(' ')} `;
  let best: { at: number; word: string; roles: ElementType[] } | undefined;
  const end = (b: { at: number; word: string }) => b.at + b.word.length;
  for (const [word, roles] of ROLE_WORDS) {
    const at = joined.lastIndexOf(` ${word} `);
    // Latest end wins; at the same end the longer phrase ("text field" over "field").
    if (at >= 0 && (!best || at + word.length > end(best) || (at + word.length === end(best) && word.length > best.word.length))) best = { at, word, roles };
  }
  query.particles = particlePairs(tokens);
  query.fullWords = tokens.filter((t) => !isFiller(t));
  query.fullPhrase = trimFiller(tokens);
  if (best) {
    query.roles = best.roles;
    query.roleWord = best.word;
    tokens = `${joined.slice(0, best.at)} ${joined.slice(best.at + best.word.length + 2)}`.trim().split(' ').filter(Boolean);
  }
  query.words = tokens.filter((t) => !isFiller(t));
  query.phrase = trimFiller(tokens);
}

/**
 * The reference after the relation word as the description wrote it: the same cut made in the
 * description itself (case, accents and spacing kept), its quoted texts blanked as parseQuery
 * takes them out. parseQuery checks it normalises to the anchor it found.
 */
function writtenAnchor(description: string, relation: RegExp): string | undefined {
  const straight = straightQuotes(description);
  const blank = (s: string) => {
    const chars = s.split('');
    for (const m of straight.matchAll(QUOTED)) chars.fill(' ', m.index, m.index + m[0].length);
    return chars.join('');
  };
  const m = new RegExp(relation.source, 'i').exec(blank(straight));
  if (!m || m.index === 0) return undefined;
  return blank(description).slice(m.index + m[0].length).replace(/^\s*(?:the|a|an)\s+/i, '').trim();
}

function trimFiller(tokens: string[]): string {
  let from = 0;
  let to = tokens.length;
  while (from < to && STOP_WORDS.has(tokens[from])) from++;
  while (to > from && STOP_WORDS.has(tokens[to - 1])) to--;
  return tokens.slice(from, to).join(' ');
}
