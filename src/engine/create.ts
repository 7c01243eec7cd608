import type { Driver } from './driver.js';
import { Engine } from './engine.js';
import { VirtualDriver, type VirtualDriverOptions } from './drivers/virtual/index.js';
import type { IosDriverOptions } from './drivers/ios/ios-driver.js';
import type { AndroidDriverOptions } from './drivers/android/android-driver.js';
import { LazyDriver } from './drivers/lazy-driver.js';
import { createSourceSet, type SourcesSetup } from './sources/index.js';

export interface EngineSetup {
  /** Serve the built-in virtual devices (default true). */
  virtual?: boolean | VirtualDriverOptions;
  /**
   * iOS simulators and iPhones through WebDriverAgent. Off unless given: the commands turn it on
   * through iosSetupFromFlags, and an engine built in a test never reaches the developer's own devices.
   */
  ios?: false | IosDriverOptions;
  /**
   * Android devices through the adb server. Off unless given, like `ios` (the commands use
   * androidSetupFromFlags). Never starts an adb server unless startServer is set.
   */
  android?: false | AndroidDriverOptions;
  /** Named adb servers and networked WebDriverAgents (SPEC §10); the CLI builds it with sourcesFromFlags. */
  sources?: SourcesSetup;
  timeoutMs?: number;
  allowPaths?: string[];
  /** Drivers to use in addition (tests inject harness-backed drivers here). */
  extraDrivers?: Driver[];
  /** Follow devices coming and going (default true; one-shot commands turn it off). */
  watchDevices?: boolean;
}

/** The one place that knows which platforms exist; commands and the bridge build their engine here. */
export function createEngine(setup: EngineSetup = {}): Engine {
  const drivers: Driver[] = [];
  if (setup.virtual !== false) drivers.push(new VirtualDriver(setup.virtual === true || setup.virtual === undefined ? {} : setup.virtual));
  const { ios, android } = setup;
  if (ios) drivers.push(new LazyDriver('ios', async () => new (await import('./drivers/ios/ios-driver.js')).IosDriver(ios)));
  if (android) {
    const options = { probeTimeoutMs: probeDeadline(setup.timeoutMs), ...android };
    drivers.push(new LazyDriver('android', async () => new (await import('./drivers/android/android-driver.js')).AndroidDriver(options)));
  }
  if (setup.sources && (setup.sources.adb.length || setup.sources.wda.length)) drivers.push(createSourceSet(setup.sources));
  drivers.push(...(setup.extraDrivers ?? []));
  return new Engine({ drivers, timeoutMs: setup.timeoutMs, allowPaths: setup.allowPaths, watchDevices: setup.watchDevices });
}

/** Each device's answer in a listing must come well inside the listing's own deadline (min(10 s, --timeout)). */
function probeDeadline(timeoutMs = 30_000): number {
  return Math.max(200, Math.min(3000, Math.floor(Math.min(10_000, timeoutMs) / 2)));
}
