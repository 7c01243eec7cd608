import sharp from 'sharp';
import type { CallContext, DeviceHandle, DeviceProperties, PngImage, RawImage } from '../../driver.js';
import { ToolError } from '../../errors.js';
import type { Button, DeviceInfo, InstalledApp, Orientation, UiElement } from '../../types.js';
import { elementsFromTree, type ScreenSize } from '../../ui-tree.js';
import type { AdbAddress } from './adb-address.js';
import { execOnDevice, mapAdbError, offlineError, shellQuote, unauthorizedError, type AdbDeviceClient } from './adb-client.js';
import { apkPackageName } from './apk-package.js';
import { doubleTapGesture, keyGesture, longPressGesture, swipeGesture, tapGesture, type Gesture } from './input-commands.js';
import { MonkeyChannel } from './monkey-channel.js';
import { encodeRawFrame, parseRawScreencap, pngFromScreencap, rgbaFromRawFrame } from './screencap.js';
import {
  isInstalledOutput, isSecurityException, parseDisplayIds, parseLauncherApps, parseResumedPackage, parseRotation, parseWmSize,
} from './shell-output.js';
import { inputTextCommand } from './text-input.js';
import { isTransientDumpFailure, parseUiautomatorDump } from './uiautomator.js';

export interface AndroidDeviceOptions {
  /** `monkey`: persistent `monkey --port` injector with `input` as fallback; `input`: one `input` process per gesture. */
  input: 'monkey' | 'input';
  /** `raw`: pixels from `screencap`, PNG-encoded on the host; `png`: `screencap -p` encoded on the device. */
  screencap: 'raw' | 'png';
}

const DUMP_ATTEMPTS = 4;
const DUMP_RETRY_MS = 250;
const SEPARATOR = '__mobilebridge__';

/** One device behind the adb server. Every method is one `exec:` round trip unless its comment says otherwise. */
export class AndroidDevice implements DeviceHandle {
  private readonly monkey: MonkeyChannel;
  /** Unrotated size from `wm size`; rotation comes with each dump, so listing elements needs no extra call. */
  private physicalSize: ScreenSize | undefined;
  private displayArgs: string | undefined;

  constructor(
    readonly info: DeviceInfo,
    private readonly device: AdbDeviceClient,
    private readonly address: AdbAddress,
    private readonly options: AndroidDeviceOptions,
  ) {
    this.monkey = new MonkeyChannel(device);
  }

  get serial(): string {
    return this.info.id;
  }

  close(): void {
    this.monkey.close();
  }

  // ---- apps ----

  async listApps(ctx: CallContext): Promise<InstalledApp[]> {
    const out = await this.text(
      `cmd package query-activities -a android.intent.action.MAIN -c android.intent.category.LAUNCHER; echo ${SEPARATOR}; pm list packages --show-versioncode`,
      ctx, 'listing apps',
    );
    const [activities, versions = ''] = out.split(SEPARATOR);
    return parseLauncherApps(activities, versions);
  }

  async launchApp(pkg: string, ctx: CallContext): Promise<void> {
    const out = await this.forInstalled(pkg, `monkey -p ${shellQuote(pkg)} -c android.intent.category.LAUNCHER 1`, ctx, 'launching');
    if (/No activities found|monkey aborted/i.test(out)) {
      throw new ToolError('INVALID_PARAMETER', `${pkg} on ${this.serial} has no launcher activity to start; open one of its screens with mobile_open_url instead`);
    }
  }

  async terminateApp(pkg: string, ctx: CallContext): Promise<void> {
    await this.forInstalled(pkg, `am force-stop ${shellQuote(pkg)}`, ctx, 'stopping');
  }

  /** adbkit's install: a sync push to /data/local/tmp, then `pm install -r` (two round trips plus the transfer). */
  async installApp(path: string, ctx: CallContext): Promise<{ package: string }> {
    const pkg = await apkPackageName(path, this.serial);
    try {
      await this.guard(ctx, 'installing', () => Promise.resolve(this.device.install(path)));
    } catch (err) {
      const code = (err as { code?: string }).code ?? '';
      if (err instanceof ToolError && err.code !== 'INTERNAL') throw err;
      if (/INVALID_APK|PARSE_FAILED|NO_CERTIFICATES|OLDER_SDK|NO_MATCHING_ABIS|UPDATE_INCOMPATIBLE|VERSION_DOWNGRADE/.test(code)) {
        throw new ToolError('INVALID_PARAMETER', `${this.serial} refused ${path} [${code}]: the APK does not fit this device; rebuild or sign it for this device`);
      }
      throw new ToolError('INTERNAL', `installing ${path} on ${this.serial} failed: ${(err as Error).message}`);
    }
    return { package: pkg };
  }

