import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { V22_VERSIONS, type Preconditions, type Scenario } from '../../validate/index.js';
import { apkPackageName } from '../drivers/android/apk-package.js';
import { bundleIdFromPlist, requireBundlePlist } from '../drivers/ios/installed-bundle.js';
import { ToolError } from '../errors.js';
import { VerbError, type VerbContext } from '../verbs/index.js';
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
 * The app files the preconditions will install, checked before any precondition runs as
 * mobile_install_app will check them: the preconditions often uninstall the app first (a fresh
 * install), and a build found missing, empty, truncated, of the wrong kind or outside the allowed
 * folders only after that left the phone without the app and its data, for this run and every later one.
 */
export async function checkInstallFiles(pre: Preconditions | undefined, verbs: Pick<VerbContext, 'engine' | 'device' | 'os'>): Promise<void> {
  for (const action of pre?.device_actions ?? []) {
    if (action.action !== 'install_app' || !action.value) continue;
    const untouched = 'nothing was done to the device: no precondition ran';
    // mobile_install_app reads a relative path from the working folder, as this does.
    const absolute = resolve(action.value);
    const found = await stat(absolute).catch(() => undefined);
    if (!found?.isFile() && !found?.isDirectory()) {
      throw new VerbError('INVALID_PARAMETER', `precondition "install ${action.value}": no file at ${absolute} (a path is read from the working folder); ${untouched}. Build the app there or fix "value"`);
    }
    try {
      const file = await verbs.engine.allowedPaths.readable(action.value, 'path', { allowFolder: true });
      if (verbs.os !== 'iOS') await apkPackageName(file, verbs.device);
      else if (!bundleIdFromPlist(await requireBundlePlist(file, verbs.device))) throw new ToolError('INVALID_PARAMETER', `${file}: its Info.plist names no CFBundleIdentifier`);
    } catch (err) {
      if (!(err instanceof ToolError)) throw err;
      throw new VerbError(err.code, `precondition "install ${action.value}": ${err.message}; ${untouched}`);
    }
  }
}
