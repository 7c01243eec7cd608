/** Building blocks shared by the scenario and assertion schemas. */
import * as v from 'valibot';
import { SNAKE_CASE } from './vocabulary.js';

/** Carries a stable rule id inside a valibot message; structure.ts splits it off again. */
export const tagged = (rule: string, text: string): string => `${rule}\u0001${text}`;

export const Text = v.pipe(v.string(), v.minLength(1, tagged('empty-string', 'must not be empty; fill it in')));
export const SnakeId = v.pipe(
  v.string(),
  v.regex(SNAKE_CASE, tagged('id-format', 'must be snake_case; start with a lowercase letter, then lowercase letters, digits or _')),
);
