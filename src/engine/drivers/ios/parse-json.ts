import * as v from 'valibot';

import { ToolError } from '../../errors.js';

/**
 * Parses a tool's JSON output and checks its shape. A tool that changed its output format
 * gives one clear INTERNAL error naming the command, instead of undefined values further on.
 */
export function parseToolJson<S extends v.GenericSchema>(schema: S, text: string, command: string): v.InferOutput<S> {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new ToolError('INTERNAL', `${command} printed output that is not JSON: ${JSON.stringify(text.slice(0, 200))}`);
  }
  const parsed = v.safeParse(schema, data);
  if (!parsed.success) throw unexpectedShape(command, parsed.issues);
  return parsed.output;
}

/** The INTERNAL error for a tool's JSON of another shape: where the first issues are, and the likely cause. */
export function unexpectedShape(command: string, issues: readonly v.BaseIssue<unknown>[], root = '(root)'): ToolError {
  const where = issues.map((i) => `${i.path?.map((p) => String(p.key)).join('.') || root}: ${i.message}`).slice(0, 3);
  return new ToolError('INTERNAL', `${command} printed JSON of an unexpected shape (${where.join('; ')}); is this a supported version of the tool?`);
}
