/**
 * The scenario document (schema 2.0 / 2.1) as valibot schemas. The JSON Schema printed by
 * `mobilebridge schema scenario` and the TypeScript types the runner uses are both derived from
 * these definitions so that they cannot drift apart.
 */
import * as v from 'valibot';
import { ASSERTION_SCHEMA } from './assertion-schema.js';
import { SnakeId, Text, tagged } from './primitives.js';
import {
  ACTIONS,
  APP_STATES,
  CONDITION_TYPES,
  DEFAULTS,
  DEVICE_ACTIONS,
  DEVICE_PROPERTIES,
  INDICATORS,
  LOCATION_STATES,
  MODES,
  NETWORK_STATES,
  ON_FAILURE,
  OPERATORS,
  ORIENTATIONS,
  PLATFORMS,
  SCHEMA_VERSIONS,
  TAG,
  VARIABLE_NAME,
  VARIABLE_TYPES,
  WAIT_TYPES,
} from './vocabulary.js';

export const Operator = v.optional(v.picklist(OPERATORS), DEFAULTS.operator);
const Scalar = v.union([v.string(), v.number(), v.boolean()]);

export const RetryPolicySchema = v.strictObject({
  max_attempts: v.optional(
    v.pipe(v.number(), v.integer(), v.minValue(2), v.maxValue(5), v.description('All attempts, the first included (2 to 5).')),
    DEFAULTS.retry.max_attempts,
  ),
  backoff_ms: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.description('Milliseconds between attempts.')), DEFAULTS.retry.backoff_ms),
});

export const WaitConfigSchema = v.strictObject({
  type: v.picklist(WAIT_TYPES),
  timeout_ms: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1000), v.maxValue(60000)), DEFAULTS.wait_timeout_ms),
  indicator: v.optional(v.pipe(v.picklist(INDICATORS), v.description('Only for loading_complete; default any.'))),
});

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

const StepBase = v.strictObject({
  id: SnakeId,
  action: v.picklist(ACTIONS, tagged('unknown-action', 'is not an action')),
  description: Text,
  target: v.optional(v.pipe(Text, v.description('Semantic description of the element as a user sees it, never a locator.'))),
  target_pattern: v.optional(v.pipe(v.string(), v.description('Regular expression over element text, for dynamic labels.'))),
  value: v.optional(v.pipe(v.string(), v.description('Text, direction, button name or URL, depending on the action.'))),
  optional: v.optional(v.boolean(), false),
  on_failure: v.optional(v.picklist(ON_FAILURE), 'fail'),
  retry_policy: v.optional(RetryPolicySchema),
  condition: v.optional(ConditionSchema),
  wait_config: v.optional(WaitConfigSchema),
  capture_to: v.optional(v.pipe(v.string(), v.description('Declared variable that capture_value fills.'))),
  checkpoint: v.optional(v.pipe(v.boolean(), v.description('Keep a screenshot after this step.')), false),
  expected_state: v.optional(v.string()),
  permission_name: v.optional(v.pipe(Text, v.description('For grant_permission / deny_permission, e.g. camera, location.'))),
});

export type Step = v.InferOutput<typeof StepBase> & { sub_steps?: Step[] };
export type StepInput = v.InferInput<typeof StepBase> & { sub_steps?: StepInput[] };

const stepsList = <T extends v.GenericSchema<StepInput, Step>>(item: () => T) =>
  v.pipe(v.array(v.lazy(item)), v.minLength(1, tagged('steps-empty', 'is empty; add at least one step')));

export const StepSchema: v.GenericSchema<StepInput, Step> = v.strictObject({
  ...StepBase.entries,
  sub_steps: v.optional(stepsList(() => StepSchema)),
});

export const VariableSchema = v.strictObject({ type: v.picklist(VARIABLE_TYPES), description: v.string() });
export const VariablesSchema = v.record(
  v.pipe(v.string(), v.regex(VARIABLE_NAME, tagged('variable-name-format', 'is not a valid variable name: use letters, digits and _, not starting with a digit'))),
  VariableSchema,
);

export const DeviceActionSchema = v.strictObject({
  action: v.picklist(DEVICE_ACTIONS),
  target_package: v.optional(v.string()),
  value: v.optional(v.string()),
  description: v.optional(v.string()),
});

export const PreconditionsSchema = v.strictObject({
  app_state: v.optional(v.picklist(APP_STATES)),
  device_actions: v.optional(v.array(DeviceActionSchema)),
  device_properties: v.optional(
    v.strictObject({
      network: v.picklist(NETWORK_STATES),
      location_services: v.picklist(LOCATION_STATES),
      orientation: v.picklist(ORIENTATIONS),
    }),
  ),
  notes: v.optional(v.array(v.string())),
});

export const MetadataSchema = v.strictObject({
  app_version: Text,
  environment: v.pipe(Text, v.description('production, staging, development, ...')),
  target_version: v.optional(v.string()),
});

export const TagsSchema = v.pipe(
  v.array(
    v.pipe(
      v.string(),
      v.regex(TAG, tagged('tag-format', 'must be lowercase letters, digits and -, starting with a letter or digit')),
      v.maxLength(20, tagged('tag-format', 'is longer than 20 characters; shorten it')),
    ),
  ),
  v.maxLength(10, tagged('tags-too-many', 'has more than 10 entries; keep at most 10 tags')),
);

export const ScenarioSchema = v.strictObject({
  $schema_version: v.picklist(SCHEMA_VERSIONS, tagged('schema-version', 'must be "2.0" or "2.1"')),
  scenario_id: SnakeId,
  name: Text,
  description: Text,
  platform: v.picklist(PLATFORMS, tagged('platform-invalid', 'must be android, ios or cross-platform')),
  app_package: v.pipe(Text, v.description('Android package name or iOS bundle identifier.')),
  metadata: MetadataSchema,
  tags: v.optional(TagsSchema),
  variables: v.optional(VariablesSchema),
  preconditions: v.optional(PreconditionsSchema),
  steps: stepsList(() => StepSchema),
  assertions: v.array(ASSERTION_SCHEMA),
  mode: v.optional(v.pipe(v.picklist(MODES), v.description('2.1 only; default platform-aware.'))),
});

export type Scenario = v.InferOutput<typeof ScenarioSchema>;
export type ScenarioInput = v.InferInput<typeof ScenarioSchema>;
export type Metadata = v.InferOutput<typeof MetadataSchema>;
export type Condition = v.InferOutput<typeof ConditionSchema>;
export type WaitConfig = v.InferOutput<typeof WaitConfigSchema>;
export type RetryPolicy = v.InferOutput<typeof RetryPolicySchema>;
export type Variables = v.InferOutput<typeof VariablesSchema>;
export type VariableDeclaration = v.InferOutput<typeof VariableSchema>;
export type Preconditions = v.InferOutput<typeof PreconditionsSchema>;
export type DeviceAction = v.InferOutput<typeof DeviceActionSchema>;
export type Action = (typeof ACTIONS)[number];
