import { envelope, validateScenarioText, validateScenarioValue, type Envelope } from '../../validate/index.js';
import { defineMethod, type MethodDef } from '../registry.js';

/** The SPEC §4 envelope for a scenario given as text (exact positions) or as a parsed JSON value. */
export function validateScenario(scenario: unknown, file = '<request>'): Envelope {
  const report = typeof scenario === 'string' ? validateScenarioText(scenario, file) : validateScenarioValue(scenario, file);
  return envelope(report);
}

/** scenarios.validate. (verbs.run, scenarios.run and scenarios.cancel come from the runner's own group.) */
export const scenarioMethods: MethodDef[] = [
  defineMethod('scenarios.validate', (p) => validateScenario(p.scenario, p.file) as unknown as Record<string, unknown>),
];
