import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

import type { CallContext } from '../../../src/engine/driver.js';
import type { Button } from '../../../src/engine/types.js';
import type { VirtualDevice } from '../../../src/engine/drivers/virtual/index.js';
import { EmulatedMjpegServer } from './emulated-mjpeg.js';
import { WdaSessions } from './wda-sessions.js';
import { EmulatedOrientation } from './emulated-orientation.js';
import { EmulatedKeyboard } from './emulated-keyboard.js';
import { gestureMs, performActions } from './emulated-actions.js';
import { missingApp, noSnapshot, refusedButton, unhandled, WdaFailure, wdaNsError } from './wda-failure.js';
import { deviceInfoDocument, statusDocument, type Idiom } from './wda-documents.js';
import type { EmulatedWdaOptions, WdaFaults } from './wda-faults.js';

export type { EmulatedWdaOptions, WdaFaults } from './wda-faults.js';
import { handleWdaRequest, type WdaRoutes } from './wda-requests.js';
import { wdaXml } from './wda-xml.js';
import { cutAtDepth, lockScreenTree, SNAPSHOT_MAX_DEPTH, wdaTree, withoutKeyboards, type WdaJsonNode } from './wda-tree.js';

/*
 * An emulated WebDriverAgent in front of a VirtualDevice, speaking WDA's wire format:
 *   every answer {value, sessionId}; errors {value: {error, message, traceback}} with WDA's HTTP statuses
 *   (FBCommandStatus.m: "invalid session id" 404, "invalid element state" 400, "invalid argument" 400,
 *   "unknown command" 404, "unknown error" 500); routes under /session/:id need the live session id
 *   (FBRoute.m raises "Session does not exist" otherwise).
 * It can be absent (nothing listens) and can restart on the same port, forgetting its session.
 * Each request passes through wda-requests.ts to `route`; the keyboard's routes are answered by emulated-keyboard.ts.
 */

type Json = unknown;

/** In-session routes whose handlers start from FBSession.activeApplication (FBDebugCommands, FBFindElementCommands, FBTouchActionCommands, FBOrientationCommands, FBElementCommands, FBCustomCommands). */
const ACTIVE_APP_ROUTES = new Set(['GET /source', 'POST /elements', 'GET /element/active', 'POST /actions', 'GET /orientation', 'POST /orientation', 'GET /window/size', 'POST /wda/keyboard/dismiss', 'POST /wda/keys']);

export class EmulatedWda {
  readonly scale: number;
  private server: http.Server | undefined;
  private readonly sockets = new Set<Socket>();
  private port = 0;
  readonly sessions: WdaSessions;
  /** POST /session requests answered (another client's, made with foreignSession, are not counted). */
  sessionsCreated = 0;
  /** Every request as "METHOD /path" (session ids replaced by :id), for assertions. */
  readonly requests: string[] = [];
  /** WDA's MJPEG server: it lives in the same runner, so it starts and stops with WDA. */
  readonly mjpeg: EmulatedMjpegServer;
  readonly faults: WdaFaults = {};
  /**
   * FBConfiguration.snapshotMaxDepth: process-wide, but every POST /session puts it back to 50
   * (FBSessionCommands.m applyConfigurationFromCapabilities → FBConfiguration.m resetSessionSettings).
   */
  snapshotMaxDepth = SNAPSHOT_MAX_DEPTH;
  /**
   * The phone's screen is locked (GET /wda/locked); the fake go-ios cannot launch apps then, and
   * synthesized touches and keys reach the lock screen, not the app, while WDA answers success.
   */
  locked = false;
  /** The lock needs a passcode: POST /wda/unlock presses Home twice and the phone stays locked. */
  passcode = false;
  /** Touch and key requests that reached the lock screen instead of the app. */
  inputOnLockScreen = 0;
  /** /orientation, and which way the phone lies in landscape. */
  readonly orientation: EmulatedOrientation;
  /** What POST /url asked Siri, below iOS 16.4 (fb_activateSiriVoiceRecognitionWithText). */
  readonly siriRequests: string[] = [];
  /** The `actions` of every POST /actions, in order. */
  readonly gestures: unknown[] = [];
  /** The keyboard and the focused field: POST /elements, GET /element/active, /element/:uuid/clear, /wda/keys, /wda/keyboard/dismiss. */
  private readonly keyboard: EmulatedKeyboard;
  /** Labels of the keys /wda/keyboard/dismiss tapped, in order. */
  get keysTappedToDismiss(): string[] {
    return this.keyboard.keysTappedToDismiss;
  }

