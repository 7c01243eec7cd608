/**
 * The engine tools as clients list them: name, description and the JSON Schema of the
 * parameters. The schemas never change while the process runs, so they are built once, on first
 * use, and frozen so that no caller can alter what the next caller receives.
 */
import { toJsonSchema } from '@valibot/to-json-schema';
import { TOOLS } from './index.js';

export interface ToolDescription {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

let described: readonly ToolDescription[] | undefined;

export function toolDescriptions(): readonly ToolDescription[] {
  described ??= deepFreeze(
    TOOLS.map((t) => ({
      name: t.name,
      description: t.description,
      parameters: toJsonSchema(t.params, { errorMode: 'ignore' }) as Record<string, unknown>,
    })),
  );
  return described;
}
