import { ToolError } from '../../errors.js';
import { type WdaError, isRepeatable } from './wda-client.js';
import { launchRefused } from './wda-apps.js';
import { urlRefused } from './wda-open-url.js';

/**
 * Reads of the app as a whole (/source, element lookups, orientation…), not of one element by uuid. XCTest
 * fails their snapshot while the app launches, closes or crashes, and WDA answers "stale element reference"
 * (XCUIElement+FBUtilities.m fb_takeSnapshot); asked again a moment later they usually succeed.
 */
export function readsWholeApp(method: string, path: string): boolean {
  return isRepeatable(method, path) && !path.includes('/element/');
}

/**
 * XCTest refuses a snapshot of an accessibility tree deeper or larger than it serves with kAXErrorIllegalArgument,
 * which WDA passes on as the same "stale element reference" (appium/WebDriverAgent#542: React Native screens past
 * ~62 levels). Unlike a launching app's, this refusal repeats for as long as the screen shows.
 */
export function treeRefused(err: WdaError): boolean {
  return err.error === 'stale element reference' && /kAXErrorIllegalArgument/.test(err.detail);
}

/**
 * WebDriverAgent has no such route: its catch-all answered (FBUnknownCommands.m, "unknown command" "Unhandled
 * endpoint: …"; JSON Wire builds status 1). Older builds lack newer routes, and emulations of WDA written for a few
 * clients answer only those. Callers with another way to the same fact catch it; otherwise updating WDA is the fix.
 */
export class WdaRouteMissing extends ToolError {
  constructor(
    /** "GET /wda/activeAppInfo", without the session part, query or element uuid. */
    readonly route: string,
    device: string,
  ) {
    super('UNSUPPORTED', `WebDriverAgent on ${device} lacks ${route} (it answered "unknown command"), so nothing was done: update WebDriverAgent to a recent appium/WebDriverAgent build`);
  }
}

/** `method path` as a route name: no query, an element's uuid as :uuid. */
export function routeName(method: string, path: string): string {
  return `${method} ${path.split('?')[0].replace(/^\/element\/(?!active$)[^/]+/, '/element/:uuid')}`;
}

export function routeMissing(err: WdaError): boolean {
  return err.error === 'unknown command' || err.error === 'unknown method';
}

/** What WebDriverAgent's refusal of `method path` means for the caller, with what to do. */
export function wdaRefusal(err: WdaError, method: string, path: string, body: unknown, device: string): ToolError {
  if (routeMissing(err)) return new WdaRouteMissing(routeName(method, path), device);
  if (path === '/url') return urlRefused(err, (body as { url?: unknown } | undefined)?.url, device);
  const notInstalled = path === '/wda/apps/launch' ? launchRefused(err, (body as { bundleId?: unknown } | undefined)?.bundleId, device) : undefined;
  if (notInstalled) return notInstalled;
  // Only WDA builds of 2016-2018 waited for the keyboard in /wda/keys ("Keyboard is not present", FBKeyboard.m);
  // since then its "invalid element state" means XCTest failed to synthesize the keys (FBTypeText), focus or not.
  if (path === '/wda/keys' && /keyboard (is not|must be) present/i.test(err.detail)) {
    return new ToolError('INVALID_PARAMETER', `no text field is focused on ${device} (the keyboard is not shown): tap a field first, then type. WebDriverAgent said: ${err.detail}`);
  }
  if (path === '/wda/keys') {
    return new ToolError('INTERNAL', `WebDriverAgent on ${device} could not type (XCTest failed to synthesize the keys; some may have reached the field, so check it before typing again): ${err.error}${err.detail ? ` (${err.detail})` : ''}`);
  }
  if (treeRefused(err) && readsWholeApp(method, path)) {
    return new ToolError('INTERNAL', `WebDriverAgent on ${device} could not read the app in front (${method} ${path.split('?')[0]}): XCTest refused to snapshot its accessibility tree (kAXErrorIllegalArgument), as it does for trees too deep or too large; asking again will not help while this screen shows: take a screenshot instead, or move to a screen with fewer nested views. WebDriverAgent said: ${err.detail}`);
  }
  if (err.error === 'stale element reference' && readsWholeApp(method, path)) {
    return new ToolError('INTERNAL', `WebDriverAgent on ${device} could not read the app in front (${method} ${path.split('?')[0]}): XCTest got no snapshot of it twice, as while an app launches, closes or has just crashed; call again in a moment. WebDriverAgent said: ${err.detail}`);
  }
  // WDA from its W3C protocol (5d6f1bf, 2019) until 76447471 (March 2020), and JSON Wire builds before it (status 26),
  // refused an element lookup whose every match lay under an alert (FBAlert.m filterObstructedElements): the
  // keyboard lookup before typing fails so while an alert covers the app, and only answering the alert helps.
  if (err.error === 'unexpected alert open') {
    return new ToolError('INTERNAL', `an alert is open on ${device} and covers the app, so WebDriverAgent refused ${method} ${path.split('?')[0]}: answer the alert first (mobile_list_elements_on_screen lists its buttons; tap one), then repeat the call. WebDriverAgent said: ${err.detail || err.error}`);
  }
  if (err.error === 'unsupported operation') return new ToolError('UNSUPPORTED', `${device} cannot do ${method} ${path}: ${err.detail}`);
  // fb_pressButton: "The button '…' is not supported. The device under test only supports the following buttons: (home, …)";
  // before WebDriverAgent 11.2 (3df0284d): "The button '…' is unknown. Only the following button names are supported: (…)".
  // WDA offers volumeUp/volumeDown only on real iPhones (fb_availableButtonNames, #if !TARGET_OS_SIMULATOR).
  const button = path === '/wda/pressButton' ? /The button '([^']*)' is (?:not supported|unknown)[^(]*\(([^)]*)\)/.exec(err.detail) : null;
  if (button) {
    const offered = button[2].split(',').map((b) => b.trim()).filter(Boolean).join(', ');
    const why = /^volume/i.test(button[1]) ? ' (simulators have no volume buttons: WebDriverAgent offers them on real iPhones only; use the Simulator\'s own volume controls)' : '';
    return new ToolError('UNSUPPORTED', `${device} has no ${button[1]} button${why}; WebDriverAgent there supports only: ${offered}. Nothing was pressed`);
  }
  return new ToolError('INTERNAL', `WebDriverAgent on ${device} failed ${method} ${path.split('?')[0]}: ${err.error}${err.detail ? ` (${err.detail})` : ''}`);
}
