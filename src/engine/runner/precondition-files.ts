import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { V22_VERSIONS, type Preconditions, type Scenario } from '../../validate/index.js';
import { VerbError } from '../verbs/index.js';
import { interpolate } from './variables.js';

/**
 * The preconditions with the run's parameters filled in (SPEC §8: `${NAME}` wherever a variable
 * may be): a CI build path in install_app's `value`, a package in `target_package`. They run before
 * the first step, so only the scenario's parameters have values there (the validator says so).
 */
export function filledPreconditions(scenario: Scenario, parameters: Record<string, string>): Preconditions | undefined {
  const pre = scenario.preconditions;
  // Before 2.2 there are no parameters, and a `${` in a path is as written.
  if (!pre?.device_actions || !V22_VERSIONS.has(scenario.$schema_version)) return pre;
  const fill = (text: string | undefined, what: string) => {
    if (text === undefined) return undefined;
    try {
      return interpolate(text, parameters);
    } catch (err) {
      throw new VerbError('INVALID_PARAMETER', `precondition ${what}: ${(err as Error).message}; only parameters have values before the first step`);
    }
  };
  const device_actions = pre.device_actions.map((a) => {
    const out = { ...a };
    if (a.value !== undefined) out.value = fill(a.value, `${a.action} "value"`);
    if (a.target_package !== undefined) out.target_package = fill(a.target_package, `${a.action} "target_package"`);
    return out;
  });
  return { ...pre, device_actions };
}

/**
 * The app files the preconditions will install, looked at before any precondition runs: the
 * preconditions often uninstall the app first (a fresh install), and finding the new build missing
 * only after that left the phone without the app and its data, for this run and every later one.
 * Only presence is checked here; mobile_install_app still applies its own rules (allowed folders).
 */
export async function checkInstallFiles(pre: Preconditions | undefined): Promise<void> {
  for (const action of pre?.device_actions ?? []) {
    if (action.action !== 'install_app' || !action.value) continue;
    // mobile_install_app reads a relative path from the working folder, as this does.
    const absolute = resolve(action.value);
    const found = await stat(absolute).catch(() => undefined);
    if (!found?.isFile() && !found?.isDirectory()) {
      throw new VerbError('INVALID_PARAMETER', `precondition "install ${action.value}": no file at ${absolute} (a path is read from the working folder); nothing was done to the device: no precondition ran. Build the app there or fix "value"`);
    }
  }
}
