/**
 * The result document of SPEC §5, written by `run` after every step. The runner validates what it
 * writes with `validateResultValue`, and `mobilebridge schema result` prints it as JSON Schema.
 */
import * as v from 'valibot';
import { escapePointer } from './json.js';

const nullable = <T extends v.GenericSchema>(s: T) => v.optional(v.nullable(s));
const Count = v.pipe(v.number(), v.integer(), v.minValue(0));

export const RUN_STATUSES = ['running', 'passed', 'failed', 'error', 'cancelled'] as const;
export const STEP_STATUSES = ['passed', 'failed', 'skipped', 'error', 'needs_manual'] as const;
/** `skipped`: its step did not run (skipped, optional and failed, or not reached), or its 2.2 condition was false; SPEC §8. */
export const ASSERTION_STATUSES = ['passed', 'failed', 'error', 'skipped'] as const;
export const OBSERVATION_TYPES = ['flakiness', 'regression', 'state_context'] as const;

export const RunMetadataSchema = v.strictObject({
  app_version: nullable(v.string()),
  environment: nullable(v.string()),
  platform: v.string(),
  device_id: v.string(),
  device_model: nullable(v.string()),
  os_version: nullable(v.string()),
  api_level: nullable(v.number()),
  timestamp: v.pipe(v.string(), v.isoTimestamp(), v.description('ISO-8601 time the run started.')),
  tool_version: v.string(),
});

export const ResolvedTargetSchema = v.strictObject({
  id: v.string(),
  text: nullable(v.string()),
  center: v.strictObject({ x: v.number(), y: v.number() }),
});

const stepResultBase = v.strictObject({
  step_id: v.string(),
  action: v.string(),
  status: v.picklist(STEP_STATUSES),
  resolved_target: nullable(ResolvedTargetSchema),
  screenshot: nullable(v.pipe(v.string(), v.description('Path relative to the output folder.'))),
  error_code: nullable(v.string()),
  error_message: nullable(v.string()),
  retried: v.optional(v.boolean(), false),
  retry_count: v.optional(Count, 0),
  step_duration_ms: v.optional(Count, 0),
  condition_evaluated: nullable(v.boolean()),
});

export type StepResult = v.InferOutput<typeof stepResultBase> & { sub_steps_executed?: StepResult[] };
type StepResultInput = v.InferInput<typeof stepResultBase> & { sub_steps_executed?: StepResultInput[] };

export const StepResultSchema: v.GenericSchema<StepResultInput, StepResult> = v.strictObject({
  ...stepResultBase.entries,
  sub_steps_executed: v.optional(v.array(v.lazy(() => StepResultSchema))),
});

export const AssertionResultSchema = v.strictObject({
  assertion_id: v.string(),
  type: v.string(),
  status: v.picklist(ASSERTION_STATUSES),
  expected: v.optional(v.unknown()),
  actual: v.optional(v.unknown()),
  message: v.string(),
  screenshot: nullable(v.string()),
});

export const ObservationSchema = v.strictObject({
  type: v.picklist(OBSERVATION_TYPES),
  step_id: nullable(v.string()),
  message: v.string(),
});

export const ResultDocumentSchema = v.strictObject({
  run_id: v.pipe(v.string(), v.regex(/^run_\d{8}_\d{6}(?:_[A-Za-z0-9-]+)?$/, 'run_id must look like run_YYYYMMDD_HHMMSS[_suffix]')),
  schema_version: v.string(),
  scenario_id: v.string(),
  status: v.picklist(RUN_STATUSES),
  metadata: RunMetadataSchema,
  started_at: v.pipe(v.string(), v.isoTimestamp()),
  ended_at: nullable(v.pipe(v.string(), v.isoTimestamp())),
  duration_seconds: nullable(v.pipe(v.number(), v.minValue(0))),
  total_assertions: Count,
  passed_assertions: Count,
  failed_assertions: v.pipe(Count, v.description('Assertions failed or in error; skipped ones are not failures.')),
  skipped_assertions: v.optional(v.pipe(Count, v.description('Assertions whose step did not run (SPEC §8).')), 0),
  captured_variables: v.record(v.string(), v.union([v.string(), v.number(), v.boolean(), v.null()])),
  steps_executed: v.array(StepResultSchema),
  assertion_results: v.array(AssertionResultSchema),
  observations: v.array(ObservationSchema),
  summary: v.string(),
});

export type ResultDocument = v.InferOutput<typeof ResultDocumentSchema>;
export type RunMetadata = v.InferOutput<typeof RunMetadataSchema>;
export type AssertionResult = v.InferOutput<typeof AssertionResultSchema>;
export type Observation = v.InferOutput<typeof ObservationSchema>;
export type RunStatus = (typeof RUN_STATUSES)[number];
export type StepStatus = (typeof STEP_STATUSES)[number];

/** Problems in a result document, as JSON Pointers with valibot's messages. Empty when valid. */
export function validateResultValue(value: unknown): { path: string; message: string }[] {
  const res = v.safeParse(ResultDocumentSchema, value, { abortEarly: false });
  if (res.success) return [];
  return res.issues.map((i) => ({ path: (i.path ?? []).map((p) => `/${escapePointer(String(p.key))}`).join(''), message: i.message }));
}
