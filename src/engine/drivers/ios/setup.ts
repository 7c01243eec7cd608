import type { IosDriverOptions } from './ios-driver.js';
import { withPath } from './wda-client.js';

/** The CLI flags that shape the iOS driver, already parsed by the CLI (values as typed by the user). */
export interface IosFlags {
  /** --no-ios: leave the iOS driver out. */
  noIos?: boolean;
  /**
   * --wda-url [UDID=]URL, repeatable (the CLI joins repeats with commas): WebDriverAgent of
   * simulators, default http://127.0.0.1:8100; with UDID=, the WDA of that simulator alone.
   */
  wdaUrl?: string;
  /** --mjpeg-url [UDID=]URL, repeatable: WDA's MJPEG server, default the WDA URL's host, port 9100. */
  mjpegUrl?: string;
  /** --wda-project <folder>: a WebDriverAgent checkout to build and start with xcodebuild when nothing answers. */
  wdaProject?: string;
  /** --wda-runner <path>: a prebuilt WebDriverAgentRunner-Runner.app to install and launch on simulators. */
  wdaRunner?: string;
  /** --wda-device-port <port>: WebDriverAgent's port inside real iPhones, default 8100. */
  wdaDevicePort?: string | number;
}

// A simulator UDID as simctl prints it (UUID); anything else before '=' is a typo worth naming.
const UDID = /^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$/;

/** `keepPath`: a WebDriverAgent behind a proxy may answer under a path (http://gateway/iphone1), which stays. */
function httpOrigin(flag: string, given: string, example: string, keepPath: boolean): string {
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw new Error(`${flag} ${JSON.stringify(given)} is not a URL; pass e.g. ${example}`);
  }
  if (url.protocol !== 'http:') throw new Error(`${flag} must be an http:// URL (WebDriverAgent speaks plain HTTP), got ${given}`);
  return keepPath ? withPath(url) : url.origin;
}

/**
 * One URL for every simulator and/or `UDID=URL` entries for single simulators (several simulators,
 * each with a WDA on its own ports, cannot share one URL: see docs/ios.md).
 */
function urlsFromFlag(flag: string, value: string, port: number, keepPath = false): { shared?: string; each: Record<string, string> } {
  const example = `http://127.0.0.1:${port}, or UDID=http://127.0.0.1:${port + 1} for one simulator`;
  let shared: string | undefined;
  const each: Record<string, string> = {};
  for (const entry of value.split(',')) {
    const eq = entry.indexOf('=');
    const udid = eq > 0 && !entry.slice(0, eq).includes(':') ? entry.slice(0, eq) : undefined;
    if (udid === undefined) {
      if (shared !== undefined) throw new Error(`${flag} is given twice without a simulator UDID (${shared} and ${entry}); prefix all but one with UDID=`);
      shared = httpOrigin(flag, entry, example, keepPath);
      continue;
    }
    if (!UDID.test(udid)) throw new Error(`${flag} ${entry}: "${udid}" is not a simulator UDID (xcrun simctl list devices shows them, e.g. 5A1B…-…); write UDID=URL`);
    const key = udid.toUpperCase();
    if (each[key] !== undefined) throw new Error(`${flag} names simulator ${udid} twice; give each simulator one URL`);
    each[key] = httpOrigin(flag, entry.slice(eq + 1), example, keepPath);
  }
  return { shared, each };
}

/**
 * Turns CLI flags into `EngineSetup.ios`. Throws an Error with a message naming the flag when a value
 * is unusable, so the CLI can print it and exit.
 */
export function iosSetupFromFlags(flags: IosFlags): false | IosDriverOptions {
  if (flags.noIos) return false;
  const options: IosDriverOptions = {};
  if (flags.wdaUrl !== undefined) {
    const { shared, each } = urlsFromFlag('--wda-url', flags.wdaUrl, 8100, true);
    if (shared !== undefined) options.wdaUrl = shared;
    if (Object.keys(each).length) options.wdaUrls = each;
  }
  if (flags.mjpegUrl !== undefined) {
    const { shared, each } = urlsFromFlag('--mjpeg-url', flags.mjpegUrl, 9100);
    if (shared !== undefined) options.mjpegUrl = shared;
    if (Object.keys(each).length) options.mjpegUrls = each;
  }
  if (flags.wdaProject || flags.wdaRunner) options.wdaStart = { project: flags.wdaProject, runner: flags.wdaRunner };
  if (flags.wdaDevicePort !== undefined) {
    const port = Number(flags.wdaDevicePort);
    if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`--wda-device-port must be a port number 1..65535, got ${flags.wdaDevicePort}`);
    options.deviceWdaPort = port;
  }
  return options;
}
