import type { WdaFaults } from './wda-faults.js';

/*
 * Answers shaped otherwise than appium/WebDriverAgent 16.7.0 writes them, yet written by an older build or by an
 * emulation of WDA: applied to a route's value just before it is sent.
 */

/** `request` is "GET /source?format=json" (session part left out), `value` what 16.7.0 answers. */
export function reshaped(faults: WdaFaults, request: string, value: unknown): unknown {
  if (faults.screenWithoutScale && request === 'GET /wda/screen' && value && typeof value === 'object') {
    const { scale: _scale, ...rest } = value as Record<string, unknown>;
    return rest;
  }
  return value;
}
