import { BUTTONS } from '../engine/types.js';
import { MAX_SWIPES_EACH_WAY } from '../engine/verbs/actions.js';
import type { VerbStep } from '../engine/verbs/index.js';
import { SCENARIO_BUTTONS } from '../validate/vocabulary.js';
import { ArgumentError, type Args } from './arguments.js';

/**
 * The verbs as MCP tools: one tool per scenario action, with a semantic target. JSON Schemas are
 * written by hand so the descriptions speak to a model; `toStep` turns arguments into the
 * scenario step the verb runs (and a recording keeps).
 */

export interface VerbTool {
  name: string;
  description: string;
  inputSchema: { type: 'object'; properties: Record<string, unknown>; required?: string[]; additionalProperties?: boolean };
  /** At least one of these must be given (not in the listed schema: clients refuse a top-level anyOf). */
  oneRequired?: string[];
  toStep(args: Args): VerbStep & { capture_to?: string };
}

export const DEVICE_PROPERTY = { type: 'string', minLength: 1, description: 'Device id from list_devices, e.g. "emulator-5554" or "virtual-android-1".' };

/**
 * Longest target and typed text taken: the device is held while a text is typed (20 million
 * characters held a virtual phone for 39 s, a real one until the deadline).
 */
const MAX_TARGET_CHARS = 2000;
const MAX_TEXT_CHARS = 10_000;

const TARGET = {
  target: {
    type: 'string',
    minLength: 1,
    maxLength: MAX_TARGET_CHARS,
    description: 'The element as a person would describe it: its visible text or label, role and place, e.g. "the Sign in button", "the Email field", "the second Delete button", "the switch next to Dark mode". Never a resource id, XPath, coordinates or a list_elements id starting with n0 (an element\'s place in the tree, which changes with the screen).',
  },
  target_pattern: { type: 'string', minLength: 1, maxLength: MAX_TARGET_CHARS, description: 'Instead of (or with) target: a regular expression over element text, for labels that change, e.g. "^Order #\\\\d+$".' },
};

/** Verbs that act on an element need one of these (wait_for only for visible / gone: the verb says so). */
const ONE_TARGET = ['target', 'target_pattern'];

const PACKAGE = { type: 'string', minLength: 1, description: 'Android package name or iOS bundle id, e.g. "com.example.app": the "package" list_apps gives, not the app\'s name.' };

const ELEMENT = '{id, text, label, type, center, confidence}';

/**
 * What a verb answers, "resolved" as that verb fills it: an element only where it acted on or
 * found one, null where none is resolved (a swipe, a key, a launch), so no caller reads an id
 * from a result that never holds one.
 */
function outcome(resolved: string): string {
  return `Returns {status: "passed", action, message, resolved, duration_ms}, resolved being ${resolved}; when a recording runs, "recorded" lists the scenario step ids written.`;
}

const ACTED_ON = outcome(`the element acted on, ${ELEMENT}`);
const NOTHING_RESOLVED = outcome('null');
const TARGET_ERRORS = 'Errors: ELEMENT_NOT_FOUND (nothing matches, several match equally — the message lists the closest — or the element is disabled), DEVICE_NOT_FOUND, TIMEOUT.';

const str = (args: Args, key: string): string | undefined => (typeof args[key] === 'string' ? (args[key] as string) : args[key] === undefined ? undefined : String(args[key]));

function targeted(args: Args): Pick<VerbStep, 'target' | 'target_pattern'> {
  const out: Pick<VerbStep, 'target' | 'target_pattern'> = {};
  const target = str(args, 'target');
  const pattern = str(args, 'target_pattern');
  if (target) out.target = target;
  if (pattern) out.target_pattern = pattern;
  return out;
}

function schema(properties: Record<string, unknown>, required: string[] = []): VerbTool['inputSchema'] {
  return { type: 'object', properties: { device: DEVICE_PROPERTY, ...properties }, required: ['device', ...required], additionalProperties: false };
}

function gestureTool(name: string, action: string, what: string): VerbTool {
  return {
    name,
    description: `${what} the element described by "target" (found on the current screen; waits briefly for it to appear). Use this rather than coordinates. ${ACTED_ON} ${TARGET_ERRORS}`,
    inputSchema: schema(TARGET),
    oneRequired: ONE_TARGET,
    toStep: (a) => ({ action, ...targeted(a) }),
  };
}

