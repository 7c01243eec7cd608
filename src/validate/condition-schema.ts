/** The condition object of steps and (2.2) assertions (SPEC §3, §8). */
import * as v from 'valibot';
import { SnakeId, Text, tagged } from './primitives.js';
import { CONDITION_TYPES, DEFAULTS, DEVICE_PROPERTIES, OPERATORS } from './vocabulary.js';

export const Operator = v.optional(v.picklist(OPERATORS), DEFAULTS.operator);
const Scalar = v.union([v.string(), v.number(), v.boolean()]);

export const ConditionSchema = v.variant(
  'type',
  [
    v.strictObject({
      type: v.literal('device_property'),
      property: v.picklist(DEVICE_PROPERTIES),
      operator: Operator,
      value: Scalar,
    }),
    v.strictObject({
      type: v.literal('previous_step_skipped'),
      step_id: SnakeId,
      value: v.optional(v.boolean(), true),
    }),
    v.strictObject({
      type: v.literal('variable_value'),
      variable_name: v.string(),
      operator: Operator,
      value: Scalar,
    }),
    v.strictObject({
      type: v.literal('element_visible'),
      element_description: Text,
      value: v.optional(v.boolean(), true),
    }),
  ],
  tagged('unknown-condition-type', `condition type must be one of ${CONDITION_TYPES.join(', ')}`),
);

