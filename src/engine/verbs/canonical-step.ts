import { INDICATORS, SWIPE_DIRECTIONS, vocabularySpelling as spelled, WAIT_TYPES } from '../../validate/vocabulary.js';
import { BUTTONS } from '../types.js';
import type { VerbStep } from './types.js';

/**
 * A step with its enumerated values in their canonical spelling ("UP" → up, "home" → HOME,
 * "SPINNER" → spinner). The device takes either, but a recording keeps the step as given and the
 * validator compares exactly, so a live step in another case used to make an invalid scenario.
 * Values outside the vocabulary are left for the action to refuse.
 */
export function canonicalStep<S extends VerbStep>(step: S): S {
  const out: S = { ...step };
  if (step.action === 'swipe') out.value = spelled(step.value, SWIPE_DIRECTIONS);
  if (step.action === 'press_button') out.value = spelled(step.value, BUTTONS);
  if (step.wait_config) {
    out.wait_config = { ...step.wait_config, type: spelled(step.wait_config.type, WAIT_TYPES) ?? step.wait_config.type };
    if (step.wait_config.indicator !== undefined) out.wait_config.indicator = spelled(step.wait_config.indicator, INDICATORS);
  }
  if (out.value === undefined) delete out.value;
  return out;
}
