/**
 * Stand-ins for mobile-automator's validator (JSON.parse, then Ajv against its JSON Schema) for
 * when its package is not at hand (mauto-side.ts loads the real one): our exported JSON Schema
 * compiled once with Ajv, `allErrors: true` as mauto does, as exported and flattened (see below).
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { scenarioJsonSchema } from '../../src/validate/index.js';

/** Text in, number of problems out (so that the work cannot be skipped). */
export type Validator = (text: string) => number;

type Json = Record<string, unknown>;

/**
 * The schema with each per-type `oneOf` (27 assertion types, 4 condition types) merged into one
 * object: `type` one of the tags, every field of any type allowed, only the common fields required.
 * That is the seed's shape ("type is one of the 27 supported types"), and Ajv with allErrors must
 * try every option of a oneOf, so this is the faster, harder stand-in.
 */
function flattened(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(flattened);
  if (typeof node !== 'object' || node === null) return node;
  const obj = node as Json;
  const options = obj.oneOf as Json[] | undefined;
  const tagged = options?.every((o) => (o.properties as Json | undefined)?.type && 'const' in ((o.properties as Json).type as Json));
  if (options && tagged) {
    const properties: Json = {};
    for (const o of options) for (const [k, v] of Object.entries(o.properties as Json)) properties[k] ??= flattened(v);
    properties.type = { type: 'string', enum: options.map((o) => ((o.properties as Json).type as Json).const) };
    const required = (options[0].required as string[]).filter((k) => options.every((o) => (o.required as string[]).includes(k)));
    return { type: 'object', properties, required, additionalProperties: false, patternProperties: { '^x-': {} } };
  }
  return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, flattened(v)]));
}

// strict: false because the exported schema carries annotations Ajv's strict mode does not know.
const ajv = new Ajv2020({ allErrors: true, strict: false });
const exported = scenarioJsonSchema();
const compiledExported = ajv.compile(exported);
const compiledFlat = ajv.compile({ ...(flattened(exported) as Json), $id: (exported.$id as string).replace(/\.json$/, '-flat.json') });

const standIn =
  (validate: typeof compiledFlat): Validator =>
  (text) => {
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch {
      return 1;
    }
    return validate(doc) ? 0 : (validate.errors?.length ?? 1);
  };

export const ajvExported = standIn(compiledExported);
export const ajvFlat = standIn(compiledFlat);
