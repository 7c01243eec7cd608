import type { IosDriverOptions } from './ios-driver.js';

/** The CLI flags that shape the iOS driver, already parsed by the CLI (values as typed by the user). */
export interface IosFlags {
  /** --no-ios: leave the iOS driver out. */
  noIos?: boolean;
  /** --wda-url <url>: WebDriverAgent of simulators, default http://127.0.0.1:8100. */
  wdaUrl?: string;
  /** --wda-project <folder>: a WebDriverAgent checkout to build and start with xcodebuild when nothing answers. */
  wdaProject?: string;
  /** --wda-runner <path>: a prebuilt WebDriverAgentRunner-Runner.app to install and launch on simulators. */
  wdaRunner?: string;
  /** --wda-device-port <port>: WebDriverAgent's port inside real iPhones, default 8100. */
  wdaDevicePort?: string | number;
}

/**
 * Turns CLI flags into `EngineSetup.ios`. Throws an Error with a message naming the flag when a value
 * is unusable, so the CLI can print it and exit.
 */
export function iosSetupFromFlags(flags: IosFlags): false | IosDriverOptions {
  if (flags.noIos) return false;
  const options: IosDriverOptions = {};
  if (flags.wdaUrl !== undefined) {
    let url: URL;
    try {
      url = new URL(flags.wdaUrl);
    } catch {
      throw new Error(`--wda-url ${JSON.stringify(flags.wdaUrl)} is not a URL; pass e.g. http://127.0.0.1:8100`);
    }
    if (url.protocol !== 'http:') throw new Error(`--wda-url must be an http:// URL (WebDriverAgent speaks plain HTTP), got ${flags.wdaUrl}`);
    options.wdaUrl = url.origin;
  }
  if (flags.wdaProject || flags.wdaRunner) options.wdaStart = { project: flags.wdaProject, runner: flags.wdaRunner };
  if (flags.wdaDevicePort !== undefined) {
    const port = Number(flags.wdaDevicePort);
    if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`--wda-device-port must be a port number 1..65535, got ${flags.wdaDevicePort}`);
    options.deviceWdaPort = port;
  }
  return options;
}
