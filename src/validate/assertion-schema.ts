/** The 27 assertion types of SPEC §3, each with exactly the fields it uses. */
import * as v from 'valibot';
import { ConditionSchema } from './condition-schema.js';
import { SnakeId, Text, tagged } from './primitives.js';
import { ASSERTION_TIMEOUT_MAX_MS, ASSERTION_TYPES, COLOR_HEX, DEFAULTS, ELEMENT_STATES, OPERATORS, THEMES, VISUAL_STATES } from './vocabulary.js';

const element = Text;
const count = v.pipe(v.number(), v.integer(), v.minValue(0));
const visible = v.optional(v.boolean(), true);

function assertion<T extends (typeof ASSERTION_TYPES)[number], E extends v.ObjectEntries>(type: T, entries: E) {
  return v.strictObject({
    id: SnakeId,
    after_step: SnakeId,
    type: v.literal(type),
    description: Text,
    timeout_ms: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(ASSERTION_TIMEOUT_MAX_MS), v.description('2.2: re-check until it passes or this many milliseconds have passed.')),
    ),
    condition: v.optional(v.pipe(ConditionSchema, v.description('2.2: when false, the assertion is skipped.'))),
    ...entries,
  });
}

export const ASSERTION_SCHEMA = v.variant(
  'type',
  [
    assertion('element_exists', { element_description: element }),
    assertion('element_not_exists', { element_description: element }),
    assertion('element_visible', { element_description: element, expected_visible: visible }),
    assertion('element_fully_visible', { element_description: element }),
    assertion('element_state', { element_description: element, state_property: v.picklist(ELEMENT_STATES) }),
    assertion('element_text', { element_description: element, expected_value: v.string() }),
    assertion('text_contains', { expected_substring: Text, element_description: v.optional(element) }),
    assertion('text_not_empty', { element_description: element }),
    assertion('pattern_match', { pattern: Text, element_description: v.optional(element) }),
    assertion('text_changed', { element_description: element }),
    assertion('element_hint', { element_description: element, expected_text: v.string() }),
    assertion('content_description', { element_description: element, label_value: v.string() }),
    assertion('has_accessibility_label', { element_description: element, label_value: v.optional(v.string()) }),
    assertion('element_count', { element_description: element, operator: v.optional(v.picklist(OPERATORS), DEFAULTS.operator), expected_count: count }),
    assertion('list_item_count', { element_description: element, operator: v.optional(v.picklist(OPERATORS), DEFAULTS.operator), expected_count: count }),
    assertion('list_is_empty', { element_description: element }),
    assertion('value_matches_variable', { element_description: element, variable_name: v.string(), pattern: v.optional(Text) }),
    assertion('screenshot_match', {
      reference_screenshot: v.pipe(Text, v.description('PNG path relative to the scenario file; recorded on the first run when missing.')),
      tolerance: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(1)), DEFAULTS.tolerance),
    }),
    assertion('visual_state', { expected_visual_state: v.picklist(VISUAL_STATES) }),
    assertion('color_style', {
      element_description: element,
      color_hex: v.pipe(v.string(), v.regex(COLOR_HEX, tagged('color-hex', 'must be #RGB or #RRGGBB; write it like "#1a73e8"'))),
    }),
    assertion('screen_title', { expected_text: v.string() }),
    assertion('alert_present', {}),
    assertion('alert_text', { expected_text: Text }),
    assertion('toast_visible', { expected_text: Text }),
    assertion('keyboard_visible', { expected_visible: visible }),
    assertion('permission_dialog_shown', { permission_name: v.optional(Text) }),
    assertion('dark_mode_active', { expected_theme: v.picklist(THEMES) }),
  ],
  tagged('unknown-assertion-type', 'is not an assertion type'),
);

export type Assertion = v.InferOutput<typeof ASSERTION_SCHEMA>;
export type AssertionType = Assertion['type'];

