/** JSON Schema (draft 2020-12) generated from the valibot definitions, for editors and other tools. */
import { toJsonSchema } from '@valibot/to-json-schema';
import { ResultDocumentSchema, StepResultSchema } from './result-schema.js';
import { FlowStepSchema, ScenarioSchema, StepSchema } from './schema.js';

type Json = Record<string, unknown>;

/** Scenario objects accept `x-` extension keys; valibot's strict objects have no such notion. */
function allowExtensions(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(allowExtensions);
  if (typeof node !== 'object' || node === null) return;
  const obj = node as Json;
  if (obj.type === 'object' && obj.additionalProperties === false && obj.properties) obj.patternProperties = { '^x-': {} };
  for (const value of Object.values(obj)) allowExtensions(value);
}

/**
 * A steps list holds action steps and (2.2) flow steps; valibot picks one by looking at the value,
 * which JSON Schema says with anyOf over the two definitions.
 */
function stepEitherKind(schema: Json): void {
  const defs = schema.$defs as Record<string, Json>;
  defs.ActionStep = defs.Step;
  defs.Step = { anyOf: [{ $ref: '#/$defs/ActionStep' }, { $ref: '#/$defs/FlowStep' }] };
}

export function scenarioJsonSchema(): Json {
  const schema = toJsonSchema(ScenarioSchema, { target: 'draft-2020-12', definitions: { Step: StepSchema, FlowStep: FlowStepSchema }, errorMode: 'ignore' }) as Json;
  stepEitherKind(schema);
  allowExtensions(schema);
  return {
    $schema: schema.$schema,
    $id: 'https://mobilebridge.dev/schema/scenario-2.2.json',
    title: 'mobilebridge scenario (schema 2.0 / 2.1 / 2.2)',
    ...schema,
  };
}

export function resultJsonSchema(): Json {
  const schema = toJsonSchema(ResultDocumentSchema, { target: 'draft-2020-12', definitions: { StepResult: StepResultSchema }, errorMode: 'ignore' }) as Json;
  return { $schema: schema.$schema, $id: 'https://mobilebridge.dev/schema/result.json', title: 'mobilebridge run result', ...schema };
}
