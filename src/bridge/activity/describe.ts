import type { UiElement } from '../../engine/types.js';
import { fieldName, isTextField, readableName } from '../../engine/readable-name.js';
import type { ActivityElement, DeviceActivityParams } from '../../protocol/index.js';
import { characters } from '../../engine/text-length.js';

/** What the feed shows for a password field's text: never the text, not even its bullets' count in the parameters. */
export const MASK = '•••';

/**
 * The element as the feed names it: what a person reads on it (readableName), at most 60
 * characters. A text field goes by its label or hint (else its resource id), never by its text: that
 * is what someone typed, a scenario's secret parameter among it, as a password field's is.
 */
export function activityElement(e: UiElement): ActivityElement {
  const name = ((isTextField(e) ? fieldName(e) : readableName(e)) ?? '').trim();
  return { id: e.id, type: e.type, ...(name ? { name: name.length > 60 ? `${name.slice(0, 60)}…` : name } : {}) };
}


const NOUN: Record<string, string> = {
  button: 'button',
  edittext: 'field',
  text: 'text',
  image: 'image',
  checkbox: 'checkbox',
  switch: 'switch',
  radio: 'radio button',
  tab: 'tab',
  link: 'link',
  list: 'list',
  listitem: 'list item',
  webview: 'web view',
  keyboard: 'keyboard',
  dialog: 'dialog',
};

/** "the “Sign in” button"; "a button" when it has no name. */
export function nameElement(e: ActivityElement): string {
  const noun = NOUN[e.type] ?? 'element';
  return e.name ? `the “${e.name}” ${noun}` : `${/^[aeiou]/.test(noun) ? 'an' : 'a'} ${noun}`;
}

function quoted(text: string, max = 40): string {
  return `“${text.length > max ? `${text.slice(0, max)}…` : text}”`;
}

function point(p: Record<string, unknown>): string {
  return `(${typeof p.x === 'number' ? p.x : '?'}, ${typeof p.y === 'number' ? p.y : '?'})`;
}

/** A verb as the sentence needs it: as done ("tapped"), or as tried ("tap") for an action that failed. */
type Form = (done: string, tried: string) => string;

/** A streamed touch (input.touch): one entry for the whole drag, in its main direction. */
function dragged(p: Record<string, unknown>, v: Form): string {
  if (p.action === 'cancel') return `${v('cancelled', 'cancel')} a drag`;
  const from = (p.from ?? {}) as Record<string, unknown>;
  const to = (p.to ?? {}) as Record<string, unknown>;
  // A finger held in place (the viewer's held press): no drag to speak of.
  if (p.long_press === true) return `${v('long-pressed', 'long-press')} at ${point(from)}${p.streamed === false ? ' (replayed on release)' : ''}`;
  const dx = Number(to.x) - Number(from.x);
  const dy = Number(to.y) - Number(from.y);
  const direction = Math.abs(dx) > Math.abs(dy) ? (dx < 0 ? 'left' : 'right') : dy < 0 ? 'up' : 'down';
  return `${v('dragged', 'drag')} ${direction} from ${point(from)} to ${point(to)}${p.streamed === false ? ' (replayed on release)' : ''}`;
}

type Described = Pick<DeviceActivityParams, 'tool' | 'verb' | 'parameters' | 'element' | 'masked' | 'count'> & Partial<Pick<DeviceActivityParams, 'outcome'>>;

function typed(text: string, a: Described, v: Form): string {
  const into = a.element ? ` into ${nameElement(a.element)}` : '';
  const n = a.masked?.characters;
  if (a.masked) return `${v('typed', 'type')} ${n === undefined ? 'a secret' : characters(n)}${into || ' into a field'}`;
  return `${v('typed', 'type')} ${quoted(text)}${into}`;
}

/**
 * One sentence naming the action and the element it landed on; coordinates only when no element
 * was there. An action that failed is said as tried ("tried to launch com.example.app"): a
 * participant reading "launched …" would believe it happened.
 */
export function summarize(a: Described): string {
  if (a.outcome?.status !== 'error') return sentence(a, (done) => done);
  return `tried to ${sentence(a, (_done, tried) => tried)} (failed${a.outcome.code ? `: ${a.outcome.code}` : ''})`;
}

function sentence(a: Described, v: Form): string {
  const p = a.parameters;
  const on = (done: string, tried: string) => (a.element ? `${v(done, tried)} ${nameElement(a.element)}` : `${v(done, tried)} ${point(p)}`);
  if (a.verb) {
    const target = typeof p.target === 'string' ? ` ${quoted(p.target)}` : typeof p.target_pattern === 'string' ? ` /${p.target_pattern}/` : '';
    if (a.verb === 'type') return `${typed(typeof p.value === 'string' ? p.value : '', a, v)} (step type${target})`;
    const landed = a.element ? ` → ${nameElement(a.element)}` : '';
    const value = typeof p.value === 'string' ? ` ${quoted(p.value)}` : '';
    return `${v('ran', 'run')} ${a.verb}${target}${value}${landed}`;
  }
  switch (a.tool) {
    case 'mobile_click_on_screen_at_coordinates':
      return on('tapped', 'tap');
    case 'mobile_double_tap_on_screen':
      return on('double-tapped', 'double-tap');
    case 'mobile_long_press_on_screen_at_coordinates':
      return `${on('long-pressed', 'long-press')}${typeof p.duration === 'number' ? ` for ${p.duration} ms` : ''}`;
    case 'mobile_pinch_on_screen':
      return `${Number(p.scale) > 1 ? on('zoomed in on', 'zoom in on') : on('zoomed out on', 'zoom out on')} (two fingers, ×${String(p.scale)})`;
    case 'mobile_swipe_on_screen':
      return `${v('swiped', 'swipe')} ${String(p.direction)}${typeof p.distance === 'number' ? ` ${p.distance} px` : ''}`;
    case 'mobile_type_keys': {
      const text = typeof p.text === 'string' ? p.text : '';
      const parts = [p.clear_first ? `${v('emptied', 'empty')} ${a.element ? nameElement(a.element) : 'the field'}` : '', text ? typed(text, a, v) : '', p.submit ? `${v('pressed', 'press')} ENTER` : ''];
      return parts.filter(Boolean).join(' and ');
    }
    case 'mobile_press_button':
      return `${v('pressed', 'press')} ${String(p.button)}`;
    case 'input.key':
      return `${v('pressed', 'press')} ${Array.isArray(p.modifiers) ? `${p.modifiers.join('+')}+` : ''}${String(p.key)}`;
    case 'input.touch':
      return dragged(p, v);
    case 'mobile_set_orientation':
      return `${v('rotated', 'rotate')} to ${String(p.orientation)}`;
    case 'mobile_launch_app':
      return `${v('launched', 'launch')} ${String(p.packageName)}`;
    case 'mobile_terminate_app':
      return `${v('stopped', 'stop')} ${String(p.packageName)}`;
    case 'mobile_open_url':
      return `${v('opened', 'open')} ${String(p.url)}`;
    default: {
      const { device: _device, ...rest } = p;
      const args = Object.keys(rest).length > 0 ? ` ${JSON.stringify(rest)}` : '';
      return `${a.tool ?? v('acted', 'act')}${args.length > 120 ? `${args.slice(0, 120)}…` : args}`;
    }
  }
}
