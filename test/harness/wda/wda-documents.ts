/** What the emulated WebDriverAgent says about itself and its device. */

/**
 * FBSessionCommands.m handleGetStatus: `ios.simulatorVersion` only in builds for the simulator (TARGET_OS_SIMULATOR);
 * `build.version` is WebDriverAgentLib's CFBundleShortVersionString (16.7.0 at appium/WebDriverAgent c279b4c).
 */
export function statusDocument(version: string, simulator: boolean): object {
  return {
    ready: true,
    message: 'WebDriverAgent is ready to accept commands',
    state: 'success',
    os: { name: 'iOS', version, sdkVersion: '17.5', testmanagerdVersion: 65535 },
    ios: { ...(simulator ? { simulatorVersion: version } : {}), ip: null },
    build: { time: 'Nov 20 2026 10:00:00', productBundleIdentifier: 'com.facebook.WebDriverAgentRunner', version: '16.7.0' },
    device: 'iphone',
  };
}

/** FBCustomCommands.m handleGetDeviceInfo; uuid is identifierForVendor, not the simulator's UDID. */
export function deviceInfoDocument(name: string, vendorId: string, dark: boolean, simulator: boolean): object {
  return {
    currentLocale: 'en_US', timeZone: 'Europe/Berlin', name, model: 'iPhone', uuid: vendorId,
    userInterfaceIdiom: 0, userInterfaceStyle: dark ? 'dark' : 'light', isSimulator: simulator, thermalState: 0,
  };
}
