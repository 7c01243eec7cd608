import { setTimeout as sleep } from 'node:timers/promises';
import type { CallContext, DeviceHandle, DeviceProperties, PngImage, RawImage } from '../../driver.js';
import { ToolError } from '../../errors.js';
import type { Button, CtrlLetter, DeviceInfo, FingerPath, InstalledApp, Key, Orientation, TouchPhase, UiElement } from '../../types.js';
import { elementsFromTree, type ScreenSize, type UiNode } from '../../ui-tree.js';
import type { Clock } from './clock.js';
import { screenSizeOf, shownOrientation } from './compose.js';
import { readInstallable } from './packages.js';
import { Phone } from './phone.js';
import type { DeviceProfile } from './profile.js';
import { PixelSlotPool } from '../../pixel-slots.js';
import { frameSvg } from './render.js';
import { ScreenImages } from './screen-images.js';
import { initialState, type PhoneState, type ToastRecord } from './state.js';
import { longPressThresholdMs } from '../../long-press.js';

export interface VirtualDeviceHooks {
  /** Runs before each call (the driver picks up state another process wrote). */
  beforeCall(device: VirtualDevice): void;
  /** Runs after a call that changed the state (the driver persists it). */
  changed(device: VirtualDevice): void;
}

export interface VirtualDeviceOptions {
  clock: Clock;
  latencyMs?: number;
  hooks?: VirtualDeviceHooks;
}

/** One virtual phone behind the engine's DeviceHandle, plus read-only views the emulators use. */
export class VirtualDevice implements DeviceHandle {
  readonly info: DeviceInfo;
  /** Device pixels per point (iOS) / per dp (Android). */
  readonly scale: number;
  private readonly phone: Phone;
  /**
   * Screen buffers of this device, reused once every holder released them: the current screen,
   * the one the frame pipeline still compares with, and one being drawn; spares go after idle.
   */
  readonly pixelSlots = new PixelSlotPool({ spare: 2 });
  private readonly screen: ScreenImages;
  private lastState: string;

  constructor(
    readonly profile: DeviceProfile,
    state: PhoneState | undefined,
    private readonly options: VirtualDeviceOptions,
  ) {
    this.info = { ...profile.info };
    this.scale = profile.density;
    this.phone = new Phone(profile, state ?? initialState(profile, options.clock.now()), () => options.clock.now());
    this.screen = new ScreenImages(this.phone, this.pixelSlots);
    this.lastState = JSON.stringify(this.phone.state);
  }

  get id(): string {
    return this.info.id;
  }

  /** The state as plain data (a copy). */
  snapshot(): PhoneState {
    return structuredClone(this.phone.state);
  }

  /** Replaces the state, e.g. with one another process saved. */
  restore(state: PhoneState): void {
    this.phone.state = structuredClone(state);
    this.lastState = JSON.stringify(this.phone.state);
  }

  /** Back to a factory-fresh phone. */
  reset(): void {
    this.phone.state = initialState(this.profile, this.options.clock.now());
    this.noteChanges();
  }

  private noteChanges(): void {
    const now = JSON.stringify(this.phone.state);
    if (now === this.lastState) return;
    this.lastState = now;
    this.options.hooks?.changed(this);
  }

  private async call<T>(ctx: CallContext, work: () => T | Promise<T>): Promise<T> {
    const latency = this.options.latencyMs ?? 0;
    try {
      if (latency > 0) await sleep(latency, undefined, { signal: ctx.signal });
    } catch {
      // Aborted by the engine's deadline: stop without touching the phone.
    }
    if (ctx.signal.aborted) throw new ToolError('TIMEOUT', `${this.id} did not answer before the deadline`);
    this.options.hooks?.beforeCall(this);
    this.phone.settle();
    try {
      return await work();
    } finally {
      this.noteChanges();
    }
  }

  // ---- DeviceHandle ------------------------------------------------------------------------

  listApps(ctx: CallContext): Promise<InstalledApp[]> {
    return this.call(ctx, () =>
      this.phone.state.installed
        .filter((a) => a.package !== this.profile.launcher)
        .map((a) => ({ package: a.package, name: a.name, version: a.version, installed: true })),
    );
  }

  launchApp(pkg: string, ctx: CallContext): Promise<void> {
    return this.call(ctx, () => this.phone.apps.launch(pkg));
  }

  terminateApp(pkg: string, ctx: CallContext): Promise<boolean> {
    return this.call(ctx, () => this.phone.apps.terminate(pkg));
  }

  installApp(path: string, ctx: CallContext): Promise<{ package: string }> {
    return this.call(ctx, async () => {
      const found = await readInstallable(path, this.profile);
      this.phone.apps.install(found);
      return { package: found.package };
    });
  }

  uninstallApp(pkg: string, ctx: CallContext): Promise<void> {
    return this.call(ctx, () => this.phone.apps.uninstall(pkg));
  }

