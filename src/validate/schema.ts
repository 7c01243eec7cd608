/**
 * The scenario document (schema 2.0 / 2.1 / 2.2) as valibot schemas. Fields a version does not
 * know are accepted here and reported by the semantic pass (`requires-2.2`, `mode-requires-2.1`),
 * which can say which version to use. The JSON Schema printed by
 * `mobilebridge schema scenario` and the TypeScript types the runner uses are both derived from
 * these definitions so that they cannot drift apart.
 */
import * as v from 'valibot';
import { ASSERTION_SCHEMA } from './assertion-schema.js';
import { ConditionSchema } from './condition-schema.js';

export { ConditionSchema, Operator } from './condition-schema.js';
import { SnakeId, Text, tagged } from './primitives.js';
import {
  ACTIONS,
  APP_STATES,
  DEFAULTS,
  DEVICE_ACTIONS,
  INDICATORS,
  LOCATION_STATES,
  MODES,
  NETWORK_STATES,
  ON_FAILURE,
  ORIENTATIONS,
  PARAMETER_NAME,
  PLATFORMS,
  SCHEMA_VERSIONS,
  TAG,
  VARIABLE_NAME,
  VARIABLE_TYPES,
  WAIT_TYPES,
} from './vocabulary.js';


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

const StepBase = v.strictObject({
  id: SnakeId,
  action: v.picklist(ACTIONS, tagged('unknown-action', 'is not an action')),
  description: Text,
  target: v.optional(v.pipe(Text, v.description('Semantic description of the element as a user sees it, never a locator.'))),
  // Not empty: the empty regex matches every element, so the step would act on whichever came first.
  target_pattern: v.optional(v.pipe(Text, v.description('Regular expression over element text, for dynamic labels.'))),
  value: v.optional(v.pipe(v.string(), v.description('Text, direction, button name or URL, depending on the action; for launch_app a package to launch instead of app_package.'))),
  clear_first: v.optional(v.pipe(v.boolean(), v.description('2.2, type only: empty the field before typing.'))),
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

const ParameterKey = v.pipe(
  v.string(),
  v.regex(PARAMETER_NAME, tagged('parameter-name-format', 'is not a valid parameter name; use upper-case letters, digits and _, starting with a letter (e.g. USER_EMAIL)')),
);

/** 2.2: `{id, flow, parameters?}` runs another scenario's steps in place of an action. */
export const FlowStepSchema = v.strictObject({
  id: SnakeId,
  flow: v.pipe(Text, v.description('2.2: path of another scenario, relative to this file and inside its folder.')),
  parameters: v.optional(v.pipe(v.record(ParameterKey, v.string()), v.description('Values for the flow\'s parameters; may reference ${NAME} of this scenario.'))),
  description: v.optional(Text),
  condition: v.optional(ConditionSchema),
});
export type FlowStep = v.InferOutput<typeof FlowStepSchema>;

export type Step = v.InferOutput<typeof StepBase> & { sub_steps?: AnyStep[] };
export type StepInput = v.InferInput<typeof StepBase> & { sub_steps?: AnyStepInput[] };
/** What a `steps` or `sub_steps` list holds. */
export type AnyStep = Step | FlowStep;
export type AnyStepInput = StepInput | v.InferInput<typeof FlowStepSchema>;

export const isFlowStep = (step: AnyStep): step is FlowStep => 'flow' in step && !('action' in step);

/** A step object carrying `flow` is a flow step (then `action` is the unknown property), else an action step. */
const pickStep = (input: unknown): v.GenericSchema<AnyStepInput, AnyStep> =>
  typeof input === 'object' && input !== null && 'flow' in input ? FlowStepSchema : StepSchema;

const stepsList = () => v.pipe(v.array(v.lazy(pickStep)), v.minLength(1, tagged('steps-empty', 'is empty; add at least one step')));

export const StepSchema: v.GenericSchema<StepInput, Step> = v.strictObject({
  ...StepBase.entries,
  sub_steps: v.optional(stepsList()),
});

export const ParameterSchema = v.strictObject({
  description: v.optional(v.string()),
  default: v.optional(v.pipe(v.string(), v.description('Used when no --param, --params-file or MB_PARAM_<NAME> gives a value.'))),
  secret: v.optional(v.pipe(v.boolean(), v.description('Masked as ••• in every output.'))),
});
export const ParametersSchema = v.record(ParameterKey, ParameterSchema);

export const VariableSchema = v.strictObject({ type: v.picklist(VARIABLE_TYPES), description: v.string() });
export const VariablesSchema = v.record(
  v.pipe(v.string(), v.regex(VARIABLE_NAME, tagged('variable-name-format', 'is not a valid variable name; use letters, digits and _, not starting with a digit'))),
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
      v.regex(TAG, tagged('tag-format', 'is not a tag; use lowercase letters, digits and -, starting with a letter or digit')),
      v.maxLength(20, tagged('tag-format', 'is longer than 20 characters; shorten it')),
    ),
  ),
  v.maxLength(10, tagged('tags-too-many', 'has more than 10 entries; keep at most 10 tags')),
);

export const ScenarioSchema = v.strictObject({
  $schema_version: v.picklist(SCHEMA_VERSIONS, tagged('schema-version', 'must be "2.0", "2.1" or "2.2"')),
  scenario_id: SnakeId,
  name: Text,
  description: Text,
  platform: v.picklist(PLATFORMS, tagged('platform-invalid', 'must be android, ios or cross-platform')),
  app_package: v.pipe(Text, v.description('Android package name or iOS bundle identifier.')),
  metadata: MetadataSchema,
  tags: v.optional(TagsSchema),
  variables: v.optional(VariablesSchema),
  parameters: v.optional(v.pipe(ParametersSchema, v.description('2.2: values given at run time, referenced as ${NAME}.'))),
  preconditions: v.optional(PreconditionsSchema),
  steps: stepsList(),
  assertions: v.array(ASSERTION_SCHEMA),
  mode: v.optional(v.pipe(v.picklist(MODES), v.description('2.1 and later; default platform-aware.'))),
});

export type Scenario = v.InferOutput<typeof ScenarioSchema>;
export type ScenarioInput = v.InferInput<typeof ScenarioSchema>;
export type Metadata = v.InferOutput<typeof MetadataSchema>;
export type Condition = v.InferOutput<typeof ConditionSchema>;
export type WaitConfig = v.InferOutput<typeof WaitConfigSchema>;
export type RetryPolicy = v.InferOutput<typeof RetryPolicySchema>;
export type Variables = v.InferOutput<typeof VariablesSchema>;
export type Parameters = v.InferOutput<typeof ParametersSchema>;
export type ParameterDeclaration = v.InferOutput<typeof ParameterSchema>;
export type VariableDeclaration = v.InferOutput<typeof VariableSchema>;
export type Preconditions = v.InferOutput<typeof PreconditionsSchema>;
export type DeviceAction = v.InferOutput<typeof DeviceActionSchema>;
export type Action = (typeof ACTIONS)[number];
