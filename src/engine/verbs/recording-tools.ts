import type { CallEvent } from '../engine.js';
import type { UiElement } from '../types.js';
import { fieldName, isTextField, readableName } from '../readable-name.js';
import { textInside } from '../resolve/index.js';
import { resolvedOf } from './target.js';
import type { VerbOutcome, VerbStep } from './types.js';
import { SCENARIO_BUTTONS } from '../../validate/vocabulary.js';

/**
 * Raw engine tools an agent called while recording (mobile-mcp style, `--engine-tools`), as the
 * scenario step that does the same thing semantically. A coordinate tap becomes a tap on the
 * element under the point in the agent's listing of the screen it hit (undefined when no listing
 * shows that screen: nothing is recorded then); coordinates never reach the scenario.
 */
export type RawTranslation = { step: VerbStep; outcome: VerbOutcome } | { skipped: string } | { erase: true } | undefined;

/** A finished touch stream that moved less than this is a tap (the engine's own tap slop). */
const TAP_SLOP_PX = 8;
/** A drag starting this close to the left edge and going right is the system's back gesture. */
const BACK_EDGE_PX = 2;

/** Raw tools that act on a point: recorded as the element there, so they need a listing of the screen. */
export const POINT_TOOLS: Readonly<Record<string, string>> = {
  mobile_click_on_screen_at_coordinates: 'tap',
  mobile_double_tap_on_screen: 'double_tap',
  mobile_long_press_on_screen_at_coordinates: 'long_press',
};

const contains = (e: UiElement, x: number, y: number) => x >= e.x && x <= e.x + e.width && y >= e.y && y <= e.y + e.height;

/**
 * What the touched point is called, for a step that replays the touch: the smallest listed element
 * containing it that has a name, preferring a name no other element on screen has. A row's
 * subtitle ("On sale") repeats down a list, so the tap is named by the row's title ("Item 5"), the
 * first text inside the row, which opens the same row and resolves to one element at replay.
 */
export function elementAt(elements: readonly UiElement[], x: number, y: number): { element: UiElement; name: string } | undefined {
  const counts = new Map<string, number>();
  for (const e of elements) {
    const name = nameOf(e);
    if (name) counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  const named: { element: UiElement; name: string; area: number }[] = [];
  for (const e of elements) {
    if (!contains(e, x, y)) continue;
    const own = nameOf(e);
    const name = own ?? (e.type === 'listitem' ? textInside(e, elements) : undefined);
    if (name) named.push({ element: e, name, area: e.width * e.height });
  }
  const unique = (n: { name: string }) => (counts.get(n.name) ?? 0) <= 1;
  named.sort((a, b) => Number(unique(b)) - Number(unique(a)) || a.area - b.area);
  return named[0];
}


/**
 * A text field is named as the inspector names it, "the Email field", by its label, hint or resource
 * id: its text is what someone typed (a filled form, a secret), which a replay on a fresh install
 * does not find and which must not be written into the scenario.
 */
function nameOf(e: UiElement): string | undefined {
  if (!isTextField(e)) return readableName(e);
  const name = fieldName(e);
  return name ? `the ${name} field` : undefined;
}

export function translateRawCall(e: CallEvent, lastListing: readonly UiElement[] | undefined): RawTranslation {
  if (!e.ok || !e.mutates) return undefined;
  const p = e.parameters;
  const passed = (step: VerbStep, resolved: VerbOutcome['resolved'] = null) => ({ step, outcome: { status: 'passed' as const, action: step.action, resolved, duration_ms: Math.round(e.durationMs), message: '' } });
  const tapAt = (action: string, x: number, y: number): RawTranslation => {
    if (!lastListing) {
      return { skipped: `${e.tool} at (${x}, ${y}): the screen may have changed since the last listing (or nothing was listed), so what the tap hit is unknown; list the elements again right before a coordinate tap, or use the tap verb` };
    }
    const hit = elementAt(lastListing, x, y);
    if (!hit) return { skipped: `${e.tool} at (${x}, ${y}): no listed element with text or a label is there (list elements before tapping, or use the tap verb)` };
    return passed({ action, target: hit.name }, resolvedOf(hit.element, 1));
  };
  const action = POINT_TOOLS[e.tool];
  if (action) return tapAt(action, Number(p.x), Number(p.y));
  switch (e.tool) {
    // A viewer's streamed drag (bridge input.touch), reported once when the finger lifts.
    case 'input.touch': {
      const from = p.from as { x: number; y: number } | undefined;
      const to = p.to as { x: number; y: number } | undefined;
      if (p.action !== 'up' || !from || !to) return { skipped: 'a drag that was cancelled before the finger lifted' };
      const dx = to.x - from.x;
      const dy = to.y - from.y;
      if (Math.hypot(dx, dy) < TAP_SLOP_PX) return tapAt(p.long_press === true ? 'long_press' : 'tap', from.x, from.y);
      if (from.x <= BACK_EDGE_PX && dx > Math.abs(dy)) return passed({ action: 'press_back' });
      // Dragging upwards moves the content up: a swipe `up`, as mobile_swipe_on_screen names it.
      const direction = Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? 'right' : 'left') : dy > 0 ? 'down' : 'up';
      return passed({ action: 'swipe', value: direction });
    }
    case 'input.key':
      if (p.key === 'ENTER') return passed({ action: 'press_button', value: 'ENTER' });
      if (p.key === 'BACKSPACE') return { erase: true };
      return { skipped: `the ${Array.isArray(p.modifiers) ? `${p.modifiers.join('+')}+` : ''}${String(p.key)} key: no scenario step presses it` };
    case 'mobile_type_keys': {
      const text = String(p.text ?? '');
      return passed({ action: 'type', value: p.submit === true ? `${text}\n` : text });
    }
    case 'mobile_swipe_on_screen':
      return passed({ action: 'swipe', value: String(p.direction) });
    case 'mobile_press_button':
      return (SCENARIO_BUTTONS as readonly string[]).includes(String(p.button))
        ? passed({ action: 'press_button', value: String(p.button) })
        : { skipped: `${e.tool} ${String(p.button)}: scenarios press only BACK, HOME or ENTER` };
    case 'mobile_launch_app':
      return passed({ action: 'launch_app', value: String(p.packageName) });
    case 'mobile_open_url':
      return passed({ action: 'open_url', value: String(p.url) });
    case 'mobile_clear_app_data':
      return passed({ action: 'clear_app_data', value: String(p.packageName) });
    case 'mobile_pinch_on_screen':
      return { skipped: `a pinch (×${String(p.scale)}): scenarios have no pinch step, so a replay will not zoom there` };
    default:
      return { skipped: `${e.tool}: no scenario step does this (use preconditions for installs, Wi-Fi and orientation)` };
  }
}
