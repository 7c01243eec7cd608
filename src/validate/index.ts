/**
 * Public entry point of the scenario validator. The bridge (`POST /api/validate`,
 * `scenarios.validate`), the CLI and the runner import from here only.
 */
export { validateScenarioText, validateScenarioValue, loadScenario, singleIssueReport, undecodableReport } from './validate.js';
export type { ValidationReport, ValidateOptions, LoadedScenario } from './validate.js';
export { envelope, usageEnvelope } from './envelope.js';
export { wordIssues } from './structure.js';
export type { Envelope, MultiReport } from './envelope.js';
export { RULES, severityOf } from './rules.js';
export type { RuleId, Severity, ValidationIssue } from './rules.js';
export { scenarioJsonSchema, resultJsonSchema } from './json-schema.js';
export {
  ScenarioSchema,
  StepSchema,
  FlowStepSchema,
  ParametersSchema,
  isFlowStep,
  ConditionSchema,
  WaitConfigSchema,
  RetryPolicySchema,
  VariablesSchema,
  PreconditionsSchema,
  MetadataSchema,
} from './schema.js';
export type {
  Scenario,
  ScenarioInput,
  Step,
  StepInput,
  AnyStep,
  FlowStep,
  Parameters,
  ParameterDeclaration,
  Action,
  Condition,
  WaitConfig,
  RetryPolicy,
  Variables,
  VariableDeclaration,
  Preconditions,
  DeviceAction,
  Metadata,
} from './schema.js';
export { ASSERTION_SCHEMA as AssertionSchema } from './assertion-schema.js';
export type { Assertion, AssertionType } from './assertion-schema.js';
export {
  ResultDocumentSchema,
  StepResultSchema,
  validateResultValue,
  RUN_STATUSES,
  STEP_STATUSES,
  ASSERTION_STATUSES,
  OBSERVATION_TYPES,
} from './result-schema.js';
export type { ResultDocument, StepResult, AssertionResult, Observation, RunMetadata, RunStatus, StepStatus } from './result-schema.js';
export * from './vocabulary.js';
export { locatorKind, isAndroidPackage, isIosBundleId } from './targets.js';
