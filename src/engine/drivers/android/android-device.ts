import type { CallContext, DeviceHandle, DeviceProperties, FitSize, FittedScreen, PngImage, RawImage, VideoOptions, VideoStream } from '../../driver.js';
import { ToolError } from '../../errors.js';
import type { Button, DeviceInfo, FingerPath, InstalledApp, Key, CtrlLetter, Orientation, TouchPhase, UiElement } from '../../types.js';
import type { ScreenSize } from '../../ui-tree.js';
import type { AdbAddress } from './adb-address.js';
import { AndroidApps } from './app-manager.js';
import type { AdbDeviceClient } from './adb-client.js';
import * as deviceSettings from './device-settings.js';
import { doubleTapGesture, inputRefusal, keyGesture, longPressGesture, pinchSteps, swipeGesture, tapGesture, type Gesture } from './input-commands.js';
import { MonkeyChannel } from './monkey-channel.js';
import { AndroidTouch } from './touch-input.js';
import { ControlUnavailable } from './scrcpy/control-unavailable.js';
import { DEFAULT_SCRCPY_OPTIONS, ScrcpyManager, type ScrcpyManagerOptions } from './scrcpy/scrcpy-manager.js';
import { awaitRotation, orientationAt, rotationFor, type RotationIo } from './rotation.js';
import { parseScreenState, SCREEN_STATE_COMMAND, ScreenGuard } from './screen-state.js';
import { AndroidScreenCapture } from './screen-capture.js';
import { DeviceShell } from './device-shell.js';
import { pushBytes } from './sync-push.js';
import { uiServerFor, type Uia2Server, type UiServerApks } from './ui-server/uia2-server.js';
import type { CaptureChoice, ScreencapMode } from './capture-choice.js';
import { DeviceScreenSize } from './screen-size.js';
import { otherRotation, RotationUnreadable, shownRotation, type ShownRotationIo } from './shown-rotation.js';
import { throwIfDenied } from './denials.js';
import { clearText, typeText, type TypingIo } from './text-typing.js';
import { ElementListing, rotate } from './element-listing.js';

export interface AndroidDeviceOptions {
  /** `monkey`: persistent `monkey --port` injector with `input` as fallback; `input`: one `input` process per gesture. */
  input: 'monkey' | 'input';
  /**
   * `raw`: pixels from `screencap`, encoded on the host; `png`: `screencap -p` encoded on the device;
   * `auto`: raw for frames and files, and for agents' (shrunk) screenshots whichever of the two
   * measured faster on this device (capture-choice.ts).
   */
  screencap: ScreencapMode;
  /** Overrides for the scrcpy session (grace period, bind timeout, key-frame interval). */
  scrcpy?: Partial<ScrcpyManagerOptions>;
  /** `auto`: element trees (and Unicode typing) from the on-device UiAutomator2 server when it is installed or its APKs are given; `off`: always `uiautomator dump`. */
  uiServer?: 'auto' | 'off';
  uiServerApks?: UiServerApks;
  /** How long a launch waits for the app's first frame before looking at what is in front; default 10 s. */
  launchWaitMs?: number;
}

/**
 * How long a launch waits for the app's first frame: as long as Android's own idle timeout, so a
 * crash that nothing reports (Android 11 and older) costs this much, well inside a call's deadline.
 */
const DEFAULT_LAUNCH_WAIT_MS = 10_000;

/** One device behind the adb server. Every method is one `exec:` round trip unless its comment says otherwise. */
export class AndroidDevice implements DeviceHandle {
  private readonly monkey: MonkeyChannel;
  /** scrcpy-server: live video, and input over its control socket while it runs. */
  private readonly scrcpy: ScrcpyManager;
  private readonly screenGuard: ScreenGuard;
  /** `uiautomator dump /dev/tty` works (not on an adbd whose `exec:` has no terminal; see dumpTree). */
  private ttyDumps = true;
  /** The UiAutomator2 server, when enabled: a warm element tree instead of a `uiautomator dump` per listing. */
  readonly uiServer: Uia2Server | undefined;
  /** Unrotated size from `wm size`; rotation comes with each dump, so listing elements needs no extra call (screen-size.ts). */
  private readonly size: DeviceScreenSize;
  private readonly elementListing: ElementListing;
  private readonly capture: AndroidScreenCapture;
  private readonly touches: AndroidTouch;
  private readonly apps: AndroidApps;
  /** Shell commands with the driver's error mapping (device-shell.ts). */
  private readonly shell: DeviceShell;
  private readonly typing: TypingIo;
  private readonly rotation: RotationIo;
  private readonly settingsShell: deviceSettings.SettingsShell;
  private readonly rotationSources: ShownRotationIo;

