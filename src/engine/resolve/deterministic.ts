import type { UiElement } from '../types.js';
import type { ScreenSize } from '../ui-tree.js';
import { pointIn, pointMessage } from './coordinates.js';
import { listingIdMessage } from './listing-id.js';
import { extentOf, extreme, inBar, isBar, readingOrder, relationDistance } from './geometry.js';
import { clip, namedOnScreen, textInside } from './on-screen.js';
import { parseQuery, type Query } from './query.js';
import { withoutOutranked, standingOf, type Standing } from './outranked.js';
import { assess, exactlyNamed, isActionable, prepare, quotesShown, textMatch } from './score.js';
import type { Candidate, ResolveRequest, Resolution, Resolver } from './types.js';

/** Below this an element is not considered a match at all. */
export const CONFIDENCE_THRESHOLD = 0.5;
/** Two matches closer than this are a near-tie: the description does not say which one is meant. */
export const TIE_MARGIN = 0.04;
/** Matches within this of the best form the group that ordinals, positions and relations choose from. */
const GROUP_MARGIN = 0.15;
/** Pattern matches are what the author asked for; the description then only ranks them. */
const PATTERN_FLOOR = 0.6;
/** How far below (or right of) its label a field may lie to count as labelled by it, in label heights. */
const LABEL_REACH = 3;
const LISTED_CANDIDATES = 5;

interface Scored extends Standing {
  element: UiElement;
}

interface Ranked {
  scored: Scored[];
  query?: Query;
  screen: ScreenSize;
}

type Miss = { reason: 'absent' | 'bad_request'; message: string };

const candidateOn =
  (elements: readonly UiElement[]) =>
  (s: { element: UiElement; score: number }): Candidate => {
    const e = s.element;
    const inner = e.text || e.accessibility_label ? undefined : textInside(e, elements);
    const shows = inner && clip(inner);
    return { id: e.id, type: e.type, text: e.text, label: e.accessibility_label, ...(shows ? { shows } : {}), score: Math.round(Math.min(1, s.score) * 100) / 100 };
  };

function describe(c: Candidate): string {
  return `${JSON.stringify(c.text || c.label || c.shows || c.id)} (${c.type}, id ${c.id}, score ${c.score})`;
}