export const VERB_TOOLS: VerbTool[] = [
  gestureTool('tap', 'tap', 'Tap'),
  gestureTool('double_tap', 'double_tap', 'Double-tap'),
  gestureTool('long_press', 'long_press', 'Long-press (press and hold, e.g. to open a context menu)'),
  {
    name: 'type_text',
    description: `Type text. With "target" the field is tapped first so it has the focus; without it the text goes to the field that already has the focus. The text is added to what the field already holds: pass clear_first: true to empty it first (a recording keeps that). "\\n" in the text presses ENTER. ${outcome(`the field tapped, ${ELEMENT}, with a target; null without one`)} Errors: INVALID_PARAMETER when no field has the focus (give a target), ELEMENT_NOT_FOUND, DEVICE_NOT_FOUND.`,
    inputSchema: schema(
      {
        text: { type: 'string', maxLength: MAX_TEXT_CHARS, description: `The text to type, at most ${MAX_TEXT_CHARS} characters (type a longer one in several calls; "" only with clear_first: true, to just empty the field).` },
        ...TARGET,
        clear_first: { type: 'boolean', description: 'true: empty the field before typing (default false: the text is added to what it holds).' },
      },
      ['text'],
    ),
    toStep: (a) => {
      const value = str(a, 'text') ?? '';
      const clear = a.clear_first === true;
      if (value === '' && !clear) throw new ArgumentError('"text" must not be empty: The text to type ("" only with clear_first: true, to just empty the field)');
      return { action: 'type', value, ...(clear ? { clear_first: true } : {}), ...targeted(a) };
    },
  },
  {
    name: 'swipe',
    description: `Swipe across the middle of the screen. "up" moves the content up and shows what is below (like scrolling down). To reach a known element prefer scroll_to. ${NOTHING_RESOLVED} Errors: INVALID_PARAMETER, DEVICE_NOT_FOUND.`,
    inputSchema: schema({ direction: { type: 'string', enum: ['up', 'down', 'left', 'right'], description: 'Which way the finger moves: up shows what is below, down what is above.' } }, ['direction']),
    toStep: (a) => ({ action: 'swipe', value: str(a, 'direction') }),
  },
  {
    name: 'scroll_to',
    description: `Scroll until the element described by "target" is fully on screen (swipes up, then down: at most ${MAX_SWIPES_EACH_WAY} swipes each way, fewer when the list stops moving; a failure says how many swipes went each way and what showed where the list ended). ${outcome(`the element scrolled to, ${ELEMENT}`)} ${TARGET_ERRORS}`,
    inputSchema: schema(TARGET),
    oneRequired: ONE_TARGET,
    toStep: (a) => ({ action: 'scroll_to_element', ...targeted(a) }),
  },
  {
    name: 'press_button',
    description: `Press a hardware/system key: BACK (Android only — on iOS use press_back), HOME, ENTER, VOLUME_UP or VOLUME_DOWN (a recording keeps only BACK, HOME and ENTER: scenarios have no volume step). ${NOTHING_RESOLVED} Errors: INVALID_PARAMETER (BACK on iOS), DEVICE_NOT_FOUND.`,
    // Every button the device takes (the engine's own list, which its refusals name), the scenario's first.
    inputSchema: schema({ button: { type: 'string', enum: [...SCENARIO_BUTTONS, ...BUTTONS.filter((b) => !(SCENARIO_BUTTONS as readonly string[]).includes(b))], description: 'The hardware or system button.' } }, ['button']),
    toStep: (a) => ({ action: 'press_button', value: str(a, 'button') }),
  },
  {
    name: 'press_back',
    description: `Go back one screen on any platform: BACK on Android; the navigation bar's back button or the edge swipe on iOS. ${outcome(`the back button tapped, ${ELEMENT}, on iOS when the navigation bar has one; null for BACK and the edge swipe`)} Errors: DEVICE_NOT_FOUND.`,
    inputSchema: schema({}),
    toStep: () => ({ action: 'press_back' }),
  },
  {
    name: 'dismiss_keyboard',
    description: `Close the soft keyboard if it shows, the way a user does: BACK on Android; on iOS the Done key, else a tap outside the field, else a plain return key (never a Next/Go key, which would move on or submit). ${NOTHING_RESOLVED} Errors: INVALID_PARAMETER when it stays open (the app needs its own control).`,
    inputSchema: schema({}),
    toStep: () => ({ action: 'dismiss_keyboard' }),
  },
  {
    name: 'grant_permission',
    description: `Allow the system permission prompt that is showing ("Allow", "While using the app", …). ${outcome(`the prompt's button tapped, ${ELEMENT}`)} Errors: ELEMENT_NOT_FOUND when no prompt shows (trigger it first) or it asks for another permission than permission_name.`,
    inputSchema: schema({ permission_name: { type: 'string', description: 'Optional check, e.g. camera, location, microphone, notifications.' } }),
    toStep: (a) => ({ action: 'grant_permission', ...(str(a, 'permission_name') ? { permission_name: str(a, 'permission_name') } : {}) }),
  },
  {
    name: 'deny_permission',
    description: `Deny the system permission prompt that is showing ("Don't allow", "Deny"). ${outcome(`the prompt's button tapped, ${ELEMENT}`)} Errors: ELEMENT_NOT_FOUND when no prompt shows.`,
    inputSchema: schema({ permission_name: { type: 'string', description: 'Optional check, e.g. camera, location.' } }),
    toStep: (a) => ({ action: 'deny_permission', ...(str(a, 'permission_name') ? { permission_name: str(a, 'permission_name') } : {}) }),
  },
  {
    name: 'launch_app',
    description: `Start an app (or bring it to the front) by its package / bundle id. ${NOTHING_RESOLVED} Errors: APP_NOT_INSTALLED (call list_apps), DEVICE_NOT_FOUND.`,
    inputSchema: schema({ package: PACKAGE }, ['package']),
    toStep: (a) => ({ action: 'launch_app', value: str(a, 'package') }),
  },
  {
    name: 'open_url',
    description: `Open a URL or deep link (e.g. "https://example.com", "myapp://screen/home"). ${NOTHING_RESOLVED} Errors: INVALID_PARAMETER for a scheme nothing handles, DEVICE_NOT_FOUND.`,
    inputSchema: schema({ url: { type: 'string', minLength: 1, description: 'The URL or deep link, e.g. "https://example.com" or "myapp://screen/home".' } }, ['url']),
    toStep: (a) => ({ action: 'open_url', value: str(a, 'url') }),
  },
  {
    name: 'wait_for',
    description: `Wait until an element appears ("visible", the default), disappears ("gone"), or until no loading indicator shows ("loading_complete"; it takes no target, and is the only mode that takes indicator). Use it after an action that loads something instead of polling with screenshots; a recording keeps it as a wait step. ${outcome(`the element found, ${ELEMENT}, for visible; null for gone and loading_complete`)} Errors: TIMEOUT when the wait ran out (take a screenshot to see why); ELEMENT_NOT_FOUND at once when several elements match equally.`,
    inputSchema: schema({
      until: { type: 'string', enum: ['visible', 'gone', 'loading_complete'], description: 'Default visible.' },
      ...TARGET,
      timeout_ms: { type: 'integer', minimum: 1000, maximum: 45000, description: 'How long to wait (default 10000; at most 45000, as MCP clients such as Claude Desktop give up on a call after 60 s: call wait_for again to wait longer).' },
      indicator: { type: 'string', enum: ['spinner', 'progress_bar', 'shimmer', 'skeleton', 'any'], description: 'loading_complete only: which indicator to wait out (default any).' },
    }),
    toStep: (a) => {
      const until = str(a, 'until') ?? 'visible';
      // The step would drop these without a word, and the agent would believe it waited for them.
      const aimed = ONE_TARGET.find((k) => a[k] !== undefined && a[k] !== null);
      if (until === 'loading_complete' && aimed) {
        throw new ArgumentError(`"${aimed}" is not used with until: "loading_complete", which waits until no loading indicator shows, whatever the element; to wait for the element, call wait_for with until: "visible" (the default) and the ${aimed}, after or instead of this`);
      }
      if (until !== 'loading_complete' && a.indicator !== undefined && a.indicator !== null) {
        throw new ArgumentError(`"indicator" is for until: "loading_complete" only (got until: "${until}"); leave it out, or wait with until: "loading_complete"`);
      }
      const action = until === 'gone' ? 'wait_for_element_gone' : until === 'loading_complete' ? 'wait_for_loading_complete' : until === 'visible' ? 'wait_for_element' : `wait_for_${until}`;
      const type = until === 'gone' ? 'element_gone' : until === 'loading_complete' ? 'loading_complete' : 'element_visible';
      const timeout = typeof a.timeout_ms === 'number' ? a.timeout_ms : undefined;
      const indicator = str(a, 'indicator');
      return { action, ...targeted(a), wait_config: { type, ...(timeout !== undefined ? { timeout_ms: timeout } : {}), ...(indicator ? { indicator } : {}) } };
    },
  },
  {
    name: 'read_text',
    description: `Read the text of the element described by "target" (a row without text of its own reads its first text). With save_as, a recording stores it as a scenario variable (without it the read is not recorded). Returns {status, value, resolved}. ${TARGET_ERRORS}`,
    oneRequired: ONE_TARGET,
    inputSchema: schema({ ...TARGET, save_as: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$', description: 'Variable name for a recording, e.g. order_number.' } }),
    toStep: (a) => ({ action: 'capture_value', ...targeted(a), ...(str(a, 'save_as') ? { capture_to: str(a, 'save_as') } : {}) }),
  },
  {
    name: 'clear_app_data',
    description: `Erase an app's data (like a fresh install). Android and virtual devices; iOS has no way to do it unattended, so there it is a NEEDS_MANUAL error (ask the user to reinstall the app). ${NOTHING_RESOLVED} Errors: APP_NOT_INSTALLED.`,
    inputSchema: schema({ package: PACKAGE }, ['package']),
    toStep: (a) => ({ action: 'clear_app_data', value: str(a, 'package') }),
  },
];