  constructor(
    readonly info: DeviceInfo,
    device: AdbDeviceClient,
    address: AdbAddress,
    private readonly options: AndroidDeviceOptions,
    /** The device through a client that never starts an adb server, for the state checks after a failure. */
    asked: AdbDeviceClient = device,
  ) {
    this.monkey = new MonkeyChannel(device);
    this.shell = new DeviceShell(info.id, device, address, asked);
    this.size = new DeviceScreenSize({
      text: (command, ctx, what) => this.shell.text(command, ctx, what),
      parse: (ctx, what, work) => this.shell.parse(ctx, what, work),
      followDisplay: (out) => this.capture.followDisplay(out),
      severalPanels: () => this.capture.severalDisplays,
    });
    const physical = { read: () => this.size.remembered({ signal: AbortSignal.timeout(10_000) }), known: () => this.size.known };
    this.scrcpy = new ScrcpyManager(device, info.id, physical, { ...DEFAULT_SCRCPY_OPTIONS, ...options.scrcpy }, { device: asked, server: `${address.host}:${address.port}` });
    this.screenGuard = new ScreenGuard(info.id);
    this.capture = new AndroidScreenCapture(options.screencap, {
      serial: info.id,
      release: info.version,
      exec: (command, ctx, what) => this.shell.exec(command, ctx, what),
      text: (command, ctx, what) => this.shell.text(command, ctx, what),
      stream: (command, ctx, sink) => this.shell.stream(command, ctx, sink),
      parse: (ctx, what, work) => this.shell.parse(ctx, what, work),
      logicalSize: (ctx) => this.size.remembered(ctx),
      currentSize: (ctx) => this.size.current(ctx),
      readScreenSize: (ctx) => this.size.read(ctx),
    });
    if (options.uiServer !== 'off') this.uiServer = uiServerFor(device, info.id, options.uiServerApks);
    this.apps = new AndroidApps({
      serial: info.id,
      release: info.version,
      text: (command, ctx, what) => this.shell.text(command, ctx, what),
      checkedText: (command, ctx, what) => this.shell.checkedText(command, ctx, what),
      fed: (command, input, ctx, what) => this.shell.fed(command, input, ctx, what),
      push: (data, path, ctx) => this.shell.guard(ctx, `pushing ${path}`, () => pushBytes(device, data, path, 0o644, ctx.signal)),
      guard: (ctx, what, work) => this.shell.guard(ctx, what, work),
      makeScreenUsable: (ctx, what, options) => this.usableScreen(ctx, what, options),
      launchWaitMs: options.launchWaitMs ?? DEFAULT_LAUNCH_WAIT_MS,
      // While our server holds the one UiAutomation connection, `uiautomator dump` cannot run: its source can.
      dumpTree: (ctx) => this.hierarchy(ctx),
    });
    this.elementListing = new ElementListing({
      serial: info.id,
      served: async (signal) => this.uiServer?.source(signal),
      serverReady: async () => (await this.uiServer?.ready()) ?? false,
      dump: (ctx) => this.dumpTree(ctx),
      usable: (ctx) => this.usableScreen(ctx, 'listing elements'),
      doubt: () => this.screenGuard.doubt(),
      parse: (ctx, what, work) => this.shell.parse(ctx, what, work),
    });
    this.typing = {
      serial: info.id,
      control: () => this.scrcpy.control,
      withScrcpyInput: (work) => this.scrcpy.withInput(work),
      monkey: (lines, ctx, what) => (options.input === 'monkey' ? this.sendMonkey(lines, ctx, what) : Promise.resolve(false)),
      uiServerType: this.uiServer && ((text, signal) => this.uiServer!.typeText(text, signal)),
      shell: (command, ctx, what) => this.shell.checkedText(command, ctx, what),
      listElements: (ctx) => this.listElements(ctx),
    };
    this.touches = new AndroidTouch({
      serial: info.id,
      control: () => this.scrcpy.control,
      shell: (command, ctx, what) => this.shell.checkedText(command, ctx, what),
    });
    this.settingsShell = {
      serial: info.id,
      release: info.version,
      text: (command, ctx, what) => this.shell.text(command, ctx, what),
      checkedText: (command, ctx, what) => this.shell.checkedText(command, ctx, what),
      checkSecurity: (out, what) => throwIfDenied(out, this.serial, what),
    };
    this.rotationSources = {
      serial: info.id,
      text: (command, ctx, what) => this.shell.text(command, ctx, what),
      hierarchy: (ctx) => this.hierarchy(ctx),
    };
    this.rotation = {
      serial: info.id,
      shown: (ctx) => this.getOrientation(ctx),
      front: (ctx) => this.foregroundApp(ctx).then((a) => a.package, () => undefined),
      screen: (ctx) => this.shell.text(SCREEN_STATE_COMMAND, ctx, 'checking whether the screen is on and unlocked').then(parseScreenState, () => undefined),
    };
  }

