import * as v from 'valibot';
import type { ToolFailure } from '../engine/errors.js';
import type { ElementDescription } from '../engine/verbs/describe-element.js';
import { CTRL_LETTERS, KEY_MODIFIERS, KEYS, type DeviceInfo } from '../engine/types.js';
import { PARAMETER_NAME } from '../validate/vocabulary.js';
import type { DeviceActivityParams, LockPurpose, Participant } from './notifications.js';
import { FRAME_FORMATS, type FrameFormat, type StreamSource } from './screen-formats.js';

/**
 * The bridge protocol (SPEC §6, docs/protocol.md): every method's params as a valibot schema
 * (the server validates with exactly these), its result type, and every notification.
 * One definition shared by the server, the TypeScript client and the browser viewer, so
 * this file must stay free of Node imports (type-only imports are erased).
 */

export const PROTOCOL_VERSION = 1;

/** Limits the server announces in `session.hello` and enforces. */
export interface ServerLimits {
  max_message_bytes: number;
  max_batch: number;
  rate_limit_per_second: number;
  rate_limit_burst: number;
  resume_grace_ms: number;
  replay_buffer: number;
  /** Screen subscriptions one session may hold to one device (each format and width is encoded apart). */
  max_screen_subscriptions: number;
  /** Distinct (format, width, quality) screenshot encodings one device serves, over all sessions. */
  max_screen_encodings: number;
}

/** A device failure, an unknown subscription or a lock held elsewhere: a normal result, like a tool failure. */
export type Failure = ToolFailure;

const sessionId = v.pipe(v.string('session ids are strings'), v.minLength(1), v.maxLength(200));
const deviceId = v.pipe(
  v.string('device must be a string: a device id from devices.list'),
  v.minLength(1, 'device must not be empty: pass a device id from devices.list'),
  v.maxLength(500),
);
const clientName = v.pipe(v.string('client must be a string naming the client, e.g. "viewer"'), v.maxLength(100, 'client must be at most 100 characters'));

function int(name: string, min: number, max: number) {
  return v.pipe(
    v.number(`${name} must be a number (${min}..${max})`),
    v.integer(`${name} must be a whole number (${min}..${max})`),
    v.minValue(min, `${name} must be at least ${min}`),
    v.maxValue(max, `${name} must be at most ${max}`),
  );
}

/**
 * A nested object param. valibot's object and record schemas take arrays (`[]` has no keys to
 * refuse, so `screen: []` was a full-resolution 30 fps stream): an array, null or any other
 * non-object is refused first, with `message`. Top-level params are checked in the bridge's rpc.ts.
 */
export function jsonObject<S extends v.GenericSchema>(schema: S, message: string) {
  return v.pipe(v.custom<v.InferInput<S>>((x) => typeof x === 'object' && x !== null && !Array.isArray(x), message), schema);
}

// ---------------------------------------------------------------------------------------------
// session.*

export const HelloParams = v.strictObject({
  /** Free text shown to other participants (activity, lock holder), e.g. "viewer" or "ci-runner". */
  client: v.optional(clientName),
  /** A session id from an earlier `session.hello` whose connection dropped. */
  resume: v.optional(sessionId),
  /** The `resume_token` that came with that session: proof that the caller owns it. */
  resume_token: v.optional(v.pipe(v.string(), v.maxLength(200))),
  /** How many notifications the client received in that session; later ones are replayed. */
  received: v.optional(int('received', 0, Number.MAX_SAFE_INTEGER)),
});

/** Screen options in force: defaults filled in; `maxWidth: null` means the device's full width. */
export interface EffectiveScreenOptions {
  maxFps: number;
  maxWidth: number | null;
  format: FrameFormat;
  quality: number;
}

export interface SubscriptionInfo {
  subscription: string;
  device: string;
  screen?: EffectiveScreenOptions;
  elements: boolean;
  /** With `screen` (SPEC §9): the format frames actually come in, which may differ from the one asked for. */
  format?: FrameFormat;
  source?: StreamSource;
  /** Why live video is not used (no video on this device, it failed to start, `--no-video`). */
  fallback_reason?: string;
}

