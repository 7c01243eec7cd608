import type { CallContext, DeviceHandle, ElementListing, PngImage, TracePoint, VideoOptions, VideoStream } from '../../driver.js';
import { ToolError } from '../../errors.js';
import type { Button, DeviceInfo, FingerPath, InstalledApp, Key, Orientation } from '../../types.js';
import { elementsFromTree, type ScreenSize } from '../../ui-tree.js';
import type { AppControl, InstalledProbe } from './app-control.js';
import { bundleIdAfterInstall } from './installed-bundle.js';
import { LockGuard, type WdaRoute } from './lock-guard.js';
import { MjpegStream, type MjpegTarget } from './mjpeg-stream.js';
import { sleep, timeoutSignal } from '../../deadline.js';
import { unlessLacking } from './tool-lacks.js';
import { WdaError, WdaUnreachableError, isRepeatable } from './wda-client.js';
import { withoutCoveredNodes } from './wda-covering.js';
import { launchEither, terminateEither } from './wda-apps.js';
import type { WdaEndpoint } from './wda-endpoint.js';
import { doubleTapAt, pinchSources, pressAt, swipeBetween, touchSource, tracedPath } from './wda-gestures.js';
import { WdaKeyboard } from './wda-keyboard.js';
import { WdaFrontApp } from './wda-front-app.js';
import { LackingRoutes } from './wda-lacking.js';
import { confirmLaunch } from './wda-launch-check.js';
import { siriNote } from './wda-open-url.js';
import { readsWholeApp, treeRefused, wdaRefusal } from './wda-refusals.js';
import { WdaSettings } from './wda-settings.js';
import { WdaScreen, type ScreenInfo } from './wda-screen.js';
import { WdaSourceReader } from './wda-source-read.js';
import { depthCutNote, snapshotMaxDepthOf, wdaToUiNode, type WdaNode } from './wda-source.js';

/** How long a launch failure waits to ask WebDriverAgent whether the screen is locked. */
const LOCK_PROBE_MS = 3000;
/** How long a read waits before asking again when XCTest could not snapshot the app in front. */
const SNAPSHOT_RETRY_MS = 500;

/** JPEG quality asked of WDA's MJPEG server (its default, 25, smears text). */
const MJPEG_QUALITY = 50;
/**
 * An MJPEG server that sends nothing this long after the request counts as absent; one that answered gets longer;
 * a live one that goes quiet longer than WDA ever waits between pictures has stalled (mjpeg-stream.ts).
 */
const MJPEG_WAIT = { firstPictureMs: 3000, answeredMs: 10_000, stalledMs: 12_000 };

/** WDA's pressButton names (XCUIDevice+FBHelpers.m fb_pressButton: "home", "volumeUp", "volumeDown"). */
const WDA_BUTTONS: Partial<Record<Button, string>> = { HOME: 'home', VOLUME_UP: 'volumeUp', VOLUME_DOWN: 'volumeDown' };

/**
 * One iOS simulator or phone. UI work goes through WebDriverAgent (coordinates in points there,
 * converted here so every public coordinate is a device pixel); app lifecycle goes through the
 * platform tool behind `apps`.
 */
export class IosDevice implements DeviceHandle {
  private scale: number | undefined;
  private osVersions: { version?: string; sdk?: string } | undefined;
  private readonly settings: WdaSettings;
  private readonly keyboard: WdaKeyboard;
  private readonly lock: LockGuard;
  private readonly display: WdaScreen;
  private readonly front: WdaFrontApp;
  private readonly sourceReader: WdaSourceReader;

