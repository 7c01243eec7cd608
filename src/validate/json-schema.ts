/** JSON Schema (draft 2020-12) generated from the valibot definitions, for editors and other tools. */
import { toJsonSchema } from '@valibot/to-json-schema';
import { ResultDocumentSchema, StepResultSchema } from './result-schema.js';
import { ScenarioSchema, StepSchema } from './schema.js';

type Json = Record<string, unknown>;

/** Scenario objects accept `x-` extension keys; valibot's strict objects have no such notion. */
function allowExtensions(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(allowExtensions);
  if (typeof node !== 'object' || node === null) return;
  const obj = node as Json;
  if (obj.type === 'object' && obj.additionalProperties === false && obj.properties) obj.patternProperties = { '^x-': {} };
  for (const value of Object.values(obj)) allowExtensions(value);
}

export function scenarioJsonSchema(): Json {
  const schema = toJsonSchema(ScenarioSchema, { target: 'draft-2020-12', definitions: { Step: StepSchema }, errorMode: 'ignore' }) as Json;
  allowExtensions(schema);
  return {
    $schema: schema.$schema,
    $id: 'https://mobilebridge.dev/schema/scenario-2.1.json',
    title: 'mobilebridge scenario (schema 2.0 / 2.1)',
    ...schema,
  };
}

export function resultJsonSchema(): Json {
  const schema = toJsonSchema(ResultDocumentSchema, { target: 'draft-2020-12', definitions: { StepResult: StepResultSchema }, errorMode: 'ignore' }) as Json;
  return { $schema: schema.$schema, $id: 'https://mobilebridge.dev/schema/result.json', title: 'mobilebridge run result', ...schema };
}