  readonly simulator: boolean;
  /** A build before 2024: its routing (RoutingHTTPServer) and its /wda/screen differ from 16.7.0's. */
  private readonly older: boolean;
  private readonly vendorId = randomUUID().toUpperCase();
  /** What each request goes through before and after its route (wda-requests.ts). */
  private readonly routes: WdaRoutes;

  constructor(
    readonly device: VirtualDevice,
    private readonly options: EmulatedWdaOptions = {},
  ) {
    this.scale = options.scale ?? device.scale;
    this.simulator = options.simulator ?? true;
    this.older = Boolean(options.before2024 || options.legacy);
    this.orientation = new EmulatedOrientation(device, this.faults);
    this.sessions = new WdaSessions(device, () => this.ctx());
    this.keyboard = new EmulatedKeyboard(device, this.scale, this.faults, this.sessions, { snapshotApp: () => this.snapshotApp(), sourceTree: () => this.sourceTree() });
    this.mjpeg = new EmulatedMjpegServer(device, {
      orientation: () => this.orientation.interfaceOrientation,
      fixOrientationSetting: !(options.before5_15 || options.legacy),
    });
    this.routes = { faults: this.faults, requests: this.requests, sessions: this.sessions, options, older: this.older, route: (method, path, url, body, inSession) => this.route(method, path, url, body, inSession) };
  }