  constructor(
    readonly info: DeviceInfo,
    private readonly apps: AppControl,
    private readonly wda: WdaEndpoint,
    /** Where WebDriverAgent's MJPEG server answers (a usbmuxd relay for a USB iPhone); absent: no video. */
    private readonly mjpeg?: (signal?: AbortSignal) => Promise<MjpegTarget>,
    /**
     * Asked when WebDriverAgent cannot be reached: the error to give instead when the device itself is gone
     * (a simulator no longer booted), for WDA is then not what needs fixing.
     */
    private readonly goneWhenUnreachable?: (signal?: AbortSignal) => Promise<ToolError | undefined>,
  ) {
    // Routes this WDA answered "unknown command" for (wda-lacking.ts): their stand-ins are used straight away.
    const lacking = new LackingRoutes(() => this.wda.client);
    this.sourceReader = new WdaSourceReader((path, ctx) => this.wdaCall('GET', path, undefined, ctx), lacking);
    this.keyboard = new WdaKeyboard(info.id, (method, path, body, ctx) => this.wdaCall(method, path, body, ctx), (ctx) => this.readSource(ctx), lacking);
    this.lock = new LockGuard(info.id, lacking);
    this.front = new WdaFrontApp(lacking, (m, p, b, c, inSession) => this.wdaCall(m, p, b, c, inSession), (ctx) => this.readSource(ctx), (signal) => this.apps.listApps(signal));
    this.settings = new WdaSettings(lacking, (m, p, b, c) => this.wdaCall(m, p, b, c), () => this.wda.client);
    this.display = new WdaScreen(info.id, (path, ctx, inSession) => this.wdaCall('GET', path, undefined, ctx, inSession), lacking);
  }

  /**
   * WDA's MJPEG server as live `jpeg` video: framerate and a scaling factor for `maxSize` go through
   * the session's appium settings first (FBConfiguration.m: mjpegServerFramerate, mjpegScalingFactor,
   * mjpegServerScreenshotQuality). mjpegFixOrientation (default NO, WebDriverAgent 5.15.1 on) has WDA draw
   * landscape pictures upright (FBImageProcessor.m fixedImageDataWithImageData); without it they come
   * portrait-stored with an EXIF orientation, and builds before 5.15.1 ignore it: mjpeg-stream.ts turns those.
   */
  async openVideo(options: VideoOptions): Promise<VideoStream> {
    if (!this.mjpeg) throw new ToolError('UNSUPPORTED', `${this.info.id} has no MJPEG endpoint configured`);
    const ctx = { signal: AbortSignal.timeout(10_000) };
    const size = this.pixels(await this.screen(ctx));
    const longest = Math.max(size.width, size.height);
    const scaling = options.maxSize > 0 && longest > options.maxSize ? Math.max(1, Math.floor((options.maxSize * 100) / longest)) : 100;
    const framerate = (fps: number) => Math.min(60, Math.max(1, fps));
    const settings = { mjpegServerFramerate: framerate(options.maxFps), mjpegScalingFactor: scaling, mjpegServerScreenshotQuality: MJPEG_QUALITY, mjpegFixOrientation: true };
    const applied = await this.settings.post(settings, ctx);
    // A build that knows mjpegFixOrientation (its settings answer lists it) draws the picture into a renderer of
    // the scaled size whose scale is the factor again (FBImageProcessor.m fixedImageDataWithImageData): the
    // factor applies twice, so its square root gives the size asked for (rounded down: never over maxSize).
    if (scaling < 100 && typeof applied === 'object' && applied !== null && 'mjpegFixOrientation' in applied) {
      await this.settings.post({ mjpegScalingFactor: Math.max(1, Math.floor(Math.sqrt(scaling / 100) * 100)) }, ctx);
    }
    // A faster viewer joining later raises the rate in place: WDA reads the setting before every picture.
    const retune = (fps: number) => this.settings.post({ mjpegServerFramerate: framerate(fps) }, { signal: AbortSignal.timeout(10_000) });
    return MjpegStream.open(await this.mjpeg(ctx.signal), MJPEG_WAIT, retune);
  }

  listApps(ctx: CallContext): Promise<InstalledApp[]> {
    return this.apps.listApps(ctx.signal);
  }

  async launchApp(pkg: string, ctx: CallContext): Promise<string | undefined> {
    let launcher: string | undefined;
    try {
      // WebDriverAgent stands in for a tool that lacks the command (wda-apps.ts).
      launcher = await launchEither(this.apps, (m, p, b, c) => this.wdaCall(m, p, b, c), pkg, this.installedProbe(pkg, ctx), ctx);
    } catch (err) {
      if (err instanceof ToolError && err.code === 'INTERNAL' && (await this.locked(ctx))) {
        // Not the developer-image hint the failure carries: WDA says the screen is locked, and that is why.
        throw new ToolError('PERMISSION_DENIED', `${this.info.id} is locked, so ${pkg} could not be launched: unlock it, then launch again`);
      }
      throw err;
    }
    return launcher === undefined ? undefined : confirmLaunch(this.front, this.info.id, pkg, launcher, ctx);
  }