  async uninstallApp(pkg: string, ctx: CallContext): Promise<void> {
    const out = await this.forInstalled(pkg, `pm uninstall ${shellQuote(pkg)}`, ctx, 'uninstalling');
    if (/^Success/m.test(out)) return;
    if (/DELETE_FAILED_INTERNAL_ERROR|DELETE_FAILED_DEVICE_POLICY_MANAGER|DELETE_FAILED_USER_RESTRICTED/.test(out)) {
      throw new ToolError('PERMISSION_DENIED', `${this.serial} refuses to uninstall ${pkg} (a system or device-admin app): ${out.trim()}`);
    }
    throw new ToolError('INTERNAL', `uninstalling ${pkg} from ${this.serial} failed: ${out.trim() || 'no output'}`);
  }

  async clearAppData(pkg: string, ctx: CallContext): Promise<void> {
    const out = await this.forInstalled(pkg, `pm clear ${shellQuote(pkg)}`, ctx, 'clearing the data of');
    if (!/^Success/m.test(out)) throw new ToolError('INTERNAL', `pm clear ${pkg} on ${this.serial} failed: ${out.trim() || 'no output'}`);
  }

  async foregroundApp(ctx: CallContext): Promise<{ package: string; name?: string }> {
    const out = await this.text('dumpsys activity activities', ctx, 'reading the foreground app');
    const pkg = parseResumedPackage(out);
    if (!pkg) throw new ToolError('INTERNAL', `no resumed activity on ${this.serial} (the screen may be off or locked); wake and unlock the device`);
    return { package: pkg };
  }

  // ---- screen ----

  async screenshot(ctx: CallContext): Promise<PngImage> {
    const display = await this.displayArgument(ctx);
    if (this.options.screencap === 'png') {
      const out = await this.exec(`screencap -p${display} 2>/dev/null`, ctx, 'taking a screenshot');
      return await this.parse(ctx, 'screencap -p', () => pngFromScreencap(out));
    }
    const out = await this.exec(`screencap${display} 2>/dev/null`, ctx, 'taking a screenshot');
    return encodeRawFrame(await this.parse(ctx, 'screencap', () => parseRawScreencap(out)));
  }

  /** Raw `screencap` pixels without the host PNG encode (with `screencap: 'png'`, the device's PNG decoded). */
  async screenshotRaw(ctx: CallContext): Promise<RawImage> {
    if (this.options.screencap === 'png') {
      const { png } = await this.screenshot(ctx);
      try {
        const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
        return { data, width: info.width, height: info.height, channels: 4 };
      } catch (err) {
        throw new ToolError('INTERNAL', `could not decode the screencap -p PNG of ${this.serial}: ${(err as Error).message}; try the driver option screencap: 'raw'`);
      }
    }
    const display = await this.displayArgument(ctx);
    const out = await this.exec(`screencap${display} 2>/dev/null`, ctx, 'taking a screenshot');
    return rgbaFromRawFrame(await this.parse(ctx, 'screencap', () => parseRawScreencap(out)));
  }

  /** One `uiautomator dump` round trip; retried while uiautomator reports a transient "null root node". */
  async listElements(ctx: CallContext): Promise<UiElement[]> {
    const physical = this.physicalSize ?? (await this.screenSize(ctx), this.physicalSize!);
    for (let attempt = 1; ; attempt++) {
      const out = await this.text('uiautomator dump /dev/tty', ctx, 'listing elements');
      if (isTransientDumpFailure(out) && attempt < DUMP_ATTEMPTS) {
        await new Promise((r) => setTimeout(r, DUMP_RETRY_MS));
        continue;
      }
      const { root, rotation } = await this.parse(ctx, 'uiautomator dump', () => parseUiautomatorDump(out));
      return elementsFromTree(root, rotate(physical, rotation));
    }
  }

