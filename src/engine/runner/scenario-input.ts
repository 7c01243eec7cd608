import { loadScenario, type Scenario } from '../../validate/index.js';
import { VerbError } from '../verbs/index.js';

const LISTED_ERRORS = 3;

/**
 * The scenario as the validator builds it, its defaults filled in (an element_visible's
 * expected_visible, an operator, a retry policy, a wait's timeout). A file the CLI reads and an
 * object scenarios.run gets are built so already; a program may hand runScenario the object
 * recording_stop answered, which leaves defaults out as a file may, and every assertion written
 * without its default would fail against `undefined`.
 */
export function scenarioWithDefaults(scenario: Scenario): Scenario {
  const loaded = loadScenario(JSON.stringify(scenario), '<scenario>');
  if (loaded.scenario) return loaded.scenario;
  const errors = loaded.report.errors;
  const first = errors.slice(0, LISTED_ERRORS).map((e) => `${e.path || '/'}: ${e.message}`);
  const more = errors.length > LISTED_ERRORS ? `; and ${errors.length - LISTED_ERRORS} more` : '';
  throw new VerbError(
    'INVALID_PARAMETER',
    `the scenario is not valid (${errors.length} error${errors.length === 1 ? '' : 's'}: ${first.join('; ')}${more}); fix it (validateScenarioValue or mobilebridge validate lists every problem), then run it again`,
  );
}