  private async locked(ctx: CallContext): Promise<boolean> {
    const signal = AbortSignal.any([ctx.signal, timeoutSignal(LOCK_PROBE_MS)]);
    return (await this.lock.isLocked(this.wdaRoute({ ...ctx, signal })).catch(() => undefined)) === true;
  }

  terminateApp(pkg: string, ctx: CallContext): Promise<boolean | undefined> {
    return terminateEither(this.apps, (m, p, b, c) => this.wdaCall(m, p, b, c), pkg, this.installedProbe(pkg, ctx), this.info.id, ctx);
  }

  async installApp(path: string, ctx: CallContext): Promise<{ package: string }> {
    // A tool that cannot list apps leaves the bundle id to the file's Info.plist.
    const before = await unlessLacking(this.apps.listApps(ctx.signal));
    await this.apps.install(path, ctx.signal);
    const after = before && (await this.apps.listApps(ctx.signal));
    return { package: await bundleIdAfterInstall(path, before ?? [], after ?? [], this.info.id) };
  }

  uninstallApp(pkg: string, ctx: CallContext): Promise<void> {
    return this.apps.uninstall(pkg, ctx.signal, this.installedProbe(pkg, ctx));
  }

  /** XCUIApplicationState 0 is "not installed" (appium's queryAppState): asked only where the tool cannot list apps. */
  private installedProbe(pkg: string, ctx: CallContext): InstalledProbe {
    return () => this.front.state(pkg, ctx).then((s) => (typeof s === 'number' ? s > 0 : undefined), (err: unknown) => (ctx.signal.aborted ? Promise.reject(err) : undefined));
  }

  async clearAppData(pkg: string): Promise<void> {
    throw new ToolError('UNSUPPORTED', `iOS cannot clear the data of ${pkg} on ${this.info.id} without removing the app: uninstall and install it again (mobile_uninstall_app, then mobile_install_app)`);
  }

  async setWifi(enabled: boolean): Promise<void> {
    throw new ToolError('UNSUPPORTED', `iOS does not let automation turn Wi-Fi ${enabled ? 'on' : 'off'} on ${this.info.id}: change it by hand in Settings › Wi-Fi (or Control Center)`);
  }

  async foregroundApp(ctx: CallContext): Promise<{ package: string; name?: string }> {
    const front = await this.front.front(undefined, ctx);
    if (front.bundleId) return { package: front.bundleId };
    if (front.fromSource && front.name) {
      throw new ToolError('UNSUPPORTED', `WebDriverAgent on ${this.info.id} lacks GET /wda/activeAppInfo, and its /source shows the app in front only by name, ${JSON.stringify(front.name)}, which does not tell its bundle id (no single installed app has that name, or the apps cannot be listed here): update WebDriverAgent to a recent appium/WebDriverAgent build`);
    }
    throw new ToolError('INTERNAL', `WebDriverAgent on ${this.info.id} did not say which app is in front`);
  }

