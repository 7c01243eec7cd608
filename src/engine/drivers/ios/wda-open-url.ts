import { ToolError } from '../../errors.js';
import type { WdaError } from './wda-client.js';

/** An iOS version ("16.3.1") below 16.4, where XCTest has no openDefaultApplicationForURL. */
function below164(version: string): boolean {
  const [major, minor] = version.split('.').map((n) => Number.parseInt(n, 10));
  if (!Number.isFinite(major)) return false;
  return major < 16 || (major === 16 && (Number.isFinite(minor) ? minor : 0) < 4);
}

/**
 * What an open_url through WDA's POST /url answers below 16.4 (the phone's os.version, or the SDK the
 * runner was built with): XCTest has no openDefaultApplicationForURL there, so WDA asks Siri to
 * "Open {url}" (XCUIDevice+FBHelpers.m fb_openUrl) and answers success whatever Siri did.
 */
export function siriNote(os: { version?: string; sdk?: string }, deviceId: string, url: string): string | undefined {
  if (!os.version && !os.sdk) {
    return `not confirmed: WebDriverAgent on ${deviceId} does not report the iOS version (its /status has no os.version or os.sdkVersion), and below 16.4 it cannot open a URL itself and may have handed it to Siri ("Open {${url}}"), answering success whatever Siri did; look at the screen before relying on it`;
  }
  const why = os.version && below164(os.version) ? `${deviceId} runs iOS ${os.version}` : os.sdk && below164(os.sdk) ? `WebDriverAgent on ${deviceId} was built with the iOS ${os.sdk} SDK` : undefined;
  if (!why) return undefined;
  return `not confirmed: ${why}, below 16.4, where WebDriverAgent cannot open a URL itself and may have handed it to Siri ("Open {${url}}"), answering success whatever Siri did; nothing confirms that it opened, so look at the screen before relying on it`;
}

/**
 * POST /url failing: "URL is required" or "'…' is not a valid URL" (invalid argument), or, from openDefaultApplicationForURL,
 * FBResponseWithUnknownError with the NSError's description: no app handles the scheme (LaunchServices). Below 16.4 without
 * Siri: "Cannot open '…' with the default application assigned for it. This API requires an iOS 16.4+ runtime".
 */
export function urlRefused(err: WdaError, url: unknown, deviceId: string): ToolError {
  const said = `WebDriverAgent said: ${err.detail || err.error}`;
  const what = typeof url === 'string' ? url : 'the URL';
  if (/requires an iOS 16\.4\+ runtime/.test(err.detail)) {
    return new ToolError('UNSUPPORTED', `${deviceId} cannot open ${what}: opening URLs through WebDriverAgent needs iOS 16.4 or later (and a runner built with Xcode 14.3 or later), and Siri is not there to hand it to. ${said}`);
  }
  if (err.error === 'unknown error' || err.error === 'invalid argument') {
    return new ToolError('INVALID_PARAMETER', `${deviceId} could not open ${what}: ${said} (is an app installed that handles this URL scheme?)`);
  }
  return new ToolError('INTERNAL', `WebDriverAgent on ${deviceId} failed POST /url: ${err.error}${err.detail ? ` (${err.detail})` : ''}`);
}
