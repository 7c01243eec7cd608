import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Preconditions } from '../../validate/index.js';
import { VerbError } from '../verbs/index.js';

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
