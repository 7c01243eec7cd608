/** The closed word lists of the scenario schema (seed §2.5–2.12, §4.3; SPEC §3). */

export const SCHEMA_VERSIONS = ['2.0', '2.1', '2.2'] as const;
export const CURRENT_SCHEMA_VERSION = '2.2';
/** Versions that know `mode` (SPEC §3) and the authoring extensions of 2.2 (SPEC §8). */
export const MODE_VERSIONS: ReadonlySet<string> = new Set(['2.1', '2.2']);
export const V22_VERSIONS: ReadonlySet<string> = new Set(['2.2']);
export const PLATFORMS = ['android', 'ios', 'cross-platform'] as const;
export const MODES = ['platform-aware', 'platform-agnostic'] as const;

export const CORE_ACTIONS = [
  'launch_app',
  'tap',
  'long_press',
  'double_tap',
  'type',
  'swipe',
  'scroll_to_element',
  'press_button',
  'open_url',
  'wait_for_element',
  'wait_for_element_gone',
  'wait_for_loading_complete',
  'capture_value',
  'clear_app_data',
] as const;
/** Allowed only with `mode: platform-agnostic`; each resolves to per-platform mechanics at replay. */
export const SEMANTIC_ACTIONS = ['press_back', 'dismiss_keyboard', 'grant_permission', 'deny_permission'] as const;
export const ACTIONS = [...CORE_ACTIONS, ...SEMANTIC_ACTIONS] as const;

export const TARGET_ACTIONS: ReadonlySet<string> = new Set([
  'tap',
  'long_press',
  'double_tap',
  'scroll_to_element',
  'wait_for_element',
  'wait_for_element_gone',
  'capture_value',
]);
export const VALUE_ACTIONS: ReadonlySet<string> = new Set(['type', 'open_url', 'swipe', 'press_button']);
export const WAIT_TYPE_OF_ACTION: Readonly<Record<string, string>> = {
  wait_for_element: 'element_visible',
  wait_for_element_gone: 'element_gone',
  wait_for_loading_complete: 'loading_complete',
};
export const PERMISSION_ACTIONS: ReadonlySet<string> = new Set(['grant_permission', 'deny_permission']);

export const SWIPE_DIRECTIONS = ['up', 'down', 'left', 'right'] as const;
export const SCENARIO_BUTTONS = ['BACK', 'HOME', 'ENTER'] as const;
export const ON_FAILURE = ['fail', 'skip', 'retry'] as const;
export const WAIT_TYPES = ['element_visible', 'element_gone', 'loading_complete'] as const;
export const INDICATORS = ['shimmer', 'spinner', 'progress_bar', 'skeleton', 'any'] as const;
export const VARIABLE_TYPES = ['string', 'integer', 'number', 'boolean'] as const;
export const APP_STATES = ['fresh_install', 'logged_in', 'logged_out', 'any'] as const;
export const DEVICE_ACTIONS = ['clear_app_data', 'uninstall_app', 'install_app', 'enable_wifi', 'disable_wifi', 'set_orientation'] as const;
export const NETWORK_STATES = ['connected', 'wifi', 'cellular', 'disconnected'] as const;
export const LOCATION_STATES = ['enabled', 'disabled'] as const;
export const ORIENTATIONS = ['portrait', 'landscape'] as const;
export const OPERATORS = ['==', '!=', '>=', '<=', '>', '<'] as const;
export const ORDERING_OPERATORS: ReadonlySet<string> = new Set(['>=', '<=', '>', '<']);

export const CONDITION_TYPES = ['device_property', 'previous_step_skipped', 'variable_value', 'element_visible'] as const;
export const DEVICE_PROPERTIES = [
  'platform',
  'os_version',
  'api_level',
  'orientation',
  'model',
  'screen_width',
  'screen_height',
  'network',
  'dark_mode',
] as const;

export const ASSERTION_TYPES = [
  'element_exists',
  'element_not_exists',
  'element_visible',
  'element_fully_visible',
  'element_state',
  'element_text',
  'text_contains',
  'text_not_empty',
  'pattern_match',
  'text_changed',
  'element_hint',
  'content_description',
  'has_accessibility_label',
  'element_count',
  'list_item_count',
  'list_is_empty',
  'value_matches_variable',
  'screenshot_match',
  'visual_state',
  'color_style',
  'screen_title',
  'alert_present',
  'alert_text',
  'toast_visible',
  'keyboard_visible',
  'permission_dialog_shown',
  'dark_mode_active',
] as const;
export const ELEMENT_STATES = ['enabled', 'disabled', 'selected', 'not_selected', 'focused', 'clickable'] as const;
export const VISUAL_STATES = ['loaded', 'loading', 'empty', 'error'] as const;
export const THEMES = ['dark', 'light'] as const;

/** Defaults the runner applies; exported so runner and docs agree with the validator. */
export const DEFAULTS = {
  retry: { max_attempts: 3, backoff_ms: 1000 },
  wait_timeout_ms: 10000,
  indicator: 'any',
  tolerance: 0.9,
  operator: '==',
  mode: 'platform-aware',
} as const;

/**
 * The text fields of a step or assertion the runner does NOT fill `${name}` into; every other string
 * is filled in (the validator checks the references of the schema's texts among them: context.ts
 * STEP_TEXTS, ASSERTION_TEXTS). `x-` extension keys are never filled in. Conditions have their own list.
 */
export const UNFILLED_FIELDS: readonly string[] = ['sub_steps', 'id', 'after_step', 'action', 'type'];
export const UNFILLED_CONDITION_FIELDS: readonly string[] = ['type', 'property', 'step_id', 'variable_name', 'operator'];
/** Names a variable or parameter may not have: valibot's records skip them, and on a plain object they name built-in properties. */
export const RESERVED_NAMES: ReadonlySet<string> = new Set(['__proto__', 'prototype', 'constructor']);

export const SNAKE_CASE = /^[a-z][a-z0-9_]*$/;
export const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
export const PARAMETER_NAME = /^[A-Z][A-Z0-9_]*$/;
/** A waiting assertion's `timeout_ms` bound (SPEC §8). */
export const ASSERTION_TIMEOUT_MAX_MS = 60000;
export const TAG = /^[a-z0-9][a-z0-9-]*$/;
export const COLOR_HEX = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

/**
 * `value` as `allowed` spells it when it differs only in case ("UP" → up, "home" → HOME), else
 * `value` itself. Agents and viewers do not keep to the case; everything downstream compares exactly.
 */
export function vocabularySpelling<T>(value: T, allowed: readonly unknown[]): T {
  if (typeof value !== 'string' || allowed.includes(value)) return value;
  return (allowed.find((a) => typeof a === 'string' && a.toLowerCase() === value.toLowerCase()) as T | undefined) ?? value;
}

/** Orders dotted versions numerically ("17.5" < "17.10"; a missing part counts as 0): < 0, 0 or > 0. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d) return d;
  }
  return 0;
}
