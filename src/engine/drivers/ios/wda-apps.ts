import type { CallContext } from '../../driver.js';
import { ToolError } from '../../errors.js';
import type { AppControl, InstalledProbe } from './app-control.js';
import { ToolLacks } from './tool-lacks.js';
import type { WdaError } from './wda-client.js';
import type { WdaCall } from './wda-launch-check.js';

/** How the launch check names WebDriverAgent's launch, which, like simctl's and go-ios's, only says the app was started. */
const WDA_LAUNCHER = "WebDriverAgent's POST /wda/apps/launch";

/**
 * WDA's launch fails as "invalid argument" with the launch's NSError (FBXCTestDaemonsProxy.m swizzledLaunchApp, since
 * 2023): for a bundle id the device lacks, "Application info provider (FBSApplicationLibrary) returned nil for …"
 * (appium/WebDriverAgent#706), or its own "… is not installed on the device under test" when XCTest gave no error.
 */
export function launchRefused(err: WdaError, bundleId: unknown, device: string): ToolError | undefined {
  if (!/returned nil for|is not installed on the device/i.test(err.detail)) return undefined;
  return new ToolError('APP_NOT_INSTALLED', `${String(bundleId)} is not installed on ${device} (WebDriverAgent could not open it); check the bundle id`);
}

/**
 * A WebDriverAgent that cannot stand in either (it lacks the route, or does not answer): both ways are named, so
 * that either fix is seen. Other failures are WDA's own about this app and stand as they are.
 */
function neither(err: unknown, lacked: ToolLacks): unknown {
  if (!(err instanceof ToolError) || err.code !== 'UNSUPPORTED') return err;
  return new ToolError('UNSUPPORTED', `${lacked.message}. WebDriverAgent, which could have done it instead, could not either: ${err.message}`);
}

/**
 * The tool's launch, or, where it lacks the command, WDA's POST /wda/apps/launch (FBSession launchApplicationWithBundleId,
 * in the session), which launches the app or brings it to the front when it runs. Either only says the app was
 * started, so the caller checks what came up; given is the launcher to name then (undefined: the launch confirmed itself).
 */
export async function launchEither(apps: AppControl, call: WdaCall, bundleId: string, installed: InstalledProbe, ctx: CallContext): Promise<string | undefined> {
  try {
    await apps.launch(bundleId, ctx.signal, installed);
    return apps.unconfirmedLauncher;
  } catch (lacked) {
    if (!(lacked instanceof ToolLacks)) throw lacked;
    try {
      await call('POST', '/wda/apps/launch', { bundleId }, ctx);
    } catch (err) {
      throw neither(err, lacked);
    }
    return WDA_LAUNCHER;
  }
}

/**
 * The tool's stop, or, where it lacks the command, WDA's POST /wda/apps/terminate: true when the app ran and was
 * terminated, false otherwise (FBSession terminateApplicationWithBundleId), an app that is not installed included; so
 * a false asks the tool's own listing, then `installed` (apps/state), before it is taken for "was not running".
 */
export async function terminateEither(apps: AppControl, call: WdaCall, bundleId: string, installed: InstalledProbe, device: string, ctx: CallContext): Promise<boolean | undefined> {
  let value: unknown;
  try {
    return await apps.terminate(bundleId, ctx.signal, installed);
  } catch (lacked) {
    if (!(lacked instanceof ToolLacks)) throw lacked;
    try {
      value = await call('POST', '/wda/apps/terminate', { bundleId }, ctx);
    } catch (err) {
      throw neither(err, lacked);
    }
  }
  if (value === false && ((await apps.installed?.(bundleId, ctx.signal)) ?? (await installed())) === false) {
    throw new ToolError('APP_NOT_INSTALLED', `${bundleId} is not installed on ${device}; install it with mobile_install_app, or pick one from mobile_list_apps`);
  }
  return typeof value === 'boolean' ? value : undefined;
}