  clearAppData(pkg: string, ctx: CallContext): Promise<void> {
    return this.call(ctx, () => this.phone.apps.clearData(pkg));
  }

  foregroundApp(ctx: CallContext): Promise<{ package: string; name?: string }> {
    return this.call(ctx, () => {
      const pkg = this.phone.state.foreground;
      const name = this.phone.state.installed.find((a) => a.package === pkg)?.name;
      return name ? { package: pkg, name } : { package: pkg };
    });
  }

  screenshot(ctx: CallContext): Promise<PngImage> {
    return this.call(ctx, () => this.screenPng());
  }

  screenshotRaw(ctx: CallContext): Promise<RawImage> {
    return this.call(ctx, async () => {
      const { job, release } = this.screen.heldRgba();
      try {
        return { ...(await job), channels: 4 as const, release };
      } catch (err) {
        release();
        throw err;
      }
    });
  }

  listElements(ctx: CallContext): Promise<UiElement[]> {
    return this.call(ctx, () => elementsFromTree(this.phone.uiTree(), screenSizeOf(this.profile, this.phone.state)));
  }

  screenSize(ctx: CallContext): Promise<ScreenSize> {
    return this.call(ctx, () => screenSizeOf(this.profile, this.phone.state));
  }

  tap(x: number, y: number, ctx: CallContext): Promise<void> {
    return this.call(ctx, () => this.phone.tap(x, y));
  }

  doubleTap(x: number, y: number, ctx: CallContext): Promise<void> {
    return this.call(ctx, () => this.phone.doubleTap(x, y));
  }

  /** As on a device, a press shorter than the long-press time is a tap (long-press.ts). */
  longPress(x: number, y: number, durationMs: number, ctx: CallContext): Promise<void> {
    return this.call(ctx, () => {
      if (durationMs < longPressThresholdMs(this.info)) this.phone.tap(x, y);
      else this.phone.longPress(x, y);
    });
  }

  swipe(fromX: number, fromY: number, toX: number, toY: number, _durationMs: number, ctx: CallContext): Promise<void> {
    return this.call(ctx, () => this.phone.swipe(fromX, fromY, toX, toY));
  }

  pinch(fingers: readonly [FingerPath, FingerPath], _durationMs: number, ctx: CallContext): Promise<void> {
    return this.call(ctx, () => this.phone.pinch(fingers));
  }

  touch(phase: TouchPhase, x: number, y: number, ctx: CallContext): Promise<boolean> {
    return this.call(ctx, () => {
      this.phone.touch(phase, x, y);
      return true;
    });
  }

  /**
   * Backspace, Tab (next field) and Enter; arrows, forward delete and app switch have no cursor or task
   * switcher to act on. The virtual iPhone wants a focused field for Backspace as the iOS driver does:
   * its keys are typed on the on-screen keyboard, which shows only while a field is focused.
   */
  pressKey(key: Key, ctx: CallContext): Promise<void> {
    return this.call(ctx, () => {
      switch (key) {
        case 'BACKSPACE':
          this.requireIosKeyboard(`press ${key}`);
          return this.phone.deleteBackward();
        case 'ENTER': return this.pressEnter();
        // Kept on the virtual iPhone too (docs/viewer.md), although a real one's keyboard has no Tab key.
        case 'TAB': return this.phone.nextField();
        default:
          throw new ToolError('UNSUPPORTED', `the virtual phone ${this.id} has no text cursor or task switcher, so ${key} does nothing there; nothing was pressed`);
      }
    });
  }

  /**
   * Ctrl+A, C, X on the virtual Android phone (text-selection.ts). The virtual iPhone refuses, as the
   * iOS driver does: WebDriverAgent types through the on-screen keyboard, which has no Ctrl key.
   */
  pressCtrl(letter: CtrlLetter, ctx: CallContext): Promise<void> {
    return this.call(ctx, () => {
      if (this.profile.platform === 'ios') {
        throw new ToolError('UNSUPPORTED', `${this.id} cannot press CTRL+${letter}: like a real iPhone through WebDriverAgent, it types through the on-screen keyboard, which has no Ctrl key; select text with a long press and the edit menu instead; nothing was pressed`);
      }
      this.phone.ctrl(letter);
    });
  }

  /** A typed newline or tab with no field focused went nowhere on the virtual iPhone, yet counted as typed. */
  typeText(text: string, ctx: CallContext): Promise<void> {
    return this.call(ctx, () => {
      this.requireIosKeyboard('type');
      this.phone.typeText(text);
    });
  }

  clearText(ctx: CallContext): Promise<void> {
    return this.call(ctx, () => this.phone.clearText());
  }

  /** Backspace; the emulated adbd's KEYCODE_DEL and WDA's delete key use it. */
  deleteBackward(ctx: CallContext): Promise<void> {
    return this.call(ctx, () => this.phone.deleteBackward());
  }