  async screenshot(ctx: CallContext): Promise<PngImage> {
    // GET /screenshot → base64 PNG at the device's native pixel size.
    const value = await this.wdaCall('GET', '/screenshot', undefined, ctx, false);
    if (typeof value !== 'string') throw new ToolError('INTERNAL', `WebDriverAgent on ${this.info.id} returned a screenshot that is not base64 text`);
    const png = Buffer.from(value, 'base64');
    if (png.length < 24 || png.readUInt32BE(12) !== 0x49484452) throw new ToolError('INTERNAL', `WebDriverAgent on ${this.info.id} returned a screenshot that is not a PNG`);
    return { png, width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
  }

  async listElements(ctx: CallContext): Promise<ElementListing> {
    // A locked phone's /source is SpringBoard's lock screen, which would pass for the app's screen. Asked
    // beside the listing, so an unlocked phone (nearly always) pays no round trip more; listed again once unlocked.
    const [wasLocked, listing] = await Promise.all([
      this.lock.ensureUnlocked('listing the elements', this.wdaRoute(ctx), { blocked: "only the lock screen's elements could be listed, not the app's" }),
      this.listScreen(ctx),
    ]);
    return wasLocked ? this.listScreen(ctx) : listing;
  }

  private async listScreen(ctx: CallContext): Promise<ElementListing> {
    const screen = await this.screen(ctx);
    // The depth setting is read each time (another client of a shared WDA may have changed it),
    // beside /source when a session is open; after it when that failed (it may have re-created the session).
    const beside = this.settings.beside(ctx.signal);
    const tree = await this.readSource(ctx);
    const root = wdaToUiNode(withoutCoveredNodes(tree), screen.scale);
    const elements: ElementListing = elementsFromTree(root, this.pixels(screen));
    const settings = await this.settings.read(beside, ctx.signal);
    const note = depthCutNote(tree, snapshotMaxDepthOf(settings));
    if (note) elements.note = note;
    return elements;
  }

  /** The app in front's accessibility tree (GET /source, in points). */
  private readSource(ctx: CallContext): Promise<WdaNode & { bundleId?: string }> {
    return this.sourceReader.read(ctx);
  }

  async screenSize(ctx: CallContext): Promise<ScreenSize> {
    return this.pixels(await this.screen(ctx));
  }

  async tap(x: number, y: number, ctx: CallContext): Promise<void> {
    await this.unlocked('the tap', ctx);
    const s = await this.scaleOf(ctx);
    await this.pointer(ctx, pressAt(x / s, y / s, 50));
  }

  async doubleTap(x: number, y: number, ctx: CallContext): Promise<void> {
    await this.unlocked('the double tap', ctx);
    const s = await this.scaleOf(ctx);
    await this.pointer(ctx, doubleTapAt(x / s, y / s));
  }

  async longPress(x: number, y: number, durationMs: number, ctx: CallContext): Promise<void> {
    await this.unlocked('the long press', ctx);
    const s = await this.scaleOf(ctx);
    await this.pointer(ctx, pressAt(x / s, y / s, durationMs));
  }

  async swipe(fromX: number, fromY: number, toX: number, toY: number, durationMs: number, ctx: CallContext): Promise<void> {
    await this.unlocked('the swipe', ctx);
    const s = await this.scaleOf(ctx);
    await this.pointer(ctx, swipeBetween({ x: fromX / s, y: fromY / s }, { x: toX / s, y: toY / s }, durationMs));
  }

  async pinch(fingers: readonly [FingerPath, FingerPath], durationMs: number, ctx: CallContext): Promise<void> {
    await this.unlocked('the pinch', ctx);
    await this.wdaCall('POST', '/actions', { actions: pinchSources(fingers, durationMs, await this.scaleOf(ctx)) }, ctx);
  }

  async tracePath(path: readonly TracePoint[], ctx: CallContext): Promise<void> {
    await this.unlocked('the gesture', ctx);
    await this.pointer(ctx, tracedPath(path, await this.scaleOf(ctx)));
  }

  async pressKey(key: Key, ctx: CallContext): Promise<void> {
    await this.unlocked(`the ${key} key`, ctx);
    return this.keyboard.pressKey(key, ctx);
  }

  async typeText(text: string, ctx: CallContext): Promise<void> {
    await this.unlocked('the typing', ctx);
    return this.keyboard.typeText(text, ctx);
  }

  async clearText(ctx: CallContext): Promise<void> {
    await this.unlocked('clearing the field', ctx);
    return this.keyboard.clearText(ctx);
  }

  dismissKeyboard(ctx: CallContext): Promise<void> {
    return this.keyboard.dismissKeyboard(ctx);
  }

  async pressButton(button: Button, ctx: CallContext): Promise<void> {
    // The keyboard's Return key, with the advice for a key rather than for typing.
    if (button === 'ENTER') return this.pressKey('ENTER', ctx);
    const name = WDA_BUTTONS[button];
    if (!name) {
      throw new ToolError('INVALID_PARAMETER', `button ${button} does not exist on iOS (${this.info.id}); tap the app's own back button or use the press_back verb. Allowed: HOME, VOLUME_UP, VOLUME_DOWN, ENTER`);
    }
    await this.wdaCall('POST', '/wda/pressButton', { name }, ctx);
  }

  /**
   * Simulators open URLs with `simctl openurl`; phones through WDA's POST /url (FBSessionCommands.m handleOpenURL,
   * XCUIDevice+FBHelpers.m fb_openUrl). WDA opens the URL with XCTest's openDefaultApplicationForURL, which exists
   * from iOS 16.4 (and in runners built with the iOS 16.4 SDK, Xcode 14.3, on); without it WDA asks Siri to
   * "Open {url}" and answers success whatever came of it. Below 16.4 (the phone's os.version or WDA's sdkVersion in
   * /status) the URL is still sent, and the answer says nothing confirms that it opened.
   */
  async openUrl(url: string, ctx: CallContext): Promise<string | undefined> {
    // A simctl without openurl leaves the URL to WebDriverAgent, as on iPhones.
    if (this.apps.openUrl && (await unlessLacking(this.apps.openUrl(url, ctx.signal).then(() => true)))) return undefined;
    const os = await this.wdaOs(ctx);
    await this.wdaCall('POST', '/url', { url }, ctx);
    return siriNote(os, this.info.id, url);
  }

  /** /status os.version (UIDevice systemVersion) and os.sdkVersion (the SDK WDA was built with), read once. */
  private async wdaOs(ctx: CallContext): Promise<{ version?: string; sdk?: string }> {
    if (this.osVersions) return this.osVersions;
    const status = (await this.wdaCall('GET', '/status', undefined, ctx, false)) as { os?: { version?: unknown; sdkVersion?: unknown } } | null;
    const str = (v: unknown) => (typeof v === 'string' && v ? v : undefined);
    // A /status without os (an emulation of WDA answering a few fields): the version the device was listed with.
    this.osVersions = { version: str(status?.os?.version) ?? str(this.info.version), sdk: str(status?.os?.sdkVersion) };
    return this.osVersions;
  }

  async getOrientation(ctx: CallContext): Promise<Orientation> {
    // GET /orientation → "PORTRAIT" | "LANDSCAPE" (FBOrientationCommands.m maps both landscape sides to LANDSCAPE),
    // or null when the interface orientation is unknown (outside its mapping): then the screen's shape tells.
    const value = await this.wdaCall('GET', '/orientation', undefined, ctx);
    if (typeof value === 'string' && /LANDSCAPE/i.test(value)) return 'landscape';
    if (typeof value === 'string' && /PORTRAIT/i.test(value)) return 'portrait';
    const screen = await this.screen(ctx);
    if (screen.width === screen.height) {
      throw new ToolError('INTERNAL', `WebDriverAgent on ${this.info.id} reports no interface orientation (${JSON.stringify(value)}) and the screen is square, so the orientation is unknown`);
    }
    return screen.width > screen.height ? 'landscape' : 'portrait';
  }

  async setOrientation(orientation: Orientation, ctx: CallContext): Promise<void> {
    try {
      await this.wdaCall('POST', '/orientation', { orientation: orientation.toUpperCase() }, ctx);
    } catch (err) {
      // XCUIDevice+FBRotation.m turns the device, then checks that the app in front followed; one whose
      // supported orientations lack this one stays, and WDA answers 500 "Unable To Rotate Device".
      if (!(err instanceof ToolError && /Unable To Rotate Device/i.test(err.message))) throw err;
      // An iPhone's lock screen stays portrait: SpringBoard, not the app, is what did not turn.
      if (await this.locked(ctx)) {
        throw new ToolError('PERMISSION_DENIED', `${this.info.id} is locked, and its lock screen does not turn, so it stayed as it was: unlock it, then set the orientation again`);
      }
      const front = await this.wdaCall('GET', '/wda/activeAppInfo', undefined, ctx, false).catch(() => null) as { bundleId?: unknown; name?: unknown } | null;
      const app = typeof front?.bundleId === 'string' ? `${typeof front.name === 'string' && front.name ? `${front.name} (${front.bundleId})` : front.bundleId}, the app in front,` : 'the app in front';
      throw new ToolError('UNSUPPORTED', `${app} does not support ${orientation} on ${this.info.id}: iOS kept it as it was. Bring an app that supports ${orientation} to the front to rotate`);
    }
  }

  close(): void {
    this.wda.close();
  }

  /** W3C actions (POST /actions): one touch pointer, coordinates in points. */
  private async pointer(ctx: CallContext, actions: object[]): Promise<void> {
    await this.wdaCall('POST', '/actions', { actions: [touchSource('finger1', actions)] }, ctx);
  }

  private async scaleOf(ctx: CallContext): Promise<number> {
    return this.scale ?? (await this.screen(ctx)).scale;
  }

  /** The screen in points and its scale (wda-screen.ts); the scale is kept for input, which needs no size. */
  private async screen(ctx: CallContext): Promise<ScreenInfo> {
    const screen = await this.display.read(ctx);
    this.scale = screen.scale;
    return screen;
  }

  /** Input only reaches the app on an unlocked phone (lock-guard.ts). */
  private async unlocked(what: string, ctx: CallContext): Promise<void> {
    await this.lock.ensureUnlocked(what, this.wdaRoute(ctx));
  }

  /** Routes outside the session (/wda/locked, /wda/unlock) within the caller's deadline. */
  private wdaRoute(ctx: CallContext): WdaRoute {
    return (method, path) => this.wdaCall(method, path, undefined, ctx, false);
  }

  private pixels(screen: ScreenInfo): ScreenSize {
    return { width: Math.round(screen.width * screen.scale), height: Math.round(screen.height * screen.scale) };
  }

  private async wdaCall(method: string, path: string, body: unknown, ctx: CallContext, inSession = true): Promise<unknown> {
    try {
      await this.wda.ready(ctx.signal);
    } catch (err) {
      throw err instanceof ToolError && err.code === 'UNSUPPORTED' ? await this.unreachable(err, ctx) : err;
    }
    const send = (client = this.wda.client) => (inSession ? client.sessionCall(method, path, body, ctx.signal) : client.call(method, path, body, ctx.signal));
    const sentThrough = this.wda.client;
    try {
      return await send(sentThrough);
    } catch (err) {
      if (err instanceof WdaError && err.error === 'stale element reference' && readsWholeApp(method, path) && !treeRefused(err)) {
        await sleep(SNAPSHOT_RETRY_MS, ctx.signal);
        return this.rethrowing(send, method, path, body);
      }
      if (!(err instanceof WdaUnreachableError)) throw err instanceof WdaError ? wdaRefusal(err, method, path, body, this.info.id) : err;
      const repeatable = !err.sent || isRepeatable(method, path);
      if (await this.wda.recover(sentThrough, ctx.signal)) {
        // The link was re-established (a replugged iPhone gets a new relay); repeat only what is safe to repeat.
        if (repeatable) return this.rethrowing(send, method, path, body);
        throw new ToolError('INTERNAL', `the connection to ${this.info.id} broke during ${method} ${path} and has been re-established; it may or may not have been carried out, so it was not sent again: check the screen, then repeat it`);
      }
      if (!repeatable && err.staleSocket) {
        throw new ToolError('INTERNAL', `the connection to WebDriverAgent on ${this.info.id} was reset during ${method} ${path}; it may or may not have been carried out, so it was not sent again: check the screen before repeating it`);
      }
      throw await this.unreachable(err, ctx);
    }
  }

  /** WDA not answering (or not startable): the device gone instead, when it is (goneWhenUnreachable), else `err`. */
  private async unreachable(err: ToolError, ctx: CallContext): Promise<ToolError> {
    if (!this.goneWhenUnreachable || ctx.signal.aborted) return err;
    return (await this.goneWhenUnreachable(ctx.signal).catch(() => undefined)) ?? err;
  }

  private async rethrowing(send: () => Promise<unknown>, method: string, path: string, body: unknown): Promise<unknown> {
    try {
      return await send();
    } catch (err) {
      throw err instanceof WdaError ? wdaRefusal(err, method, path, body, this.info.id) : err;
    }
  }
}