  /** UIDevice's userInterfaceIdiom as WDA names it (FBSessionCommands.m deviceNameByUserInterfaceIdiom). */
  private get idiom(): Idiom {
    return /iPad/.test(this.device.info.model) ? 'ipad' : 'iphone';
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get listening(): boolean {
    return Boolean(this.server?.listening);
  }

  /** Starts listening (port 0 picks a free one the first time; later starts reuse it), as USE_PORT / MJPEG_SERVER_PORT pick. */
  async start(port = this.port, mjpegPort?: number): Promise<void> {
    const server = http.createServer((req, res) => void handleWdaRequest(this.routes, req, res));
    server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
    await this.mjpeg.start(mjpegPort);
  }

  /** Stops listening and drops open connections: WDA is absent until `start` again. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    this.sessions.id = null;
    await this.mjpeg.stop();
    if (!server) return;
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /**
   * Another client opens a session (Appium's, testing `bundleId` when given): WDA keeps one, so ours
   * ends (FBSessionCommands.m handleCreateSession), and the next session made kills this one.
   */
  foreignSession(bundleId?: string): Promise<string> {
    return this.sessions.create({ alwaysMatch: bundleId ? { bundleId } : {} });
  }

  /** Like the runner being relaunched: same port, no session. */
  async restart(): Promise<void> {
    await this.stop();
    await this.start(this.port);
  }

  private ctx(): CallContext {
    return { signal: new AbortController().signal };
  }

  private async route(method: string, path: string, url: URL, body: Record<string, unknown>, inSession: boolean): Promise<Json> {
    const d = this.device;
    const key = `${method} ${path}`;
    if (inSession && ACTIVE_APP_ROUTES.has(key)) this.sessions.checkTestedApp();
    switch (key) {
      case 'GET /status':
        if (this.faults.bareStatus) return { ready: true, message: 'WebDriverAgent is ready to accept commands' };
        return statusDocument(this.osVersion, this.simulator, this.options.sdkVersion, this.idiom);
      case 'POST /session': {
        if (typeof body.capabilities !== 'object' || body.capabilities === null) {
          throw new WdaFailure('session not created', 500, "'capabilities' is mandatory to create a new session");
        }
        await this.sessions.create(body.capabilities as Record<string, unknown>);
        this.sessionsCreated++;
        // resetSessionSettings: the MJPEG settings are process-level defaults it leaves alone.
        this.snapshotMaxDepth = SNAPSHOT_MAX_DEPTH;
        // FBSessionCommands.m sessionInformation: {sessionId, capabilities: currentCapabilities = {device, sdkVersion}}.
        return { sessionId: this.sessions.id, capabilities: { device: this.idiom, sdkVersion: d.info.version } };
      }
      case 'GET ':
        // FBSessionCommands.m handleGetActiveSession: sessionInformation.
        return { sessionId: this.sessions.id, capabilities: { device: this.idiom, sdkVersion: d.info.version } };
      case 'DELETE ':
        await this.sessions.kill();
        return null;
      case 'GET /wda/screen': {
        // FBCustomCommands.m handleGetScreen; older builds had neither screenSize nor the session-less route.
        if (this.older && !inSession) break;
        // screenSize is SpringBoard's frame turned with SpringBoard's own orientation, which on an iPhone stays
        // portrait while an app turns to landscape: the portrait size, whatever the app in front shows. An
        // iPad's SpringBoard turns with the device.
        const portrait = { width: Math.min(d.size.width, d.size.height) / this.scale, height: Math.max(d.size.width, d.size.height) / this.scale };
        const points = d.profile.homeScreenTurns ? { width: d.size.width / this.scale, height: d.size.height / this.scale } : portrait;
        return { ...(this.older ? {} : { screenSize: points }), statusBarSize: { width: points.width, height: d.profile.statusBarDp }, scale: this.scale };
      }
      case 'GET /wda/locked':
        // FBCustomCommands.m handleIsLocked: fb_isScreenLocked, from SpringBoard's lockstate notifications.
        return this.locked;
      case 'POST /wda/unlock':
        // XCUIDevice+FBHelpers.m fb_unlockScreen: Home twice (1 s apart), then up to FBScreenLockTimeout (5 s)
        // for SpringBoard's lockstate to clear; a passcode keeps it, and the spinner's error comes back
        // through FBResponseWithUnknownError. The real call takes about 7 s to say so; answered at once here.
        if (this.locked && this.passcode) throw wdaNsError('unknown error', 500, 'Timed out while waiting until the screen gets unlocked');
        this.locked = false;
        return null;
      case 'GET /wda/device/info':
        return deviceInfoDocument(this.options.name ?? (this.idiom === 'ipad' ? 'iPad' : 'iPhone'), this.vendorId, d.darkMode, this.simulator, this.idiom);
      case 'GET /wda/activeAppInfo':
        // FBCustomCommands.m handleActiveAppInfo: name is the app element's identifier; an app WDA did not launch has no arguments.
        // While the lock screen shows, XCTest's active application is SpringBoard.
        if (this.locked) return { pid: 58, bundleId: 'com.apple.springboard', name: '', processArguments: { args: [], env: {} } };
        return { pid: 4242, bundleId: d.foregroundPackage, name: '', processArguments: { args: [], env: {} } };
      case 'GET /screenshot':
        // FBScreenshot.m takeWithScreenID draws XCTest's portrait-stored picture upright (FBImageProcessor.m
        // scaledImageWithData, fixOrientation:YES, screenshotOrientation "auto"): the screen as the user sees it.
        return (await d.screenPng()).png.toString('base64');
      case 'GET /orientation':
        return this.orientation.read();
      case 'POST /orientation':
        // An iPhone's lock screen keeps portrait, so XCUIDevice+FBRotation.m sees SpringBoard not follow the device.
        if (this.locked) throw new WdaFailure('unknown error', 500, 'Unable To Rotate Device');
        return this.orientation.set(body.orientation, this.ctx());
    }
    switch (key) {
      case 'GET /window/size':
        // FBElementCommands.m handleGetWindowSize: the app's frame in points, turned with its interface orientation;
        // also withoutSession from 13f497e2 (October 2022), after the legacy protocol's time.
        if (this.options.legacy && !inSession) throw unhandled(url, this.older);
        return { width: d.size.width / this.scale, height: d.size.height / this.scale };
      case 'GET /source': {
        // FBDebugCommands.m handleGetSourceCommand (also withoutSession): format xml (the default), json or description.
        const format = url.searchParams.get('format') ?? 'xml';
        if (!['xml', 'json', 'description'].includes(format.toLowerCase())) {
          throw new WdaFailure('invalid argument', 400, `Unknown source format '${format}'. Only (\n    xml,\n    json,\n    description\n) source formats are supported.`);
        }
        const served = this.faults.sourceFormats ?? ['json', 'xml'];
        const asked = this.faults.sourceAlwaysXml ? 'xml' : format.toLowerCase();
        if (!served.includes(asked as 'json' | 'xml')) {
          throw new WdaFailure('invalid argument', 400, `Unknown source format '${format}'. Only (\n    ${served.join(',\n    ')}\n) source formats are supported.`);
        }
        this.snapshotApp();
        if (asked === 'json') return this.sourceTree();
        return wdaXml(this.sourceTree(), this.faults.xmlWithoutBundleId ? undefined : { pid: this.locked ? 58 : 4242, bundleId: this.locked ? 'com.apple.springboard' : d.foregroundPackage });
      }
    }
    if (!inSession) throw unhandled(url, this.older);
    switch (key) {
      case 'POST /elements':
        return this.keyboard.find(body);
      case 'POST /wda/keyboard/dismiss':
        return this.keyboard.dismissKeyboard(body.keyNames);
      case 'POST /url':
        return this.openUrl(body.url);
      case 'POST /actions':
        // XCTest synthesizes the events on the screen as it is: on a locked phone the lock screen gets them.
        if (this.locked) return this.onLockScreen();
        this.gestures.push(body.actions);
        await performActions(this.device, this.scale, body.actions, this.options.clock);
        if (this.faults.gesturesTakeTheirTime) await new Promise((r) => setTimeout(r, gestureMs(body.actions)));
        return null;
      case 'POST /wda/keys': {
        const value = body.value;
        // handleKeys sends componentsJoinedByString: to `value` unchecked: anything but an array raises, and
        // FBExceptionHandler.m answers the NSException's reason as "unknown error".
        if (!Array.isArray(value)) throw new WdaFailure('unknown error', 500, `-[${typeof value === 'string' ? '__NSCFString' : 'NSNull'} componentsJoinedByString:]: unrecognized selector sent to instance 0x600000c2d0e0`);
        if (this.locked) return this.onLockScreen();
        return this.keyboard.type(value);
      }
      case 'GET /element/active':
        return this.keyboard.active();
      case 'POST /wda/pressButton': {
        // XCUIDevice+FBHelpers.m fb_availableButtonNames: volumeup/volumedown only #if !TARGET_OS_SIMULATOR; any other
        // name fails through FBResponseWithUnknownError(error), i.e. the NSError's description (FBErrorBuilder, code 1).
        const buttons: Record<string, Button> = this.simulator ? { home: 'HOME' } : { home: 'HOME', volumeup: 'VOLUME_UP', volumedown: 'VOLUME_DOWN' };
        const button = buttons[String(body.name ?? '').toLowerCase()];
        if (!button) throw refusedButton(String(body.name), this.simulator, Boolean(this.options.legacy || this.options.before2024));
        await d.pressButton(button, this.ctx());
        return null;
      }
      case 'GET /appium/settings':
        return this.settings();
      case 'POST /appium/settings': {
        // FBSessionCommands.m handleSetSettings: known keys are applied, the whole settings come back.
        // Absent settings change nothing; unknown keys are skipped (FBSettingsHandler.m applySettings).
        const settings = body.settings ?? {};
        if (typeof settings !== 'object' || settings === null || Array.isArray(settings)) throw new WdaFailure('invalid argument', 400, 'settings must be a dictionary');
        for (const [k, v] of Object.entries(settings)) {
          this.mjpeg.apply(k, v);
          // FBSettingsHandler.m: [value intValue] goes straight to FBConfiguration.snapshotMaxDepth.
          if (k === 'snapshotMaxDepth' && typeof v === 'number') this.snapshotMaxDepth = Math.trunc(v);
        }
        return this.settings();
      }
      case 'POST /wda/apps/launch': {
        const id = String(body.bundleId);
        if (!d.installedApps.some((a) => a.package === id)) throw missingApp(id);
        await d.launchApp(id, this.ctx());
        this.sessions.testedAppLaunched(id, true);
        if (this.faults.crashOnLaunch?.includes(id)) await d.terminateApp(id, this.ctx());
        return null;
      }
      case 'POST /wda/apps/terminate':
        // FBSession terminateApplicationWithBundleId: YES when it was running and was terminated, else NO (an app
        // that is not installed does not run either).
        this.sessions.testedAppLaunched(String(body.bundleId), false);
        if (!d.installedApps.some((a) => a.package === body.bundleId)) return false;
        return (await d.terminateApp(String(body.bundleId), this.ctx())) === true;
      case 'POST /wda/apps/state':
        // XCUIApplicationState: 0 for an app that is not installed (appium's queryAppState documents 0 as "not
        // installed"), 1 not running, 4 running in foreground.
        if (!d.installedApps.some((a) => a.package === body.bundleId)) return 0;
        return d.foregroundPackage === body.bundleId ? 4 : 1;
    }
    const clear = /^\/element\/([^/]+)\/clear$/.exec(path);
    if (method === 'POST' && clear) return this.keyboard.clearElement(decodeURIComponent(clear[1]));
    throw unhandled(url, this.older);
  }

  /** UIDevice systemVersion, as /status reports it. */
  private get osVersion(): string {
    return this.options.osVersion ?? this.device.info.version;
  }

  /**
   * FBSessionCommands.m handleOpenURL → XCUIDevice+FBHelpers.m fb_openUrl: XCTest's openDefaultApplicationForURL, which
   * a runtime before iOS 16.4 (or a runner built with an older SDK) lacks ("The current OS runtime does not support
   * opening URLs…", FBXCTestDaemonsProxy.m); its "does not support" sends the URL to Siri as "Open {url}" and the
   * answer is success, whatever Siri makes of it (modelled as: nothing opens; `siriRequests` counts them). Any other
   * failure comes back through FBResponseWithUnknownError: 500 "unknown error" with the NSError's description. For a
   * scheme no app handles, that NSError is LaunchServices' kLSApplicationNotFoundErr (-10814); its description's
   * wording here is not captured from a device.
   */
  private async openUrl(url: unknown): Promise<null> {
    if (typeof url !== 'string') throw new WdaFailure('invalid argument', 400, 'URL is required');
    const old = (v: string) => {
      const [major, minor] = v.split('.').map(Number);
      return major < 16 || (major === 16 && (minor || 0) < 4);
    };
    if (old(this.osVersion) || old(this.options.sdkVersion ?? '17.5')) {
      this.siriRequests.push(`Open {${url}}`);
      return null;
    }
    try {
      await this.device.openUrl(url, this.ctx());
    } catch (err) {
      if (err instanceof Error && /^no app on .* handles/.test(err.message)) {
        throw new WdaFailure('unknown error', 500, `Error Domain=NSOSStatusErrorDomain Code=-10814 "(null)" UserInfo={_LSLine=225, _LSFunction=_LSOpenStuffCallLocal}`);
      }
      throw err;
    }
    return null;
  }

  /** The fault `snapshotFailures`: XCTest gets no snapshot of the app in front. */
  private snapshotApp(): void {
    if (this.faults.treeTooDeep) throw noSnapshot(this.device.foregroundPackage, 'Error kAXErrorIllegalArgument getting snapshot for element  {pid=83633} {uid=[ID:1 hash:0x0]}');
    if (!this.faults.snapshotFailures) return;
    this.faults.snapshotFailures--;
    throw noSnapshot(this.device.foregroundPackage);
  }

  private onLockScreen(): null {
    this.inputOnLockScreen++;
    return null;
  }

  /** What /source serves: the virtual phone's hierarchy as WDA's JSON tree, with the faults applied. */
  private sourceTree(): WdaJsonNode {
    const d = this.device;
    if (this.locked) return lockScreenTree(this.scale, d.size);
    const app = d.installedApps.find((a) => a.package === d.foregroundPackage)?.name ?? 'Home Screen';
    const full = wdaTree(d.uiTree(), this.scale, app, { width: d.size.width, height: d.size.height });
    const tree = this.faults.hardwareKeyboard ? withoutKeyboards(full) : full;
    return cutAtDepth(this.faults.decorateSource ? this.faults.decorateSource(tree) : tree, this.snapshotMaxDepth);
  }

  /** The session's appium settings this emulation knows (FBSettingsHandler.m currentSettings). */
  private settings(): Record<string, number | boolean> {
    return { ...this.mjpeg.settings, snapshotMaxDepth: this.snapshotMaxDepth };
  }
}