  async screenSize(ctx: CallContext): Promise<ScreenSize> {
    const out = await this.text('wm size; dumpsys input', ctx, 'reading the screen size');
    const size = await this.parse(ctx, 'wm size', () => parseWmSize(out) ?? fail(`wm size printed no size: ${out.slice(0, 200)}`));
    this.physicalSize = size;
    return rotate(size, parseRotation(out) ?? 0);
  }

  async getOrientation(ctx: CallContext): Promise<Orientation> {
    const out = await this.text('dumpsys input', ctx, 'reading the orientation');
    const rotation = await this.parse(ctx, 'dumpsys input', () => parseRotation(out) ?? fail('dumpsys input shows no display orientation'));
    return rotation % 2 === 1 ? 'landscape' : 'portrait';
  }

  /** Locks rotation: with auto-rotate on, user_rotation would be ignored. */
  async setOrientation(orientation: Orientation, ctx: CallContext): Promise<void> {
    const out = await this.text(
      `settings put system accelerometer_rotation 0 && settings put system user_rotation ${orientation === 'landscape' ? 1 : 0}`,
      ctx, 'rotating the screen',
    );
    this.checkSecurity(out, 'rotating the screen');
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

  pressButton(button: Button, ctx: CallContext): Promise<void> {
    return this.gesture(keyGesture(button), ctx, `pressing ${button}`);
  }

  /** `input text` goes to whatever holds input focus; adb offers no cheap, reliable focus check. */
  async typeText(text: string, ctx: CallContext): Promise<void> {
    const out = await this.text(inputTextCommand(text, this.serial), ctx, 'typing');
    this.checkSecurity(out, 'typing');
    if (/Exception|Error:/.test(out)) throw new ToolError('INTERNAL', `typing on ${this.serial} failed: ${out.trim()}`);
  }

  /**
   * There is no shell command that empties a field, and select-all (`input keycombination`) only
   * exists from Android 13, so: cursor to the end, then one DEL per character the focused field
   * holds (a password field lists one bullet per character, so its length is known too).
   */
  async clearText(ctx: CallContext): Promise<void> {
    const focused = (await this.listElements(ctx)).find((e) => e.focused && e.type === 'edittext');
    if (!focused) throw new ToolError('INVALID_PARAMETER', `no text field is focused on ${this.serial}; tap a text field first`);
    const count = [...focused.text].length;
    if (count === 0) return;
    const out = await this.text(`input keyevent KEYCODE_MOVE_END && input keyevent ${Array(count).fill('KEYCODE_DEL').join(' ')}`, ctx, 'clearing a field');
    this.checkSecurity(out, 'clearing a field');
    if (/Exception|Error:/.test(out)) throw new ToolError('INTERNAL', `clearing a field on ${this.serial} failed: ${out.trim()}`);
  }

  async openUrl(url: string, ctx: CallContext): Promise<void> {
    const out = await this.text(`am start -a android.intent.action.VIEW -d ${shellQuote(url)}`, ctx, 'opening a URL');
    this.checkSecurity(out, `opening ${url}`);
    if (/unable to resolve Intent|No Activity found/i.test(out)) {
      throw new ToolError('INVALID_PARAMETER', `no app on ${this.serial} handles ${url}; install the app for this link or check the URL`);
    }
    if (/^Error/m.test(out)) throw new ToolError('INTERNAL', `opening ${url} on ${this.serial} failed: ${out.trim()}`);
  }

  /** `cmd wifi` from Android 11; `svc wifi` before (and as the fallback when cmd has no wifi service). */
  async setWifi(enabled: boolean, ctx: CallContext): Promise<void> {
    const state = enabled ? 'enabled' : 'disabled';
    const out = await this.text(`cmd wifi set-wifi-enabled ${state} || svc wifi ${enabled ? 'enable' : 'disable'}`, ctx, 'switching Wi-Fi');
    this.checkSecurity(out, 'switching Wi-Fi');
  }

  async properties(ctx: CallContext): Promise<DeviceProperties> {
    const out = await this.text(
      `cmd uimode night; echo ${SEPARATOR}; settings get global wifi_on; echo ${SEPARATOR}; getprop ro.build.version.sdk; echo ${SEPARATOR}; dumpsys input_method`,
      ctx, 'reading device properties',
    );
    const [night = '', wifi = '', sdk = '', ime = ''] = out.split(SEPARATOR);
    const props: DeviceProperties = {};
    if (/Night mode: (yes|no)/.test(night)) props.darkMode = /Night mode: yes/.test(night);
    if (/^\s*[01]\s*$/.test(wifi)) props.wifi = wifi.trim() === '1';
    if (/^\s*\d+\s*$/.test(sdk)) props.apiLevel = Number(sdk.trim());
    if (/mInputShown=(true|false)/.test(ime)) props.keyboardVisible = /mInputShown=true/.test(ime);
    return props;
  }

  // ---- plumbing ----

  private async gesture(g: Gesture, ctx: CallContext, what: string): Promise<void> {
    if (this.options.input === 'monkey') {
      const sent = await this.guard(ctx, what, () => this.monkey.send(g.monkey, ctx.signal)).catch((err: unknown) => {
        // A monkey that died mid-use is replaced by `input` for this gesture; device-level failures still count.
        if (err instanceof ToolError && err.code !== 'INTERNAL') throw err;
        return false;
      });
      if (sent) return;
    }
    const out = await this.text(g.shell, ctx, what);
    this.checkSecurity(out, what);
  }

  /** The display to capture: on multi-display devices screencap warns and picks one at random without -d. */
  private async displayArgument(ctx: CallContext): Promise<string> {
    if (this.displayArgs === undefined) {
      const ids = parseDisplayIds(await this.text('dumpsys SurfaceFlinger --display-id', ctx, 'listing displays'));
      this.displayArgs = ids.length > 1 ? ` -d ${ids[0]}` : '';
    }
    return this.displayArgs;
  }

  /** Runs `pm path` and the command in one round trip; the command only runs when the package exists. */
  private async forInstalled(pkg: string, command: string, ctx: CallContext, what: string): Promise<string> {
    const out = await this.text(`pm path ${shellQuote(pkg)} && ${command}`, ctx, `${what} ${pkg}`);
    this.checkSecurity(out, `${what} ${pkg}`);
    if (!isInstalledOutput(out)) {
      throw new ToolError('APP_NOT_INSTALLED', `${pkg} is not installed on ${this.serial}; install it with mobile_install_app, or pick a package from mobile_list_apps`);
    }
    return out.replace(/^package:.*\n?/gm, '');
  }

  private checkSecurity(out: string, what: string): void {
    if (isSecurityException(out)) {
      throw new ToolError('PERMISSION_DENIED', `${this.serial} denied ${what}: ${out.trim().split('\n').find((l) => isSecurityException(l)) ?? out.trim()}`);
    }
  }

  /** Unreadable output is often output cut short by a disconnect, so it goes through the same state check. */
  private parse<T>(ctx: CallContext, what: string, work: () => T): Promise<T> {
    return this.guard(ctx, `reading ${what}`, async () => {
      try {
        return work();
      } catch (err) {
        throw new ToolError('INTERNAL', `could not read the ${what} output of ${this.serial}: ${(err as Error).message}`);
      }
    });
  }

  private async text(command: string, ctx: CallContext, what: string): Promise<string> {
    return (await this.exec(command, ctx, what)).toString('utf8');
  }

  private exec(command: string, ctx: CallContext, what: string): Promise<Buffer> {
    return this.guard(ctx, what, () => execOnDevice(this.device, command, ctx.signal));
  }

  /**
   * Maps failures to SPEC codes. An unexplained failure is checked against the server's view of the
   * device: a device that went offline or vanished mid-call is DEVICE_NOT_FOUND, not INTERNAL.
   */
  private async guard<T>(ctx: CallContext, what: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (ctx.signal.aborted) throw ctx.signal.reason;
      const mapped = mapAdbError(err, this.serial, this.address, what);
      if (mapped.code !== 'INTERNAL') throw mapped;
      const state = await Promise.resolve(this.device.getState()).catch(() => 'gone');
      if (state === 'unauthorized') throw unauthorizedError(this.serial);
      if (state === 'offline') throw offlineError(this.serial);
      if (state !== 'device') throw new ToolError('DEVICE_NOT_FOUND', `${this.serial} disconnected during ${what}; reconnect it and list devices again`);
      throw mapped;
    }
  }
}

function rotate(size: ScreenSize, rotation: number): ScreenSize {
  return rotation % 2 === 1 ? { width: size.height, height: size.width } : size;
}

function fail(message: string): never {
  throw new Error(message);
}