  get serial(): string {
    return this.info.id;
  }

  /** Stops the monkey channel and the scrcpy server, so nothing of ours keeps running on the phone. */
  async close(): Promise<void> {
    // First: an install under way abandons its session over these connections.
    await this.apps.close();
    this.shell.connections.close();
    this.monkey.close();
    // Stopping the UiAutomator2 server is a force-stop on the phone (bounded): it must not be cut short by an exit.
    await Promise.all([this.uiServer?.close(), this.scrcpy.close()]);
  }

  /** scrcpy H.264 (SPEC §9); a ToolError with the reason when it cannot start, and the bridge polls screenshots. */
  openVideo(options: VideoOptions): Promise<VideoStream> {
    return this.scrcpy.openVideo(options);
  }

  // ---- apps (app-manager.ts) ----

  listApps(ctx: CallContext): Promise<InstalledApp[]> {
    return this.apps.list(ctx);
  }

  launchApp(pkg: string, ctx: CallContext): Promise<string> {
    return this.apps.launch(pkg, ctx);
  }

  terminateApp(pkg: string, ctx: CallContext): Promise<undefined> {
    return this.apps.terminate(pkg, ctx);
  }

  installApp(path: string, ctx: CallContext): Promise<{ package: string }> {
    return this.apps.install(path, ctx);
  }

  uninstallApp(pkg: string, ctx: CallContext): Promise<void> {
    return this.apps.uninstall(pkg, ctx);
  }

  clearAppData(pkg: string, ctx: CallContext): Promise<void> {
    return this.apps.clearData(pkg, ctx);
  }

  foregroundApp(ctx: CallContext): Promise<{ package: string; name?: string }> {
    return this.apps.foreground(ctx);
  }

  // ---- screen ----

  screenshot(ctx: CallContext): Promise<PngImage> {
    return this.capture.png(ctx);
  }

  /** A screen for a consumer that shrinks it to `fit` (screen-capture.ts). */
  screenshotFitted(fit: FitSize, ctx: CallContext): Promise<FittedScreen> {
    return this.capture.fitted(fit, ctx);
  }

  /** Raw or PNG for agents' screenshots, as measured on this device. */
  get captureChoice(): CaptureChoice {
    return this.capture.choice;
  }

  /** Raw `screencap` pixels without the host PNG encode (the phone's PNG decoded where screenshots are PNG). */
  screenshotRaw(ctx: CallContext): Promise<RawImage> {
    return this.capture.raw(ctx);
  }

  /**
   * The UiAutomator2 server's source, else `uiautomator dump` (element-listing.ts). The size the
   * elements are cut to is read alongside where it is not known yet or a fold may have changed it, and
   * after the dump where the dump measured another (a size override set meanwhile; screen-size.ts).
   */
  async listElements(ctx: CallContext): Promise<UiElement[]> {
    const alongside = this.size.known === undefined || this.size.movable ? this.size.current(ctx) : undefined;
    // Awaited only once the hierarchy is in: a failure before then must not go unhandled.
    alongside?.catch(() => undefined);
    return this.elementListing.list((seen) => alongside ?? this.size.confirmed(seen, ctx), ctx);
  }