/** Text quoted back in a message, cut where it would drown the message (a pasted page is not a description). */
function clipped(text: string, max = 200): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max).join('')}… (${chars.length} characters)`;
}

function what(request: ResolveRequest): string {
  const parts = [request.description !== undefined ? JSON.stringify(clipped(request.description)) : '', request.pattern !== undefined ? `pattern /${clipped(request.pattern)}/` : ''];
  return parts.filter(Boolean).join(' with ');
}

/**
 * The built-in resolver: scores every element on text, label, role, state and place, without a
 * network or a model, so the same screen and description always give the same answer.
 */
export class DeterministicResolver implements Resolver {
  readonly name = 'deterministic';

  resolve(request: ResolveRequest, elements: readonly UiElement[]): Resolution {
    const intent = request.intent ?? 'interact';
    const ranked = this.rank(request, elements);
    if ('reason' in ranked) return { ok: false, ...ranked, candidates: [] };
    const { scored, query } = ranked;
    const candidate = candidateOn(elements);
    const listed = scored.slice(0, LISTED_CANDIDATES).map(candidate);
    const matches = scored.filter((s) => s.score >= CONFIDENCE_THRESHOLD);
    if (!matches.length) {
      return {
        ok: false,
        reason: scored.length ? 'low_confidence' : 'absent',
        message: scored.length
          ? `no element matches ${what(request)} well enough (best ${describe(listed[0])}, threshold ${CONFIDENCE_THRESHOLD}); other candidates: ${listed.slice(1).map(describe).join(', ') || 'none'}. Describe the element by its visible text or accessibility label`
          : `no element on screen matches ${what(request)} (${elements.length} elements listed; ${namedOnScreen(elements)}). Wait for the screen, scroll, or describe the element by its visible text or accessibility label`,
        candidates: listed,
      };
    }
    const best = matches[0].score;
    const group = matches.filter((s) => s.score >= best - GROUP_MARGIN).map((s) => s.element);
    const picked = query ? this.choose(query, group, matches, ranked.screen, elements) : [...group].sort(readingOrder)[0];
    if (!('id' in picked)) return { ok: false, ...picked, candidates: listed };
    let chosen: UiElement = picked;
    if (query && !query.ordinal && !query.positions.length && !query.relation) {
      // An element named whole is not tied with one the description only shares words with.
      const chosenNamed = scored.find((s) => s.element === chosen)?.named === true;
      const tied = matches.filter((s) => s.element !== chosen && s.score > best - TIE_MARGIN && (s.named || !chosenNamed));
      // A read only needs what is shown: a title "Items" and its navigation bar labelled "Items" (iOS) say the same.
      const shown = (e: UiElement) => e.text || e.accessibility_label || '';
      const value = shown(chosen);
      const sameValue = (e: UiElement) => shown(e) === value;
      const ambiguous = (why: string): Resolution => {
        const all = [chosen, ...tied.map((t) => t.element)].slice(0, LISTED_CANDIDATES);
        return {
          ok: false,
          reason: 'ambiguous',
          message: `${what(request)} is ambiguous: ${tied.length + 1} elements ${why}: ${all.map((e) => describe(candidate({ element: e, score: best }))).join(', ')}. Add a role word ("button", "field"), an ordinal ("the second …"), a position ("at the top") or a nearby label ("below Email")`,
          candidates: listed,
        };
      };
      const sameText = tied.every((s) => sameValue(s.element));
      if (tied.length && !(intent === 'read' && sameText)) return ambiguous('match about equally well');
      if (tied.length && intent === 'read' && request.inspect) {
        // The verdict depends on which element it is (a title "Sign in" is enabled, the Sign in
        // button may not be): reading order does not say, the one control among them does.
        const all = [chosen, ...tied.map((t) => t.element)];
        const controls = all.filter(isActionable);
        const holder = all.filter((e) => e.text === value);
        // A label-only container around the one element drawing the text (an iOS navigation bar around its title) is that element.
        const wraps = (outer: UiElement, inner: UiElement) => !outer.text && outer.x <= inner.x && outer.y <= inner.y && outer.x + outer.width >= inner.x + inner.width && outer.y + outer.height >= inner.y + inner.height;
        if (controls.length === 1) chosen = controls[0];
        else if (!controls.length && holder.length === 1 && all.every((e) => e === holder[0] || wraps(e, holder[0]))) chosen = holder[0];
        else return ambiguous(`show the same text and the check depends on which one is meant${controls.length ? ` (${controls.length} of them are controls)` : ''}`);
      }
      // Of those, the one whose text holds the value, so that what a read captures is not "".
      else if (intent === 'read' && !chosen.text) chosen = tied.find((s) => s.element.text === value)?.element ?? chosen;
    }
    const confidence = Math.min(1, scored.find((s) => s.element === chosen)?.score ?? best);
    return { ok: true, element: chosen, confidence: Math.round(confidence * 100) / 100, candidates: listed };
  }

  findAll(request: ResolveRequest, elements: readonly UiElement[]): UiElement[] {
    const ranked = this.rank({ intent: 'read', ...request }, elements);
    if ('reason' in ranked || !ranked.scored.length) return [];
    const best = ranked.scored[0].score;
    let found = ranked.scored.filter((s) => s.score >= CONFIDENCE_THRESHOLD && s.score >= best - GROUP_MARGIN).map((s) => s.element);
    for (const p of ranked.query?.positions ?? []) if (isBar(p)) found = inBar(found, p, ranked.screen);
    return found.sort(readingOrder);
  }

  /** Scores every element, best first; the query is absent when only a pattern was given. */
  private rank(request: ResolveRequest, elements: readonly UiElement[]): Ranked | Miss {
    const intent = request.intent ?? 'interact';
    const screen = request.screen ?? extentOf(elements);
    let pool = elements;
    if (request.pattern !== undefined) {
      let re: RegExp;
      try {
        re = new RegExp(request.pattern);
      } catch (err) {
        return { reason: 'bad_request', message: `target_pattern ${JSON.stringify(request.pattern)} is not a valid regular expression: ${(err as Error).message}` };
      }
      pool = elements.filter((e) => re.test(e.text) || (e.accessibility_label !== null && re.test(e.accessibility_label)));
    }
    const description = request.description?.trim();
    if (!description) {
      if (request.pattern === undefined) return { reason: 'bad_request', message: 'no target given: pass a description of the element (or a target_pattern)' };
      return { scored: [...pool].sort(readingOrder).map((element) => ({ element, ...standingOf(1, null) })), screen };
    }
    const point = pointIn(description);
    if (point && !elements.some((e) => e.text.trim() === description || e.accessibility_label?.trim() === description)) {
      return { reason: 'bad_request', message: pointMessage(description, point, elements) };
    }
    const listed = !elements.some((e) => e.text.trim() === description || e.accessibility_label?.trim() === description) && listingIdMessage(description, elements);
    if (listed) return { reason: 'bad_request', message: listed };
    const prepared = pool.map(prepare);
    let query = parseQuery(description);
    // What an element shows exactly is what the user means, before any word of it is read as a role, place or state.
    if (prepared.some((p) => exactlyNamed(p, query))) query = parseQuery(description, true);
    else if (query.quoted.length && query.words.length && !prepared.some((p) => quotesShown(p, query))) {
      // Quotes inside a longer text (iOS: “App” Would Like to Access the Camera) are part of what the
      // element shows, not a quoted exact text: when no element shows the quoted part alone, its words count.
      query = parseQuery(description.replace(/["\u201c\u201d]/g, ' '));
    }
    if (!query.quoted.length && !query.words.length && !query.roles.length) {
      return { reason: 'bad_request', message: `${JSON.stringify(description)} names no text, label or kind of element; say what the element shows, e.g. "the Sign in button"` };
    }
    const found = new Map<UiElement, Scored>();
    for (const p of prepared) {
      const a = assess(p, query, intent);
      const s = request.pattern !== undefined ? Math.max(a.score, PATTERN_FLOOR) : a.score;
      if (s > 0) found.set(p.element, { element: p.element, ...standingOf(s, a.text) });
    }
    if (query.roles.length && !query.quoted.length) this.credit(query, prepared, found, intent);
    let scored = [...found.values()];
    // With a relation the place picks among every match, so none is dropped for its wording.
    if (!query.relation) scored = withoutOutranked(scored);
    scored.sort((a, b) => b.score - a.score || readingOrder(a.element, b.element));
    return { scored, query, screen };
  }

  /**
   * "the Email field" when Email is a label above (or left of) a field: the field inherits the
   * label's text score, as a screen reader would announce it.
   */
  private credit(query: Query, prepared: ReturnType<typeof prepare>[], found: Map<UiElement, Scored>, intent: 'interact' | 'read'): void {
    for (const label of prepared) {
      const el = label.element;
      if (el.type !== 'text' || query.roles.includes('text')) continue;
      const t = textMatch(label, query);
      if (t === null || t.score < 0.9) continue;
      let target: { e: UiElement; d: number } | undefined;
      for (const p of prepared) {
        const e = p.element;
        if (!query.roles.includes(e.type)) continue;
        // A row containing the text is named by it ("Item 30" in its list item); else the field below or right of it.
        const inside = el.center.x >= e.x && el.center.x <= e.x + e.width && el.center.y >= e.y && el.center.y <= e.y + e.height;
        const d = inside ? -1 / (e.width * e.height) : Math.min(relationDistance(e, el, 'below') ?? Infinity, relationDistance(e, el, 'right_of') ?? Infinity);
        if (d <= LABEL_REACH * el.height + e.height && (!target || d < target.d)) target = { e, d };
      }
      if (!target) continue;
      const credited = t.score * 0.95;
      const had = found.get(target.e);
      if (!had || had.score < credited) found.set(target.e, { element: target.e, ...standingOf(credited, t) });
      if (t.exact) {
        // "Item 2" is the row whose title says it: the title counts as any text of another kind, not as the exact match.
        const own = assess(label, query, intent, false);
        found.set(el, { element: el, ...standingOf(own.score, own.text) });
      }
    }
  }

  private choose(query: Query, group: UiElement[], matches: Scored[], screen: ScreenSize, elements: readonly UiElement[]): UiElement | Miss {
    const said = JSON.stringify(query.raw);
    let pool = group;
    if (query.relation) {
      const { anchor: anchorText, written, direction } = query.relation;
      // Resolved and quoted as written: a lower-cased copy of a secret in it would be masked nowhere.
      const asked = written ?? anchorText;
      // The reference is usually a label next to the matches; fall back to any element (a hint, a button).
      let anchor = this.resolve({ description: asked, intent: 'read' }, elements.filter((e) => !group.includes(e)));
      if (!anchor.ok) anchor = this.resolve({ description: asked, intent: 'read' }, elements);
      if (!anchor.ok) {
        return { reason: 'absent', message: written ? `${said}: the reference "${written}" was not found: ${anchor.message}` : `${said}: the element it is placed by was not found on screen` };
      }
      const ref = anchor.element;
      // Every match counts here, not just the best group: the relation is what picks the element.
      const around = matches
        .map((s) => ({ e: s.element, d: s.element === ref ? undefined : relationDistance(s.element, ref, direction) }))
        .filter((x): x is { e: UiElement; d: number } => x.d !== undefined)
        .sort((a, b) => a.d - b.d);
      if (!around.length) return { reason: 'absent', message: `${said}: nothing matching lies ${direction.replace('_', ' ')} "${ref.text || ref.accessibility_label}"` };
      pool = around.map((x) => x.e);
      if (!query.ordinal && !query.positions.length) return pool[0];
    }
    for (const position of query.positions) {
      if (isBar(position)) pool = inBar(pool, position, screen);
      else if (!query.ordinal) {
        const hit = extreme(pool, position, screen);
        pool = hit ? [hit] : [];
      }
      if (!pool.length) return { reason: 'absent', message: `${said}: no matching element lies ${position === 'toolbar' ? 'in the toolbar' : position === 'bottom_bar' ? 'in the bottom bar' : `at the ${position}`}` };
    }
    if (query.ordinal) {
      const ordered = query.relation ? pool : [...pool].sort(readingOrder);
      const index = query.ordinal === -1 ? ordered.length - 1 : query.ordinal - 1;
      if (index >= ordered.length) {
        return { reason: 'absent', message: `${said}: asked for number ${query.ordinal} but only ${ordered.length} matching element${ordered.length === 1 ? ' is' : 's are'} on screen` };
      }
      return ordered[index];
    }
    return query.positions.length ? [...pool].sort(readingOrder)[0] : pool[0];
  }
}