export interface HelloResult {
  session: string;
  /** Secret: pass it back with `resume` to take this session over after a dropped connection. */
  resume_token: string;
  server: { name: string; version: string };
  protocol: number;
  limits: ServerLimits;
  /** True when `resume` named a live session and this connection now carries it. */
  resumed: boolean;
  /** Why a requested resume did not happen (the session expired, the token did not match). */
  resume_error?: string;
  /** Notifications re-sent after this response because the client had not received them. */
  replayed?: number;
  /** Notifications the client missed that the bounded buffer no longer held. */
  dropped?: number;
  /** The session's subscriptions, restored when resumed. */
  subscriptions: SubscriptionInfo[];
}

export const ByeParams = v.strictObject({});
export type ByeResult = Record<string, never>;

/** The id of one of the session's own requests still running; verbs.run and devices.lease stop where they wait (runs have scenarios.cancel). */
export const RequestsCancelParams = v.strictObject({
  id: v.union([v.pipe(v.string(), v.maxLength(200)), v.number()], 'requests.cancel needs "id": the id (a string or a number) of a request of yours that has not been answered'),
});
/** `cancelled` false: no request of this session with that id is running (answered already, or never sent). */
export interface RequestsCancelResult {
  cancelled: boolean;
}

// ---------------------------------------------------------------------------------------------
// tools.*

export const ToolsListParams = v.strictObject({});
export interface ToolsListResult {
  tools: { name: string; description: string; parameters: Record<string, unknown> }[];
}

export const ToolsCallParams = v.strictObject({
  tool: v.pipe(v.string('tool must be a tool name from tools.list, e.g. mobile_take_screenshot'), v.minLength(1, 'tool must not be empty')),
  // Passed on as sent: v.record would silently drop "__proto__", "constructor" and "prototype"
  // keys, so the tool would run without them instead of refusing them as unknown parameters.
  parameters: v.optional(v.custom<Record<string, unknown>>((x) => typeof x === 'object' && x !== null && !Array.isArray(x), 'parameters must be a JSON object'), {}),
});
/** The tool's own result in the seed's shapes; a tool failure is `{status: "error", code, message}`. */
export type ToolsCallResult = unknown;

// ---------------------------------------------------------------------------------------------
// devices.*

export const DevicesListParams = v.strictObject({});
export interface DevicesListResult {
  devices: DeviceInfo[];
  /** Why devices may be missing: a source (adb server, `--wda` phone, peer bridge) that did not answer. Absent when none. */
  notes?: string[];
  /**
   * Bridges that aggregate peers: their own id and those of every bridge their devices come from
   * (through peers, transitively). An aggregator that finds its own id there is listing itself
   * back through a cycle of --peer flags and leaves that peer out. Absent from bridges without peers.
   */
  bridges?: string[];
}

/** Formats the bridge encodes from screenshots. */
export const SCREEN_DEFAULTS = { maxFps: 30, format: 'jpeg', quality: 75 } as const;
export const MAX_FPS = 60;

export const ScreenOptionsSchema = jsonObject(v.strictObject({
  maxFps: v.optional(int('screen.maxFps', 1, MAX_FPS)),
  /** Frames wider than this are scaled down (aspect kept); default: the device's full width. */
  maxWidth: v.optional(int('screen.maxWidth', 16, 8192)),
  format: v.optional(v.picklist(FRAME_FORMATS, `screen.format must be one of ${FRAME_FORMATS.join(', ')}`)),
  /** 1..100 for jpeg and webp; ignored for png. */
  quality: v.optional(int('screen.quality', 1, 100)),
}), 'screen must be a JSON object of screen options, e.g. {"maxFps": 10, "format": "jpeg"} ({} for the defaults), not an array or null');
export type ScreenOptions = v.InferOutput<typeof ScreenOptionsSchema>;

export const SubscribeParams = v.strictObject({
  device: deviceId,
  /** Ask for screen frames (binary messages); absent: no frames. */
  screen: v.optional(ScreenOptionsSchema),
  /** Ask for `elements.changed` notifications. */
  elements: v.optional(v.boolean('elements must be true or false'), false),
});
export type SubscribeResult = SubscriptionInfo | Failure;

