import type { Assertion } from '../../validate/index.js';
import type { UiElement } from '../types.js';
import { normalizeText } from '../resolve/index.js';
import { isDialog, isKeyboard, isToast, resolveOnce, textOf as said } from '../verbs/index.js';
import { compare } from './compare.js';
import { checked, name } from './observe.js';
import type { AssertionEnv, Evaluator, Verdict } from './types.js';

type Of<T extends Assertion['type']> = Evaluator<T>;

/**
 * The element an assertion names, or a failing verdict saying why there is none; it still says
 * what was expected, so a report shows what the check wanted. `inspect`: the check judges the
 * element's own properties, so elements showing the same text are not told apart by reading order
 * (the one control among them, else ambiguous).
 */
async function element(env: AssertionEnv, description: string, expected: unknown, inspect = false): Promise<UiElement | Verdict> {
  const elements = await env.elements();
  const r = await resolveOnce(env.verbs, { description, intent: 'read', ...(inspect ? { inspect } : {}) }, elements);
  if (r.ok) return r.element;
  return { pass: false, expected, actual: null, message: r.message };
}

const isVerdict = (x: UiElement | Verdict): x is Verdict => 'pass' in x;

function regex(pattern: string): RegExp | Verdict {
  try {
    return new RegExp(pattern);
  } catch (err) {
    return { pass: false, error: true, message: `pattern ${JSON.stringify(pattern)} is not a valid regular expression: ${(err as Error).message}` };
  }
}

async function all(env: AssertionEnv, description: string): Promise<UiElement[]> {
  const elements = await env.elements();
  return env.verbs.resolver.findAll({ description, intent: 'read', screen: await env.screen() }, elements);
}

function textOf(e: UiElement): string {
  return e.text || e.accessibility_label || '';
}

/** Elements whose text should be searched when no element is named: everything but the keyboard. */
async function searchable(env: AssertionEnv, description: string | undefined, expected: unknown): Promise<UiElement[] | Verdict> {
  if (description === undefined) return (await env.elements()).filter((e) => !isKeyboard(e));
  const el = await element(env, description, expected);
  return isVerdict(el) ? el : [el];
}

