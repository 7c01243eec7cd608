import type { Condition } from '../../validate/index.js';
import { requestOf, targetPresent } from '../verbs/index.js';
import { compare } from '../assertions/compare.js';
import type { DeviceFacts } from '../verbs/device-facts.js';
import type { VerbContext } from '../verbs/index.js';
import type { VariableValue } from './variables.js';

export interface ConditionEnv {
  verbs: VerbContext;
  facts(): Promise<DeviceFacts>;
  variables: Record<string, VariableValue>;
  /** Status of each step that has run so far (skipped steps included). */
  stepStatus(id: string): string | undefined;
}

/** Evaluates a step's condition; the message says what was compared (it goes into the result). */
export async function evaluateCondition(c: Condition, env: ConditionEnv): Promise<{ value: boolean; message: string }> {
  switch (c.type) {
    case 'device_property': {
      const facts = await env.facts();
      const actual = facts[c.property];
      const value = compare(actual, c.operator, c.value, c.property === 'os_version' ? 'version' : 'auto');
      return { value, message: `${c.property} is ${JSON.stringify(actual)}; ${c.operator} ${JSON.stringify(c.value)} is ${value}` };
    }
    case 'previous_step_skipped': {
      const status = env.stepStatus(c.step_id);
      const skipped = status === 'skipped' || status === undefined;
      return { value: skipped === c.value, message: `step ${c.step_id} was ${status ?? 'not run'}` };
    }
    case 'variable_value': {
      const actual = env.variables[c.variable_name];
      const value = actual !== null && actual !== undefined && compare(actual, c.operator, c.value);
      return { value, message: `${c.variable_name} is ${JSON.stringify(actual ?? null)}; ${c.operator} ${JSON.stringify(c.value)} is ${value}` };
    }
    case 'element_visible': {
      const present = await targetPresent(env.verbs, requestOf({ action: 'condition', target: c.element_description }, 'read'));
      return { value: present === c.value, message: `${JSON.stringify(c.element_description)} is ${present ? '' : 'not '}on screen` };
    }
  }
}