  /**
   * `wm size` rotated as shown; the rotation is read elsewhere only where `dumpsys input` shows none
   * (shown-rotation.ts). Where nothing shows it the natural size stands: taps are checked against this
   * size, and refusing it would stop every tap on such a device.
   */
  async screenSize(ctx: CallContext): Promise<ScreenSize> {
    const { natural, rotation } = await this.size.read(ctx);
    const shown = rotation ?? (await otherRotation(this.rotationSources, ctx).catch((err: unknown) => {
      if (err instanceof RotationUnreadable) return 0;
      throw err;
    }));
    return rotate(natural, shown);
  }

  /** One round trip on a phone: `dumpsys input`, with `wm size` in it where a fold may have changed the natural size. */
  async getOrientation(ctx: CallContext): Promise<Orientation> {
    const fresh = this.size.movable ? await this.size.read(ctx) : undefined;
    const natural = fresh?.natural ?? (await this.size.remembered(ctx));
    return orientationAt(await shownRotation(this.rotationSources, ctx, fresh?.dumpsysInput), natural);
  }

  /** Locks rotation (with auto-rotate on, user_rotation would be ignored), then waits until the display shows it (rotation.ts). */
  async setOrientation(orientation: Orientation, ctx: CallContext): Promise<void> {
    const natural = await this.size.current(ctx);
    await this.shell.checkedText(
      `settings put system accelerometer_rotation 0 && settings put system user_rotation ${rotationFor(orientation, natural)}`,
      ctx, 'rotating the screen',
    );
    this.scrcpy.control?.expectOrientation(orientation === 'landscape');
    try {
      await awaitRotation(this.rotation, orientation, ctx);
    } catch (err) {
      if (!(err instanceof RotationUnreadable)) throw err;
      throw new ToolError('UNSUPPORTED', `rotation of ${this.serial} was locked to ${orientation} (accelerometer_rotation 0, user_rotation ${rotationFor(orientation, natural)}), but whether the display turned is not confirmed: ${err.message}`);
    }
  }

  // ---- input ----

  tap(x: number, y: number, ctx: CallContext): Promise<void> {
    return this.gesture(tapGesture(x, y), ctx, 'tapping');
  }

  doubleTap(x: number, y: number, ctx: CallContext): Promise<void> {
    return this.gesture(doubleTapGesture(x, y), ctx, 'double-tapping');
  }

  longPress(x: number, y: number, durationMs: number, ctx: CallContext): Promise<void> {
    return this.gesture(longPressGesture(x, y, durationMs), ctx, 'long-pressing');
  }

  swipe(fromX: number, fromY: number, toX: number, toY: number, durationMs: number, ctx: CallContext): Promise<void> {
    return this.gesture(swipeGesture(fromX, fromY, toX, toY, durationMs), ctx, 'swiping');
  }

  /** Two fingers need scrcpy's control socket (input-commands.ts pinchSteps); it is started for this if the video does not run it. */
  async pinch(fingers: readonly [FingerPath, FingerPath], durationMs: number, ctx: CallContext): Promise<void> {
    await this.usableScreen(ctx, 'pinching');
    try {
      await this.scrcpy.withInput((control) => control.run(pinchSteps(fingers, durationMs), ctx.signal));
    } catch (err) {
      if (!(err instanceof ControlUnavailable)) throw err;
      throw new ToolError('UNSUPPORTED', `${this.serial} cannot do a two-finger gesture now: only scrcpy's control socket injects two pointers (input and monkey drive one), and it is unavailable (${err.message})`);
    }
  }

  /** Streamed touch (issue 17): scrcpy while it runs, else `input motionevent`; see touch-input.ts. */
  async touch(phase: TouchPhase, x: number, y: number, ctx: CallContext): Promise<boolean> {
    if (phase === 'down') await this.usableScreen(ctx, 'touching');
    return this.touches.touch(phase, x, y, ctx);
  }

  async pressKey(key: Key, ctx: CallContext): Promise<void> {
    await this.usableScreen(ctx, `pressing ${key}`);
    return this.touches.key(key, ctx);
  }