export const elementEvaluators: { [K in Assertion['type']]?: Of<K> } = {
  async element_exists(a, env) {
    const found = await all(env, a.element_description);
    return { pass: found.length > 0, expected: 'present', actual: found.length ? name(found[0]) : 'absent', message: found.length ? `found ${name(found[0])}` : `no element matches ${JSON.stringify(a.element_description)}` };
  },
  async element_not_exists(a, env) {
    const found = await all(env, a.element_description);
    return { pass: found.length === 0, expected: 'absent', actual: found.length ? name(found[0]) : 'absent', message: found.length ? `${name(found[0])} is on screen` : 'no matching element on screen' };
  },
  async element_visible(a, env) {
    const visible = (await all(env, a.element_description)).some((e) => e.visible);
    const want = a.expected_visible;
    return { pass: visible === want, expected: want, actual: visible, message: `${JSON.stringify(a.element_description)} is ${visible ? 'visible' : 'not visible'}` };
  },
  async element_fully_visible(a, env) {
    const el = await element(env, a.element_description, 'fully visible', true);
    if (isVerdict(el)) return el;
    const screen = await env.screen();
    const elements = await env.elements();
    const inside = el.x >= 0 && el.y >= 0 && el.x + el.width <= screen.width && el.y + el.height <= screen.height;
    const overlaps = (o: UiElement) => o.x < el.x + el.width && el.x < o.x + o.width && o.y < el.y + el.height && el.y < o.y + o.height;
    const dialog = elements.find(isDialog);
    const cover = elements.find((o) => o !== el && (isKeyboard(o) || isToast(o)) && overlaps(o)) ?? (dialog && dialog !== el && overlaps(dialog) && !(el.x >= dialog.x && el.y >= dialog.y && el.x + el.width <= dialog.x + dialog.width && el.y + el.height <= dialog.y + dialog.height) ? dialog : undefined);
    // Listings report the visible part of a scrolled element: flush with its list's edge means it is cut.
    const list = elements.find((o) => o.scrollable && o !== el && el.x >= o.x && el.x + el.width <= o.x + o.width && el.y >= o.y && el.y + el.height <= o.y + o.height);
    const sameKind = elements.filter((o) => o.type === el.type && o !== el);
    const typical = sameKind.length ? Math.max(...sameKind.map((o) => o.height)) : el.height;
    const cut = list !== undefined && el.height < typical && (el.y === list.y || el.y + el.height === list.y + list.height);
    const pass = inside && !cover && !cut;
    const why = !inside ? 'it extends past the screen edge' : cover ? `it is covered by ${name(cover)}` : cut ? `it is cut off at the edge of ${name(list!)}` : 'it lies wholly on screen';
    return { pass, expected: 'fully visible', actual: { x: el.x, y: el.y, width: el.width, height: el.height }, message: `${checked(el)}: ${why}` };
  },
  async element_state(a, env) {
    const el = await element(env, a.element_description, a.state_property, true);
    if (isVerdict(el)) return el;
    const states: Record<typeof a.state_property, boolean> = {
      enabled: el.enabled,
      disabled: !el.enabled,
      selected: el.selected === true || el.checked === true,
      not_selected: !(el.selected === true || el.checked === true),
      focused: el.focused === true,
      clickable: el.clickable === true,
    };
    const pass = states[a.state_property];
    return { pass, expected: a.state_property, actual: { enabled: el.enabled, selected: el.selected ?? null, checked: el.checked ?? null, focused: el.focused ?? null, clickable: el.clickable ?? null }, message: `${checked(el)} is ${pass ? '' : 'not '}${a.state_property.replace('_', ' ')}` };
  },
  async element_text(a, env) {
    const el = await element(env, a.element_description, a.expected_value);
    if (isVerdict(el)) return el;
    const text = said(el, await env.elements());
    const pass = text === a.expected_value;
    return { pass, expected: a.expected_value, actual: text, message: pass ? `${name(el)} reads as expected` : `${name(el)} reads ${JSON.stringify(text)}` };
  },
  async text_contains(a, env) {
    const pool = await searchable(env, a.element_description, a.expected_substring);
    if (!Array.isArray(pool)) return pool;
    const hit = pool.find((e) => textOf(e).includes(a.expected_substring) || (e.accessibility_label ?? '').includes(a.expected_substring));
    return { pass: Boolean(hit), expected: a.expected_substring, actual: hit ? textOf(hit) : pool.length === 1 ? textOf(pool[0]) : null, message: hit ? `${name(hit)} contains it` : `no ${a.element_description ? 'text of that element' : 'element text'} contains ${JSON.stringify(a.expected_substring)}` };
  },
  async text_not_empty(a, env) {
    const el = await element(env, a.element_description, 'non-empty text');
    if (isVerdict(el)) return el;
    const text = said(el, await env.elements());
    const pass = text.trim() !== '';
    return { pass, expected: 'non-empty text', actual: text, message: `${name(el)} ${pass ? 'has' : 'has no'} text` };
  },
  async pattern_match(a, env) {
    const re = regex(a.pattern);
    if ('pass' in re) return re;
    const pool = await searchable(env, a.element_description, a.pattern);
    if (!Array.isArray(pool)) return pool;
    const hit = pool.find((e) => re.test(e.text) || re.test(e.accessibility_label ?? ''));
    return { pass: Boolean(hit), expected: a.pattern, actual: hit ? textOf(hit) : pool.length === 1 ? textOf(pool[0]) : null, message: hit ? `${name(hit)} matches /${a.pattern}/` : `no text matches /${a.pattern}/` };
  },
  async text_changed(a, env) {
    const before = env.textBefore(a.id);
    const el = await element(env, a.element_description, null);
    const after = isVerdict(el) ? null : said(el, await env.elements());
    if (before === undefined) return { pass: false, error: true, message: 'the text before the step was not recorded' };
    const pass = before !== after && after !== null;
    return { pass, expected: `different from ${JSON.stringify(before)}`, actual: after, message: after === null ? `${JSON.stringify(a.element_description)} is no longer on screen` : pass ? `changed from ${JSON.stringify(before)} to ${JSON.stringify(after)}` : `still ${JSON.stringify(after)}` };
  },
  async element_hint(a, env) {
    const el = await element(env, a.element_description, a.expected_text, true);
    if (isVerdict(el)) return el;
    const hint = el.hint ?? '';
    return { pass: hint === a.expected_text, expected: a.expected_text, actual: hint, message: `${checked(el)} has hint ${JSON.stringify(hint)}` };
  },
  async content_description(a, env) {
    const el = await element(env, a.element_description, a.label_value, true);
    if (isVerdict(el)) return el;
    return { pass: el.accessibility_label === a.label_value, expected: a.label_value, actual: el.accessibility_label, message: `${checked(el)} has label ${JSON.stringify(el.accessibility_label)}` };
  },
  async has_accessibility_label(a, env) {
    const el = await element(env, a.element_description, a.label_value ?? 'a non-empty label', true);
    if (isVerdict(el)) return el;
    const label = el.accessibility_label ?? '';
    const pass = label.trim() !== '' && (a.label_value === undefined || label === a.label_value);
    return { pass, expected: a.label_value ?? 'a non-empty label', actual: el.accessibility_label, message: `${checked(el)} has ${label ? `label ${JSON.stringify(label)}` : 'no accessibility label'}` };
  },
  async element_count(a, env) {
    const n = (await all(env, a.element_description)).length;
    const pass = compare(n, a.operator, a.expected_count);
    return { pass, expected: `${a.operator} ${a.expected_count}`, actual: n, message: `${n} element${n === 1 ? '' : 's'} match ${JSON.stringify(a.element_description)}` };
  },
  async list_item_count(a, env) {
    const items = await listItems(env, a.element_description, `${a.operator} ${a.expected_count}`);
    if (!Array.isArray(items)) return items;
    const pass = compare(items.length, a.operator, a.expected_count);
    return { pass, expected: `${a.operator} ${a.expected_count}`, actual: items.length, message: `the list shows ${items.length} item${items.length === 1 ? '' : 's'} on screen` };
  },
  async list_is_empty(a, env) {
    const items = await listItems(env, a.element_description, 0);
    if (!Array.isArray(items)) return items;
    return { pass: items.length === 0, expected: 0, actual: items.length, message: items.length ? `the list shows ${items.length} items` : 'the list is empty' };
  },
  async value_matches_variable(a, env) {
    const el = await element(env, a.element_description, env.variables[a.variable_name] ?? null);
    if (isVerdict(el)) return el;
    if (!(a.variable_name in env.variables)) return { pass: false, error: true, message: `variable ${a.variable_name} is not declared` };
    const value = env.variables[a.variable_name];
    let text = said(el, await env.elements());
    if (a.pattern !== undefined) {
      const re = regex(a.pattern);
      if ('pass' in re) return re;
      const m = re.exec(text);
      text = m ? (m[1] ?? m[0]) : '';
    }
    const pass = value !== null && (text === String(value) || (typeof value === 'number' && Number(text.replace(/,/g, '')) === value));
    return { pass, expected: value, actual: text, message: `${name(el)} ${pass ? 'matches' : 'does not match'} \${${a.variable_name}}` };
  },
};

/**
 * Items of a list: list items inside the list's bounds. Only items on screen count; a list whose
 * place shows an empty-state message has no items.
 */
async function listItems(env: AssertionEnv, description: string, expected: unknown): Promise<UiElement[] | Verdict> {
  const elements = await env.elements();
  const r = await resolveOnce(env.verbs, { description, intent: 'read' }, elements);
  if (!r.ok) {
    const empty = elements.find((e) => /^(no |nothing|empty)/.test(normalizeText(e.text)));
    if (empty) return [];
    return { pass: false, expected, actual: null, message: r.message };
  }
  const list = r.element;
  return elements.filter((e) => e !== list && e.type === 'listitem' && e.center.x >= list.x && e.center.x <= list.x + list.width && e.center.y >= list.y && e.center.y <= list.y + list.height);
}
