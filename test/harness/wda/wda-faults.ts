import type { GestureClock } from './emulated-actions.js';
import type { WdaJsonNode } from './wda-tree.js';

/* How an emulated WebDriverAgent is built (which WDA release it answers as) and the states of real setups tests switch on. */

export interface EmulatedWdaOptions {
  /** Device pixels per point reported by /wda/screen; default the virtual phone's own. */
  scale?: number;
  /** WDA built for the simulator (TARGET_OS_SIMULATOR; the default) or for a real iPhone. */
  simulator?: boolean;
  /** Answer as WDA before its W3C protocol (2019): HTTP 200 and a numeric `status` for every answer. */
  legacy?: boolean;
  /**
   * A build before WebDriverAgent 8.4 (5ebc71c6, April 2024): /wda/screen only inside a session and without
   * screenSize (the size comes from /window/size), and a refused button "is unknown" (the wording until v11.2, 2026).
   * Implied by `legacy`.
   */
  before2024?: boolean;
  /**
   * A build before WebDriverAgent 5.15.1 (0b41757c, #812, November 2023): no mjpegFixOrientation setting, and its
   * MJPEG server sends XCTest's portrait-stored JPEG unchanged unless it scales it. Implied by `legacy`.
   */
  before5_15?: boolean;
  /** The virtual phone's clock: gestures' pauses and timed moves move it on, as they take time on a phone. */
  clock?: GestureClock;
  /** UIDevice.name as /wda/device/info reports it: a simulator's name in Xcode, or "iPhone" (the default). */
  name?: string;
  /**
   * The phone's iOS (/status os.version; default the virtual phone's). Below 16.4 XCTest has no
   * openDefaultApplicationForURL, so POST /url hands the URL to Siri and answers success (fb_openUrl).
   */
  osVersion?: string;
  /** The SDK the runner was built with (/status os.sdkVersion, from its DTSDKName; default 17.5). Below 16.4: as osVersion. */
  sdkVersion?: string;
}

/** States of real WDA setups that tests switch on. */
export interface WdaFaults {
  /** Requests ("POST /session/:id/actions") that WDA carries out and then drops the connection without answering. */
  resetAfter?: RegExp;
  /**
   * Requests ("GET /session/:id/source") WDA reads and never answers: XCTest stuck snapshotting a huge or
   * animating screen (XCTest's own snapshot timeout is far above a call's deadline).
   */
  hangOn?: RegExp;
  /**
   * A request ("POST /session") WDA takes its time over and answers once `until` settles: XCTest attaching to the
   * app in front waits for it to go idle, seconds on a busy screen.
   */
  slowOn?: { request: RegExp; until: Promise<void> };
  /** Runs after WDA answered a request ("GET /session/:id/element/active"), e.g. to let another client take the session. */
  afterAnswer?: (request: string) => void;
  /**
   * XCTest cannot snapshot the app in front this many more times (it is launching, closing or has just crashed):
   * /source and element lookups fail as XCUIElement+FBUtilities.m fb_takeSnapshot does, "stale element reference".
   */
  snapshotFailures?: number;
  /**
   * The app's accessibility tree is too deep or too large for XCTest: every snapshot of it is refused with
   * kAXErrorIllegalArgument, which WDA reports as "stale element reference" (appium/WebDriverAgent#542).
   */
  treeTooDeep?: boolean;
  /** /wda/keys fails with this NSError description: XCTest could not synthesize the typing (FBTypeText). */
  typingFails?: string;
  /** Rewrites /source before it is sent, e.g. to lay a keyboard or an alert over the app as iOS does. */
  decorateSource?: (tree: WdaJsonNode) => WdaJsonNode;
  /**
   * A simulator typing with the Mac's keyboard (I/O › Keyboard › Connect Hardware Keyboard): a focused field
   * shows no on-screen keyboard, so none is in /source or found by /elements, yet the field keeps keyboard
   * focus and synthesized key events (/wda/keys) reach it.
   */
  hardwareKeyboard?: boolean;
  /**
   * Bundle ids whose app dies as it starts: WDA still answers POST /wda/apps/launch with success (FBSession
   * launchApplicationWithBundleId checks nothing afterwards), and the app is then not running.
   */
  crashOnLaunch?: string[];
  /** The app's interface orientation is UIInterfaceOrientationUnknown: GET /orientation answers null. */
  unknownOrientation?: boolean;
  /**
   * A build from the W3C protocol (5d6f1bf, 2019) until 76447471 (March 2020), or a JSON Wire one before: element lookups
   * whose every match lies outside a showing alert fail with "unexpected alert open" (FBAlert.m filterObstructedElements,
   * FBAlertObstructingElementException; JSON Wire status 26).
   */
  obstructingAlerts?: boolean;
  /** Bundle ids of apps whose UISupportedInterfaceOrientations lack landscape: they stay upright when the device turns. */
  portraitOnly?: string[];
  /**
   * POST /actions answers only once the gesture has played, as a real WDA does (XCTest synthesizes the events in
   * real time and fb_synthesizeEvent waits for them): a 6 s long press is answered after 6 s. Off, it answers at once.
   */
  gesturesTakeTheirTime?: boolean;
  /**
   * A WebDriverAgent that has only these routes ("GET /source", "POST /session", "DELETE /session/:id"; under a
   * session as without one, where WDA registers both): an older build, or an emulation of WDA written for a few
   * clients. Every other request is answered as FBUnknownCommands' catch-all answers a route WDA lacks.
   */
  onlyRoutes?: readonly string[];
  /** With `onlyRoutes`: the other routes get a web framework's default 404 (wda-shapes.ts answerAsFramework) instead of WDA's. */
  othersAs?: 'express' | 'fastify';
  /** /source serves only these formats; another is refused as WDA refuses a format it does not know. */
  sourceFormats?: readonly ('xml' | 'json')[];
  /** /source answers XML whatever format is asked (an emulation of WDA that serves only XML and reads no query). */
  sourceAlwaysXml?: boolean;
  /** The XML source's application element without bundleId and processId, as builds before September 2025 (#1055) write it. */
  xmlWithoutBundleId?: boolean;
  /** /status answers only {ready, message}: no build, os, ios or device (an emulation of WDA answering a few fields). */
  bareStatus?: boolean;
  /** Switch values in /source's JSON as JSON booleans, as WDA wrote them before c2a0427b (July 2017; wda-shapes.ts). */
  booleanValues?: boolean;
  /** /source without isAccessible (JSON) or accessible (XML), as WDA wrote it before 035af066 (April 2021). */
  withoutIsAccessible?: boolean;
  /** /source's JSON as an emulation may write it: prefixed types, only keys that say something, digits as numbers (wda-shapes.ts). */
  sparseJson?: boolean;
  /** /screenshot's base64 in 64-character lines ending in CRLF, as WDA wrote it before 5d1d76b5 (October 2022). */
  base64Lines?: boolean;
  /** /wda/screen answered without `scale` (an emulation of WDA leaving it out). */
  screenWithoutScale?: boolean;
  /**
   * WDA reached through a reverse proxy at this path (nginx `location /iphone1/ { proxy_pass http://wda:8100/; }`):
   * a request under it reaches WDA without it, any other gets nginx's 404 page.
   */
  pathPrefix?: string;
  /** A reverse proxy in front of a WDA that does not answer it: every request gets the proxy's HTML page with this status. */
  proxyAnswers?: 502 | 503 | 504;
}
