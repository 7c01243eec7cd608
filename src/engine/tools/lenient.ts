import type * as v from 'valibot';
import { vocabularySpelling } from '../../validate/vocabulary.js';
import { scalarFromText } from './scalar-text.js';

/**
 * Tool parameters as the caller meant them, before they are checked. Models often send null for
 * an optional parameter they do not give (clients that make every parameter nullable teach them
 * to), write a listed value in another case ("UP", "Home"), and send numbers and booleans as text
 * ("3000", "true"; scalar-text.ts). The MCP verbs take all three (mcp/arguments.ts); the raw tools
 * take them the same way on every transport (CLI, bridge, MCP), so one argument list works
 * everywhere. A required parameter given as null stays null, and the check refuses it by name. The
 * listed JSON Schemas keep the canonical values, plain types and no null: they describe what a
 * careful caller sends, and null unions break some model providers' schema readers.
 */

type Entry = v.GenericSchema & { type: string; wrapped?: Entry; options?: readonly unknown[] };

/** An optional parameter's own schema: what it holds when given. */
function unwrapped(entry: Entry): Entry {
  return entry.type === 'optional' && entry.wrapped ? entry.wrapped : entry;
}

/**
 * `given` with optional parameters given as null left out, enum values in their canonical
 * spelling, and numbers and booleans written as text as the values they spell. Range and integer
 * checks then judge the number itself. Keys the tool does not take are kept, so that the check still names them.
 */
export function asMeant(schema: v.GenericSchema, given: Record<string, unknown>): Record<string, unknown> {
  const entries = (schema as { entries?: Record<string, Entry> }).entries;
  if (!entries) return given;
  const entryOf = (key: string): Entry | undefined => (Object.hasOwn(entries, key) ? entries[key] : undefined);
  // fromEntries defines each key as an own property: an assignment would take "__proto__" as the
  // prototype, and the check would no longer see (and refuse) it.
  return Object.fromEntries(
    Object.entries(given)
      .filter(([key, value]) => !(value === null && entryOf(key)?.type === 'optional'))
      .map(([key, value]) => {
        const entry = entryOf(key);
        const own = entry && unwrapped(entry);
        if (!own) return [key, value];
        return [key, own.options ? vocabularySpelling(value, own.options) : scalarFromText(value, own.type)];
      }),
  );
}