export const UnsubscribeParams = v.strictObject({
  subscription: v.pipe(v.string('subscription must be a subscription id from devices.subscribe'), v.minLength(1)),
});
export type UnsubscribeResult = Record<string, never> | Failure;

export const LockParams = v.strictObject({
  device: deviceId,
  /** Take the lock even when another session holds it (that session is told with `device.lock`). */
  takeover: v.optional(v.boolean('takeover must be true or false'), false),
});
export interface LockInfo {
  device: string;
  holder: Participant;
  since: string;
  /** A scenario run or a lease (see `device.lock`); absent for a plain `devices.lock`. */
  purpose?: LockPurpose;
}
export type LockResult = LockInfo | Failure;

export const UnlockParams = v.strictObject({ device: deviceId });
export type UnlockResult = { device: string; released: boolean } | Failure;

/** What a late joiner needs for pair debugging: the device's last activity entries and who holds it. */
export const ActivityRecentParams = v.strictObject({ device: deviceId });
export interface ActivityRecentResult {
  device: string;
  /** Oldest first, at most 50; an entry merged later keeps its id (see `DeviceActivityParams.count`). */
  entries: DeviceActivityParams[];
  lock: LockInfo | null;
}

// ---------------------------------------------------------------------------------------------
// scenarios.* and verbs.* (verbs.run / scenarios.run / scenarios.cancel are served by the runner)

export const ValidateParams = v.strictObject({
  /** The scenario as text (exact line/column in errors) or as a JSON value (re-serialized with 2-space indent). */
  scenario: v.unknown(),
  /** File name to report in the envelope; also the base for reference screenshots. */
  file: v.optional(v.pipe(v.string(), v.maxLength(1000))),
});
/** The validation envelope of SPEC §4. */
export type ValidateResult = Record<string, unknown>;

export const VerbsRunParams = v.strictObject({
  device: deviceId,
  step: jsonObject(v.record(v.string(), v.unknown(), 'step must be a scenario step object'), 'step must be a scenario step object, e.g. {"action": "tap", "target": "the OK button"}, not an array'),
});
export const ScenariosRunParams = v.strictObject({
  device: deviceId,
  scenario: v.unknown(),
  /** Output folder for the result document, screenshots and reports. */
  out: v.optional(v.pipe(v.string(), v.maxLength(1000))),
  /** Values of the scenario's 2.2 parameters (like run --param); secrets come back as •••. */
  parameters: v.optional(
    jsonObject(
      v.record(v.pipe(v.string(), v.regex(PARAMETER_NAME, 'parameter names are upper case, e.g. USER_EMAIL')), v.pipe(v.string(), v.maxLength(10_000))),
      'parameters must be a JSON object of the scenario\'s parameters, e.g. {"USER_EMAIL": "a@b.c"}, not an array',
    ),
  ),
  /**
   * Parameters without a value (its flows' too) refuse the run before anything is locked, listing
   * them in `missing_parameters` for a form to ask; without it the run ends `error` before its first step.
   */
  refuse_missing_parameters: v.optional(v.boolean()),
});
export const ScenariosCancelParams = v.strictObject({
  run: v.optional(v.pipe(v.string(), v.maxLength(200))),
});

// ---------------------------------------------------------------------------------------------
// elements.describe (the viewer's inspector)

export const ElementsDescribeParams = v.strictObject({
  device: deviceId,
  /** An element id from mobile_list_elements_on_screen or elements.changed. */
  element: v.pipe(v.string('element must be an element id from the element list'), v.minLength(1, 'element must not be empty: pass an element id from the element list'), v.maxLength(1000)),
});
/** The result (shape owned by the engine's describe-element.ts, like UiElement): `{device, element, target, unique, matches, alternative?, step_examples?, message}`. */
export type { ElementDescription } from '../engine/verbs/describe-element.js';
// input.* (issue 17: the viewer's live control)