  async pressCtrl(letter: CtrlLetter, ctx: CallContext): Promise<void> {
    await this.usableScreen(ctx, `pressing CTRL+${letter}`);
    return this.touches.ctrl(letter, ctx);
  }

  pressButton(button: Button, ctx: CallContext): Promise<void> {
    return this.gesture(keyGesture(button), ctx, `pressing ${button}`);
  }

  async typeText(text: string, ctx: CallContext): Promise<void | string> {
    await this.usableScreen(ctx, 'typing');
    return typeText(this.typing, text, ctx);
  }

  clearText(ctx: CallContext): Promise<void | string> {
    return clearText(this.typing, ctx);
  }

  openUrl(url: string, ctx: CallContext): Promise<string> {
    return this.apps.openLink(url, ctx);
  }

  setWifi(enabled: boolean, ctx: CallContext): Promise<void> {
    return deviceSettings.setWifi(this.settingsShell, enabled, ctx);
  }

  properties(ctx: CallContext): Promise<DeviceProperties> {
    return deviceSettings.readProperties(this.settingsShell, ctx);
  }

  // ---- plumbing ----

  private usableScreen(ctx: CallContext, what: string, options?: Parameters<ScreenGuard['ensureUsable']>[2]): Promise<void> {
    return this.screenGuard.ensureUsable(what, (command) => this.shell.text(command, ctx, 'checking whether the screen is on and unlocked'), options);
  }

  private async gesture(g: Gesture, ctx: CallContext, what: string): Promise<void> {
    await this.usableScreen(ctx, what);
    const control = this.scrcpy.control;
    if (control) {
      try {
        return await control.run(g.control, ctx.signal);
      } catch (err) {
        // Nothing reached the device: the slower paths below do the gesture instead.
        if (!(err instanceof ControlUnavailable)) throw err;
      }
    }
    if (this.options.input === 'monkey' && (await this.sendMonkey(g.monkey, ctx, what))) return;
    const refused = inputRefusal(await this.shell.checkedText(g.shell, ctx, what));
    if (refused) throw new ToolError(refused.lacking ? 'UNSUPPORTED' : 'INTERNAL', `${what} did not happen on ${this.serial}: \`${g.shell}\` answered "${refused.said}"`);
  }

  /** Lines over the monkey channel; false when it is unavailable and `input` should do the work instead. */
  private sendMonkey(lines: string[], ctx: CallContext, what: string): Promise<boolean> {
    return this.shell.guard(ctx, what, () => this.monkey.send(lines, ctx.signal)).catch((err: unknown) => {
      // A monkey that died mid-use (also one killed for injecting where the phone forbids it) is replaced by
      // `input` for this action, which reports a denial in words; device-level failures still count.
      if (err instanceof ToolError && err.code !== 'INTERNAL') throw err;
      return false;
    });
  }

  /** The UI hierarchy's XML: the UiAutomator2 server's source when it runs, else `uiautomator dump`. */
  private async hierarchy(ctx: CallContext): Promise<string> {
    return (await this.uiServer?.source(ctx.signal)) ?? this.dumpTree(ctx);
  }

  /**
   * `uiautomator dump /dev/tty` prints the tree with no file left behind. Before Android 7 adbd runs
   * `exec:` without a terminal (services.cpp create_subproc_raw), so /dev/tty cannot be opened: the
   * dumper logs that and DumpCommand still says "dumped to: /dev/tty". Such a phone dumps to a file.
   */
  private async dumpTree(ctx: CallContext): Promise<string> {
    if (this.ttyDumps) {
      const out = await this.shell.text('uiautomator dump /dev/tty', ctx, 'listing elements');
      if (out.includes('<hierarchy') || !/dumped to: \/dev\/tty/.test(out)) return out;
      this.ttyDumps = false;
    }
    return this.shell.text(`uiautomator dump ${DUMP_FILE}; cat ${DUMP_FILE}; rm -f ${DUMP_FILE}`, ctx, 'listing elements');
  }

}

/** Where a phone whose `exec:` has no terminal dumps its UI tree (the shell user can write there). */
const DUMP_FILE = '/data/local/tmp/mobilebridge-window.xml';