  /** Id of the focused field of the foreground app, if any (the emulated WDA's active element). */
  get focusedField(): string | undefined {
    const task = this.phone.state.tasks[this.phone.state.foreground];
    return task && !task.dialog ? (task.focus ?? undefined) : undefined;
  }

  pressButton(button: Button, ctx: CallContext): Promise<void> {
    return this.call(ctx, () => (button === 'ENTER' ? this.pressEnter() : this.phone.press(button)));
  }

  /**
   * iOS types through the on-screen keyboard, there only while a field is focused; the iOS driver
   * refuses keys without one (WebDriverAgent would report success for nothing), so the virtual iPhone
   * does too. Android delivers key events to whatever window is in front, field or not.
   */
  private requireIosKeyboard(what: string): void {
    if (this.profile.platform === 'ios' && this.focusedField === undefined) {
      throw new ToolError('INVALID_PARAMETER', `no text field is focused on ${this.id}, so iOS shows no keyboard to ${what} on; nothing was sent: tap a text field first (mobile_list_elements_on_screen shows edittext elements)`);
    }
  }

  private pressEnter(): void {
    this.requireIosKeyboard('press ENTER');
    this.phone.press('ENTER');
  }

  openUrl(url: string, ctx: CallContext): Promise<string | undefined> {
    return this.call(ctx, () => this.phone.apps.openUrl(url));
  }

  getOrientation(ctx: CallContext): Promise<Orientation> {
    return this.call(ctx, () => shownOrientation(this.profile, this.phone.state));
  }

  setOrientation(orientation: Orientation, ctx: CallContext): Promise<void> {
    return this.call(ctx, () => this.phone.setOrientation(orientation));
  }

  setWifi(enabled: boolean, ctx: CallContext): Promise<void> {
    return this.call(ctx, () => this.phone.setWifi(enabled));
  }

  properties(ctx: CallContext): Promise<DeviceProperties> {
    return this.call(ctx, () => {
      const s = this.phone.state;
      const props: DeviceProperties = { darkMode: s.darkMode, wifi: s.wifi, network: s.wifi ? 'wifi' : 'disconnected', keyboardVisible: this.phone.frame().keyboardVisible };
      if (this.profile.apiLevel !== undefined) props.apiLevel = this.profile.apiLevel;
      return props;
    });
  }

  // ---- extras for the adbd / WDA emulators and tests (no latency, no deadline) ---------------

  /** The full on-screen hierarchy, containers included. */
  uiTree(): UiNode {
    this.phone.settle();
    const tree = this.phone.uiTree();
    this.noteChanges();
    return tree;
  }

  /** Raw RGBA pixels of the current screen (the same pixels as the PNG). */
  screenRgba(): Promise<{ data: Buffer; width: number; height: number }> {
    // A hold never released: callers keep these pixels as long as they like, so the slot is never reused.
    return this.screen.heldRgba().job;
  }

  /** PNG of the current screen without going through a CallContext. */
  async screenPng(): Promise<PngImage> {
    const { data, width, height } = await this.screen.image('png');
    return { png: data, width, height };
  }

  /** The current screen as one SVG document: what the renderer draws, for tests and debugging. */
  screenSvg(): string {
    this.phone.settle();
    return frameSvg(this.phone.frame(), this.profile, this.phone.state.darkMode);
  }

  get size(): ScreenSize {
    return screenSizeOf(this.profile, this.phone.state);
  }
  get foregroundPackage(): string {
    return this.phone.state.foreground;
  }
  get installedApps(): { package: string; name: string; version: string; system: boolean }[] {
    return this.phone.state.installed.map(({ package: p, name, version, system }) => ({ package: p, name, version, system }));
  }
  /** What the screen shows: an iPhone's home screen stays portrait while the phone is held in landscape. */
  get orientation(): Orientation {
    return shownOrientation(this.profile, this.phone.state);
  }
  get darkMode(): boolean {
    return this.phone.state.darkMode;
  }
  get wifi(): boolean {
    return this.phone.state.wifi;
  }
  get keyboardVisible(): boolean {
    this.phone.settle();
    return this.phone.frame().keyboardVisible;
  }
  /** Every toast shown (latest 50), with clock times. */
  get toasts(): readonly ToastRecord[] {
    return this.phone.state.toasts.map((t) => ({ ...t }));
  }
  /** The toast on screen now, if any. */
  get visibleToast(): string | undefined {
    return this.phone.activeToast()?.text;
  }
  /** Screen of the foreground app, e.g. "signin", "home", "detail". */
  get currentScreen(): string {
    this.phone.settle();
    return this.phone.scope(this.phone.state.foreground).route.screen;
  }
  /** Kind of dialog showing in the foreground app (alert, itemMenu, permission), if any. */
  get dialog(): string | undefined {
    return this.phone.state.tasks[this.phone.state.foreground]?.dialog?.kind;
  }
  /** Text currently in a field of the foreground app. */
  fieldValue(id: string): string {
    return this.phone.state.tasks[this.phone.state.foreground]?.fields[id] ?? '';
  }
}
