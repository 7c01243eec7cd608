/** What the emulated WebDriverAgent says about itself and its device. */

/**
 * FBSessionCommands.m handleGetStatus: `ios.simulatorVersion` only in builds for the simulator (TARGET_OS_SIMULATOR);
 * `build.version` is WebDriverAgentLib's CFBundleShortVersionString (16.7.0 at appium/WebDriverAgent c279b4c).
 */
export function statusDocument(version: string, simulator: boolean, sdkVersion = '17.5', idiom: Idiom = 'iphone'): object {
  return {
    ready: true,
    message: 'WebDriverAgent is ready to accept commands',
    state: 'success',
    os: { name: 'iOS', version, sdkVersion, testmanagerdVersion: 65535 },
    ios: { ...(simulator ? { simulatorVersion: version } : {}), ip: null },
    build: { time: 'Nov 20 2026 10:00:00', productBundleIdentifier: 'com.facebook.WebDriverAgentRunner', version: '16.7.0' },
    device: idiom,
  };
}

/** FBSessionCommands.m deviceNameByUserInterfaceIdiom: what `device` says in the status and a session's capabilities. */
export type Idiom = 'iphone' | 'ipad';

/** FBCustomCommands.m handleGetDeviceInfo; uuid is identifierForVendor, not the simulator's UDID; UIUserInterfaceIdiomPad is 1. */
export function deviceInfoDocument(name: string, vendorId: string, dark: boolean, simulator: boolean, idiom: Idiom = 'iphone'): object {
  return {
    currentLocale: 'en_US', timeZone: 'Europe/Berlin', name, model: idiom === 'ipad' ? 'iPad' : 'iPhone', uuid: vendorId,
    userInterfaceIdiom: idiom === 'ipad' ? 1 : 0, userInterfaceStyle: dark ? 'dark' : 'light', isSimulator: simulator, thermalState: 0,
  };
}

/**
 * A response body as FBResponseJSONPayload.m writes it: NSJSONSerialization with NSJSONWritingPrettyPrinted, i.e.
 * two-space indents, `"key" : value`, and "/" escaped as "\/" (NSJSONWritingWithoutEscapingSlashes is not passed).
 */
export function wdaJson(payload: unknown): string {
  return JSON.stringify(payload, null, 2)
    .replace(/^(\s*"(?:[^"\\]|\\.)*"): /gm, '$1 : ')
    .replace(/\//g, '\\/');
}

/** The headers FBWebServer.m sets on every answer (setDefaultHeader) besides FBResponseJSONPayload.m's Content-Type. */
export const WDA_HEADERS = {
  server: 'WebDriverAgent/1.0',
  'access-control-allow-origin': '*',
  'access-control-allow-headers': 'Content-Type, X-Requested-With',
  'content-type': 'application/json;charset=UTF-8',
};