export const TOUCH_ACTIONS = ['down', 'move', 'up', 'cancel'] as const;
export const TouchParams = v.strictObject({
  device: deviceId,
  /** One finger: down, any number of moves, then up (or cancel, which fires nothing). */
  action: v.picklist(TOUCH_ACTIONS, `action must be one of ${TOUCH_ACTIONS.join(', ')}`),
  /**
   * Device pixels, like mobile_click_on_screen_at_coordinates. A finger dragged past the top or
   * left edge has negative coordinates: moves and ups outside the screen stay on its edge, a down
   * outside it is INVALID_PARAMETER.
   */
  x: int('x', -100_000, 100_000),
  y: int('y', -100_000, 100_000),
});
export interface TouchResult {
  status: 'success';
  /** False: the device cannot follow the finger, the path is replayed as one gesture on up (message says how). */
  streamed: boolean;
  message?: string;
  /** A move merged into a later one because the device was still busy with an earlier move. */
  coalesced?: true;
}

const KEY_NAMES = [...KEYS, ...CTRL_LETTERS] as const;
export const KeyParams = v.strictObject({
  device: deviceId,
  /** A key; the letters only with `modifiers: ["CTRL"]` (the engine refuses them alone). */
  key: v.picklist(KEY_NAMES, `key must be one of ${KEY_NAMES.join(', ')}`),
  /** Held while the key is pressed: CTRL (Ctrl+A selects all in the focused field). */
  modifiers: v.optional(v.pipe(v.array(v.picklist(KEY_MODIFIERS, `modifiers may hold ${KEY_MODIFIERS.join(', ')}`)), v.maxLength(KEY_MODIFIERS.length, 'modifiers names each modifier once'))),
});

// ---------------------------------------------------------------------------------------------
// The method table

export const METHOD_PARAMS = {
  'session.hello': HelloParams,
  'session.bye': ByeParams,
  'requests.cancel': RequestsCancelParams,
  'tools.list': ToolsListParams,
  'tools.call': ToolsCallParams,
  'devices.list': DevicesListParams,
  'devices.subscribe': SubscribeParams,
  'devices.unsubscribe': UnsubscribeParams,
  'devices.lock': LockParams,
  'devices.unlock': UnlockParams,
  'activity.recent': ActivityRecentParams,
  'scenarios.validate': ValidateParams,
  'verbs.run': VerbsRunParams,
  'scenarios.run': ScenariosRunParams,
  'scenarios.cancel': ScenariosCancelParams,
  'elements.describe': ElementsDescribeParams,
  'input.touch': TouchParams,
  'input.key': KeyParams,
} as const;

export interface MethodResults {
  'session.hello': HelloResult;
  'session.bye': ByeResult;
  'requests.cancel': RequestsCancelResult;
  'tools.list': ToolsListResult;
  'tools.call': ToolsCallResult;
  'devices.list': DevicesListResult;
  'devices.subscribe': SubscribeResult;
  'devices.unsubscribe': UnsubscribeResult;
  'devices.lock': LockResult;
  'devices.unlock': UnlockResult;
  'activity.recent': ActivityRecentResult | Failure;
  'scenarios.validate': ValidateResult;
  'verbs.run': unknown;
  'scenarios.run': unknown;
  'scenarios.cancel': unknown;
  'elements.describe': ElementDescription | Failure;
  'input.touch': TouchResult | Failure;
  'input.key': { status: 'success'; message: string } | Failure;
}

export type MethodName = keyof typeof METHOD_PARAMS;
/** What a caller sends (defaults not yet applied). */
export type ParamsOf<M extends MethodName> = v.InferInput<(typeof METHOD_PARAMS)[M]>;
/** What a handler receives after validation (defaults applied). */
export type ValidParamsOf<M extends MethodName> = v.InferOutput<(typeof METHOD_PARAMS)[M]>;
export type ResultOf<M extends MethodName> = MethodResults[M];

/** True for `{status: "error", code, message}` results (tool failures and bridge-level failures alike). */
export { isToolFailure as isFailureResult } from '../engine/errors.js';
