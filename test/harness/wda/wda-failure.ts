import { ToolError } from '../../../src/engine/errors.js';

/** A WDA error answer: W3C error name, HTTP status and message (FBCommandStatus.m). */
export class WdaFailure extends Error {
  constructor(
    readonly error: string,
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** FBCommandStatus.h before W3C: the JSON Wire codes of the errors this emulation raises. */
export const LEGACY_CODES: Record<string, number> = {
  'invalid session id': 6,
  'no such element': 7,
  // FBUnknownCommands.m before W3C answered an unhandled endpoint with FBCommandStatusUnsupported, not UnknownCommand (9).
  'unknown command': 1,
  'stale element reference': 10,
  'invalid element state': 12,
  'unknown error': 13,
  'invalid argument': 15,
  'unexpected alert open': 26,
  'session not created': 33,
};

export function toWdaFailure(err: unknown): WdaFailure {
  if (err instanceof ToolError && err.code === 'INVALID_PARAMETER') return new WdaFailure('invalid argument', 400, err.message);
  return new WdaFailure('unknown error', 500, err instanceof Error ? err.message : String(err));
}

/**
 * fb_pressButton's refusal, through FBResponseWithUnknownError (the NSError's description). Builds before v11.2
 * (3df0284d, 2026) said "is unknown" and listed home, volumeUp, volumeDown in that order; volume buttons only
 * on real iPhones (fb_availableButtonNames, #if !TARGET_OS_SIMULATOR).
 */
export function refusedButton(name: string, simulator: boolean, older: boolean): WdaFailure {
  const names = older ? ['home', ...(simulator ? [] : ['volumeUp', 'volumeDown'])] : simulator ? ['home'] : ['home', 'volumedown', 'volumeup'];
  const list = `(\n    ${names.join(',\n    ')}\n)`;
  const said = older
    ? `The button '${name}' is unknown. Only the following button names are supported: ${list}`
    : `The button '${name}' is not supported. The device under test only supports the following buttons: ${list}`;
  return new WdaFailure('unknown error', 500, `Error Domain=com.facebook.WebDriverAgent Code=1 "${said}" UserInfo={NSLocalizedDescription=${said}}`);
}

/**
 * FBXCTestDaemonsProxy.m swizzledLaunchApp (2023 on): a failed launch raises FBApplicationMissingException, "invalid
 * argument" with the launch's NSError, as WDA answered for a missing app in appium/WebDriverAgent#706.
 */
export function missingApp(id: string): WdaFailure {
  const open = `The request to open "${id}" failed.`;
  const cause = `Application info provider (FBSApplicationLibrary) returned nil for "${id}"`;
  return new WdaFailure(
    'invalid argument',
    400,
    `Error Domain=FBSOpenApplicationServiceErrorDomain Code=4 "${open}" UserInfo={BSErrorCodeDescription=InvalidRequest, NSLocalizedDescription=${open}, NSUnderlyingError=0x283546b50 {Error Domain=FBSOpenApplicationErrorDomain Code=4 "${cause}" UserInfo={BSErrorCodeDescription=NotFound, NSLocalizedFailureReason=${cause}}}}`,
  );
}

/**
 * XCUIElement+FBUtilities.m fb_takeSnapshot: no snapshot of the app raises FBStaleElementException (404); the
 * message as a real WDA sent it for /source on an app's first launch (appium/appium-inspector#435).
 */
export function noSnapshot(app: string, cause = 'Error getting main window kAXErrorServerNotFound'): WdaFailure {
  return new WdaFailure('stale element reference', 404, `The previously found element "Application '${app}'" is not present in the current view anymore. Make sure the application UI has the expected state. Original error: ${cause}`);
}

/**
 * FBResponseWithUnknownError and friends quote error.description: an NSError from FBErrorBuilder (domain
 * com.facebook.WebDriverAgent, code 1), e.g. FBRunLoopSpinner's timeoutErrorMessage.
 */
export function wdaNsError(error: string, status: number, description: string): WdaFailure {
  return new WdaFailure(error, status, `Error Domain=com.facebook.WebDriverAgent Code=1 "${description}" UserInfo={NSLocalizedDescription=${description}}`);
}

/**
 * Routes of the emulation under /session/:id, that part stripped ("GET /source"); an element's uuid is ":uuid".
 * GET /status and POST /session are registered withoutSession only (FBSessionCommands.m): under a session they are unknown.
 */
const ROUTES = new Set([
  'GET ', 'DELETE ', 'GET /wda/screen', 'GET /wda/locked', 'POST /wda/unlock', 'GET /wda/device/info',
  'GET /wda/activeAppInfo', 'GET /screenshot', 'GET /orientation', 'POST /orientation', 'GET /window/size', 'GET /source', 'POST /elements',
  'POST /wda/keyboard/dismiss', 'POST /url', 'POST /actions', 'POST /wda/keys', 'GET /element/active', 'POST /wda/pressButton',
  'GET /appium/settings', 'POST /appium/settings', 'POST /wda/apps/launch', 'POST /wda/apps/terminate', 'POST /wda/apps/state',
  'POST /element/:uuid/clear',
]);

export function knownRoute(method: string, path: string): boolean {
  return ROUTES.has(`${method} ${path.replace(/^\/element\/(?!active$)[^/]+/, '/element/:uuid')}`);
}

/** An NSString as NSDictionary's description prints it: quoted unless a plain word (facebookarchive/WebDriverAgent#1061). */
const described = (text: string) => (/^[A-Za-z0-9_]+$/.test(text) ? text : JSON.stringify(text));

/**
 * FBUnknownCommands.m unhandledHandler: "Unhandled endpoint: <request URL> with parameters <route parameters>".
 * Since WebDriverAgent 16.7.0 (cd741c5c, FBHTTPServer.m on Network.framework) the URL is the bare path and the
 * parameters are the query items plus the catch-all's wildcard as one string, keys in NSDictionary's sorted order.
 * Older builds (RoutingHTTPServer) printed the URL relative to the server ("/wda/foo -- http://127.0.0.1:8100/")
 * and the wildcards as an array, without the query items.
 */
export function unhandled(url: URL, older = false): WdaFailure {
  const wildcard = url.pathname.slice(1);
  if (older) {
    return new WdaFailure('unknown command', 404, `Unhandled endpoint: ${url.pathname}${url.search} -- ${url.origin}/ with parameters {\n    wildcards =     (\n        ${described(wildcard)}\n    );\n}`);
  }
  const params = new Map<string, string>(url.searchParams);
  params.set('wildcards', wildcard);
  const lines = [...params.keys()].sort().map((k) => `    ${described(k)} = ${described(params.get(k)!)};\n`);
  return new WdaFailure('unknown command', 404, `Unhandled endpoint: ${url.pathname} with parameters {\n${lines.join('')}}`);
}
