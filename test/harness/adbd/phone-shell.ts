import sharp from 'sharp';
import type { VirtualDevice } from '../../../src/engine/drivers/virtual/index.js';
import type { UiNode } from '../../../src/engine/ui-tree.js';
import { AppCommands, GRANT_PERMISSIONS_ACTIVITY } from './app-commands.js';
import { absentAnswer } from './absent-commands.js';
import { displayManagerDump } from './display-manager-dump.js';
import { appErrorDialogTree } from './app-error-dialog.js';
import { capturedPanel, displayIdLines, innerPanelSize, viewportLines, type DisplaySetup, type PanelSize } from './displays.js';
import type { DeviceFiles } from './files.js';
import type { InstallSessions, Stdin } from './install-sessions.js';
import { findCommand } from './find-command.js';
import { dumpPackages } from './package-output.js';
import { noQuirks, releaseMajor, releaseSdk, type PhoneQuirks } from './phone-quirks.js';
import { capturedColours, rawScreencap, tagPngDisplayP3 } from './raw-screencap.js';
import { resolverTables } from './resolver-output.js';
import { runInput } from './input-command.js';
import { olderInputDump, olderScreencapRefusal, olderSurfaceFlingerDump } from './older-display-dumps.js';
import { lockSettingsDump, windowPolicyDump } from './keyguard-dump.js';
import { ctx, ok, reachingStream, unknown, type CommandResult } from './shell-command.js';
import { parseCommandLine, type SimpleCommand } from './shell-words.js';
import { frameworkDumpXml, uiautomatorXml } from './uiautomator-xml.js';
import { processesDump } from './users.js';
import { wifiShellRefusal } from './wifi-command.js';
import { windowFocusLines } from './window-focus.js';

/** The Android shell commands adb clients send, carried out on a virtual phone. */
export class PhoneShell {
  readonly quirks: PhoneQuirks = noQuirks();
  /** Every `input motionevent` carried out (`down x,y`, panel pixels), for tests. */
  readonly motionEvents: string[] = [];
  readonly settings = new Map<string, string>([['system/accelerometer_rotation', '1'], ['system/user_rotation', '0']]);
  /** Whether another client holds the device's one UiAutomation connection (the emulated UiAutomator2 server, or a test's stand-in). */
  uiAutomationHeld: () => boolean = () => false;
  /** Called for `monkey --port N`: the adbd then serves `tcp:N` as a monkey channel. */
  onMonkeyPort: (port: number) => void = () => undefined;

  private readonly apps: AppCommands;

  constructor(
    readonly phone: VirtualDevice,
    readonly files: DeviceFiles,
  ) {
    this.apps = new AppCommands(phone, files, this.quirks, (port) => this.onMonkeyPort(port));
  }

  /** The package installer's open sessions, for tests. */
  get installSessions(): InstallSessions {
    return this.apps.sessions;
  }

  /**
   * `stdin`: what the host writes on the command's stream (an APK streamed into `pm install-write … -`).
   * `terminal`: whether the command has a controlling terminal (adbd before Android 7 ran `exec:` on a
   * plain socketpair after setsid(), services.cpp create_subproc_raw; `shell:`, and from 7 both, on a PTY).
   */
  async run(line: string, stdin?: Stdin, terminal = true): Promise<CommandResult> {
    let commands;
    try {
      commands = parseCommandLine(line);
    } catch (err) {
      return { out: `/system/bin/sh: ${(err as Error).message}\n`, code: 2 };
    }
    return this.runCommands(commands, stdin, terminal);
  }

  /** Simple commands joined by `;`, `&&`, `||`: what reaches the stream (stdout and stderr are one through `shell:`), and the last exit code. */
  async runCommands(commands: SimpleCommand[], stdin?: Stdin, terminal = true): Promise<CommandResult> {
    const outputs: (Buffer | string)[] = [];
    let code = 0;
    let open = false;
    for (const c of commands) {
      if ((c.after === '&&' && code !== 0) || (c.after === '||' && code === 0)) continue;
      const words = c.words.filter((w) => !/^\d?>/.test(w));
      while (words.length && /^[A-Z_]+=/.test(words[0])) words.shift();
      const r = absentAnswer(words, this.quirks.absent) ?? (await this.command(words, stdin, terminal));
      code = r.code;
      const reaching = reachingStream(c.words);
      if (r.err && reaching.err && !r.errLast) outputs.push(r.err);
      if (reaching.out) outputs.push(r.out);
      if (r.err && reaching.err && r.errLast) outputs.push(r.err);
      // A command that does not end holds up the rest of the line, as sh would.
      if (r.open) {
        open = true;
        break;
      }
    }
    return { out: Buffer.concat(outputs.map((o) => (typeof o === 'string' ? Buffer.from(o) : o))), code, open };
  }

  private async command(w: string[], stdin?: Stdin, terminal = true): Promise<CommandResult> {
    const [cmd, ...args] = w;
    switch (cmd) {
      case 'echo': return ok(`${args.join(' ')}\n`);
      case 'getprop': return ok(this.getprop(args[0]));
      case 'wm':
        if (args[0] === 'dismiss-keyguard') {
          // WindowManagerShellCommand: dismisses an insecure or trusted keyguard; a secure one waits for the owner.
          if (!this.quirks.secureLock || this.quirks.lockTrusted) this.quirks.locked = false;
          return ok();
        }
        if (args[0] !== 'size') return unknown(w);
        return ok(this.wmSize());
      case 'settings': return this.settingsCommand(args);
      case 'input': return runInput(this, args);
      case 'am': return this.apps.am(args);
      case 'monkey': return this.apps.monkey(args);
      case 'pm': return this.apps.pm(args, stdin);
      case 'cmd':
        // `cmd` arrived in Android 7 (API 24). Before, mksh finds no such file and says so on stderr,
        // exit 127, as for any missing command on those phones ("/system/bin/sh: dpm: not found").
        if (releaseSdk(this.quirks) < 24) return { out: '', err: '/system/bin/sh: cmd: not found\n', code: 127 };
        return this.cmd(args, stdin);
      case 'svc': return args[0] === 'wifi' ? this.wifi(args[1] === 'enable') : unknown(w);
      case 'dumpsys': return this.dumpsys(args);
      case 'uiautomator': return this.uiautomator(args, terminal);
      case 'screencap': return this.screencap(args);
      case 'rm': this.files.remove(args.filter((a) => !a.startsWith('-'))[0] ?? ''); return ok();
      case 'cat': return this.cat(args[0] ?? '');
      case 'find': return findCommand(this.files, args, releaseSdk(this.quirks));
      default: return unknown(w);
    }
  }

  private getprop(key: string | undefined): string {
    const props: Record<string, string> = {
      'ro.product.model': this.phone.info.model,
      'ro.product.manufacturer': 'Google',
      'ro.build.version.release': this.quirks.release?.version ?? this.phone.info.version,
      'ro.build.version.sdk': String(releaseSdk(this.quirks)),
      'ro.product.cpu.abi': 'x86_64',
      // init sets init.svc.<name> for each service it starts; bootanim runs until boot completes.
      ...(this.quirks.bareGetprop ? {} : { 'init.svc.adbd': 'running', 'init.svc.bootanim': this.quirks.booting ? 'running' : 'stopped', 'init.svc.zygote': 'running' }),
      ...(this.quirks.booting || this.quirks.bareGetprop ? {} : { 'sys.boot_completed': '1' }),
    };
    if (key) return `${props[key] ?? ''}\n`;
    return Object.entries(props).map(([k, v]) => `[${k}]: [${v}]\n`).join('');
  }

  private async settingsCommand([verb, ns, key, value]: string[]): Promise<CommandResult> {
    if (ns === 'global' && key === 'wifi_on') {
      if (verb === 'get') return ok(`${this.phone.wifi ? 1 : 0}\n`);
      return this.wifi(value === '1');
    }
    if (verb === 'get') return ok(`${this.settings.get(`${ns}/${key}`) ?? 'null'}\n`);
    this.settings.set(`${ns}/${key}`, value);
    if (ns === 'system' && key === 'user_rotation' && this.settings.get('system/accelerometer_rotation') === '0') {
      const wanted = (Number(value) % 2 === 1) !== this.quirks.naturalLandscape ? 'landscape' : 'portrait';
      // The settings observer posts updateRotation: the display turns after the command returned.
      // Neither turns while an app that fixes its orientation is in front, nor under a phone's lock screen
      // (config_enableLockScreenRotation is off on phones: the keyguard keeps portrait).
      const turn = () => {
        if (!this.quirks.locked && !this.quirks.fixedOrientation.has(this.phone.foregroundPackage ?? '')) void this.phone.setOrientation(wanted, ctx());
      };
      if (this.quirks.rotationDelayMs > 0) setTimeout(turn, this.quirks.rotationDelayMs).unref();
      else turn();
    }
    return ok();
  }

  /**
   * The size input and uiautomator work in (unrotated) where it is not the virtual phone's panel: a
   * `wm size` override, or an unfolded foldable's inner panel, which the virtual phone's pixels are
   * stretched onto.
   */
  private logicalNatural(): PanelSize | undefined {
    return this.quirks.wmOverride ?? (this.quirks.foldable === 'open' ? innerPanelSize(this.phone.profile) : undefined);
  }

  /** Logical (`wm size`) coordinates to the panel pixels the virtual phone works in; the first `count` numbers are x,y pairs. */
  toPanel(numbers: number[], count: number): number[] {
    const o = this.logicalNatural();
    if (!o) return numbers;
    const landscape = this.phone.orientation === 'landscape';
    const panel = this.phone.size;
    const logical = landscape ? { width: o.height, height: o.width } : o;
    return numbers.map((v, i) => (i >= count ? v : Math.round(i % 2 === 0 ? (v * panel.width) / logical.width : (v * panel.height) / logical.height)));
  }

  /** The hierarchy in logical coordinates, as uiautomator reports it under a size override. */
  private logicalTree(): UiNode {
    const tree = this.quirks.appError ? appErrorDialogTree(this.quirks.appError, this.phone.size) : this.phone.uiTree();
    const o = this.logicalNatural();
    if (!o) return tree;
    const landscape = this.phone.orientation === 'landscape';
    const panel = this.phone.size;
    const sx = (landscape ? o.height : o.width) / panel.width;
    const sy = (landscape ? o.width : o.height) / panel.height;
    const scale = (n: UiNode): UiNode => {
      const { x, y, width, height } = n.bounds;
      const left = Math.round(x * sx);
      const top = Math.round(y * sy);
      return { ...n, bounds: { x: left, y: top, width: Math.round((x + width) * sx) - left, height: Math.round((y + height) * sy) - top }, children: n.children.map(scale) };
    };
    return scale(tree);
  }

  get displays(): DisplaySetup {
    return this.quirks.foldable ?? (this.quirks.secondDisplay ? 'external' : 'single');
  }

  /** Whether input would reach the app: not while the screen is off or the keyguard shows. */
  get inputReachesApp(): boolean {
    return !this.quirks.screenOff && (!this.quirks.locked || this.quirks.lockOccluded) && !this.quirks.appError;
  }

  private async cmd([service, verb, ...args]: string[], stdin?: Stdin): Promise<CommandResult> {
    if (service === 'wifi') return wifiShellRefusal(releaseSdk(this.quirks)) ?? (verb === 'set-wifi-enabled' ? this.wifi(args[0] === 'enabled') : unknown(['cmd', service, verb, ...args]));
    if (service === 'uimode' && verb === 'night') return ok(`Night mode: ${this.phone.darkMode ? 'yes' : 'no'}\n`);
    if (service === 'package') return this.apps.cmdPackage([verb, ...args], stdin);
    return unknown(['cmd', service, verb, ...args]);
  }

  private async wifi(enabled: boolean): Promise<CommandResult> {
    if (!this.quirks.wifiRefused) await this.phone.setWifi(enabled, ctx());
    return ok();
  }

  /** Quarter turns from the natural orientation (DisplayContent's rotation), as `dumpsys input` and uiautomator print it. */
  private rotation(): number {
    return (this.phone.orientation === 'landscape') !== this.quirks.naturalLandscape ? 1 : 0;
  }

  /** The virtual phone's panel in its natural orientation (a foldable's outer panel). */
  private panelNatural(): PanelSize {
    const { width, height } = this.phone.profile;
    return this.quirks.naturalLandscape ? { width: height, height: width } : { width, height };
  }

  /**
   * `wm size`'s Physical size: WindowManagerShellCommand prints getInitialDisplaySize of the default
   * display, whose size follows the panel it is shown on (a foldable's inner panel while open).
   */
  private naturalSize(): string {
    const { width, height } = this.quirks.foldable === 'open' ? innerPanelSize(this.phone.profile) : this.panelNatural();
    return `${width}x${height}`;
  }

  /** WindowManagerShellCommand.runDisplaySize: the base size is printed only where it differs from the initial one. */
  private wmSize(): string {
    const physical = this.naturalSize();
    const o = this.quirks.wmOverride;
    return `Physical size: ${physical}\n${o && `${o.width}x${o.height}` !== physical ? `Override size: ${o.width}x${o.height}\n` : ''}`;
  }

  private dumpsys([service, ...args]: string[]): CommandResult {
    switch (service) {
      case 'input':
        if (releaseSdk(this.quirks) < 29) return ok(olderInputDump(this.displays, releaseSdk(this.quirks), this.rotation(), this.panelNatural(), this.quirks.touchpadFirst));
        return ok(`INPUT MANAGER (dumpsys input)\n\nInput Reader State:\n${viewportLines(this.displays, this.rotation(), { main: this.quirks.foldable ? innerPanelSize(this.phone.profile) : this.panelNatural(), outer: this.panelNatural() })}`);
      case 'activity':
        if (args[0] === 'processes') return ok(processesDump(this.quirks));
        // A lock screen that is not occluded pauses every activity: no resumed one is printed. A runtime
        // permission prompt is the permission controller's activity, resumed in the asking app's task.
        if (this.quirks.locked && !this.quirks.lockOccluded) return ok('ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)\n');
        return ok(`ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)\n  ResumedActivity: ActivityRecord{1f2e3d u${this.quirks.currentUser} ${this.phone.dialog === 'permission' ? GRANT_PERMISSIONS_ACTIVITY : `${this.phone.foregroundPackage}/.MainActivity`} t7}\n`);
      case 'SurfaceFlinger':
        if (releaseSdk(this.quirks) < 29) return ok(olderSurfaceFlingerDump(this.displays));
        if (!args.includes('--display-id')) return unknown(['dumpsys', service, ...args]);
        return ok(displayIdLines(this.displays));
      case 'power':
        return ok(`POWER MANAGER (dumpsys power)\nPower Manager State:\n  mDirty=0x0\n  mWakefulness=${this.quirks.screenOff ? 'Asleep' : 'Awake'}\n  mWakefulnessChanging=false\n  mIsPowered=true\n`);
      case 'window':
        if (args[0] !== 'policy') return ok(windowFocusLines(args[0] ?? '', releaseSdk(this.quirks), { component: `${this.phone.foregroundPackage}/.MainActivity`, user: this.quirks.currentUser, locked: this.quirks.locked && !this.quirks.lockOccluded }));
        return ok(windowPolicyDump(this.quirks, releaseMajor(this.quirks, this.phone.info.version)));
      case 'display':
        return ok(displayManagerDump(this.quirks.wmOverride ?? this.panelNatural(), this.rotation(), !this.quirks.screenOff));
      case 'lock_settings':
        return ok(lockSettingsDump(this.quirks));
      case 'input_method':
        return ok(`  mInputShown=${this.phone.keyboardVisible}\n`);
      case 'package':
        return this.dumpsysPackage(args);
      default:
        return ok('');
    }
  }

  /**
   * `dumpsys package [-f] <cmd>` (PackageManagerService.dump): `packages`, `r` (the intent resolvers,
   * resolver-output.ts), or a package name (its resolvers with filters, then its package block).
   */
  private dumpsysPackage(args: string[]): CommandResult {
    const showFilters = args.includes('-f');
    const [cmd] = args.filter((a) => !a.startsWith('-'));
    const release = releaseMajor(this.quirks, this.phone.info.version);
    const apps = this.phone.installedApps;
    const { launcher, browser, settings } = this.phone.profile;
    const manifests = { packages: [launcher, ...apps.map((a) => a.package).filter((p) => p !== launcher)], home: launcher, browser, settings, secondLauncher: this.quirks.secondLauncher };
    if (cmd === 'packages') return ok(dumpPackages(apps, this.quirks.updatedSystemApps, release));
    if (cmd === 'r' || cmd === 'resolvers') return ok(resolverTables(manifests, showFilters));
    if (cmd?.includes('.')) {
      const mine = apps.filter((a) => a.package === cmd);
      return ok(`${resolverTables(manifests, true, cmd)}\n${mine.length ? dumpPackages(mine, new Set(), release) : ''}`);
    }
    return unknown(['dumpsys', 'package', ...args]);
  }

  /** The hierarchy for the emulated UiAutomator2 server (androidx UiAutomator's attributes; logical coordinates, current rotation). */
  dumpXml(): string {
    return uiautomatorXml(this.logicalTree(), this.rotation());
  }

  /** The hierarchy as `uiautomator dump` writes it (frameworks/base's dumper), clipped to the logical screen. */
  private frameworkDump(): string {
    const o = this.logicalNatural();
    const screen = o ? (this.phone.orientation === 'landscape' ? { width: o.height, height: o.width } : o) : this.phone.size;
    return frameworkDumpXml(this.logicalTree(), this.rotation(), screen);
  }

  /** toybox cat of one file: its bytes, or its error on stderr with exit 1. */
  private cat(path: string): CommandResult {
    const data = this.files.read(path);
    return data ? { out: data.toString('utf8'), code: 0 } : { out: '', err: `cat: ${path}: No such file or directory\n`, code: 1 };
  }

  private async uiautomator([verb, file]: string[], terminal = true): Promise<CommandResult> {
    if (this.quirks.dumpDelayMs) await new Promise((r) => setTimeout(r, this.quirks.dumpDelayMs));
    if (verb !== 'dump') return unknown(['uiautomator', verb]);
    // DumpCommand prints its errors with System.err and no XML; `shell:` and `exec:` carry stderr on the stream.
    const dumpError = (message: string): CommandResult => ({ out: '', err: `ERROR: ${message}\n`, code: 0 });
    // With the screen off there is no window to read; uiautomator reports it like a transient failure.
    if (this.quirks.screenOff) return dumpError('null root node returned by UiTestAutomationBridge.');
    // DumpCommand connects its UiAutomation outside its try block, so the refusal escapes as a stack trace.
    if (this.uiAutomationHeld()) {
      return ok(
        'java.lang.IllegalStateException: UiAutomationService android.accessibilityservice.IAccessibilityServiceClient$Stub$Proxy@7e3e486already registered!\n' +
          '\tat android.os.Parcel.createException(Parcel.java:3030)\n\tat android.app.UiAutomationConnection.registerUiTestAutomationServiceLocked(UiAutomationConnection.java:558)\n' +
          '\tat android.app.UiAutomationConnection.connect(UiAutomationConnection.java:112)\n\tat com.android.commands.uiautomator.DumpCommand.run(DumpCommand.java:83)\n',
      );
    }
    // waitForIdle(1000, 10000) timed out: the UI changed at least once a second for 10 s.
    if (this.quirks.neverIdle) return dumpError('could not get idle state.');
    if (this.quirks.nullRootDumps > 0) {
      this.quirks.nullRootDumps--;
      return dumpError('null root node returned by UiTestAutomationBridge.');
    }
    // The dumper writes the document without a final newline, then DumpCommand prints where it went.
    const xml = this.frameworkDump();
    // Without a controlling terminal, opening /dev/tty fails (ENXIO): AccessibilityNodeInfoDumper logs
    // "failed to dump window to file" (logcat, not here) and DumpCommand still says where it dumped.
    if (file === '/dev/tty') return ok(terminal ? `${xml}UI hierchary dumped to: /dev/tty\n` : 'UI hierchary dumped to: /dev/tty\n');
    this.files.write(file ?? '/sdcard/window_dump.xml', Buffer.from(xml));
    return ok(`UI hierchary dumped to: ${file ?? '/sdcard/window_dump.xml'}\n`);
  }

  private async screencap(args: string[]): Promise<CommandResult> {
    const asPng = args.includes('-p') || this.quirks.rawScreencap === 'png';
    if (!asPng && this.quirks.rawScreencap === 'refused') return { out: '', err: 'usage: screencap -p [FILENAME]\n', code: 1 };
    const d = args.indexOf('-d');
    const id = d >= 0 ? args[d + 1] : undefined;
    const refusal = releaseSdk(this.quirks) < 29 ? olderScreencapRefusal(this.displays, id) : undefined;
    if (refusal) return { out: '', err: refusal, code: 1 };
    // Before Android 10 screencap takes built-in display numbers and warns of nothing.
    const panel = releaseSdk(this.quirks) < 29 ? { shows: 'screen' as const, warning: '', inner: false } : capturedPanel(this.displays, id);
    if ('error' in panel) return { out: panel.error, code: 1 };
    const { warning } = panel;
    let screen = await this.phone.screenRgba();
    if (panel.inner) {
      // A foldable's inner panel is larger than the virtual phone: its frame is the phone's, stretched.
      const natural = innerPanelSize(this.phone.profile);
      const [w, h] = this.rotation() % 2 === 1 ? [natural.height, natural.width] : [natural.width, natural.height];
      const data = await sharp(screen.data, { raw: { width: screen.width, height: screen.height, channels: 4 } }).resize(w, h, { fit: 'fill' }).raw().toBuffer();
      screen = { data, width: w, height: h };
    }
    const o = this.quirks.wmOverride;
    if (o && !panel.inner && releaseSdk(this.quirks) >= 31) {
      // From Android 12 SurfaceFlinger::captureDisplay defaults to the display's layer-stack size,
      // which a `wm size` override sets: the capture comes at the override size, not the panel's.
      // Before 12 the DisplayDevice's (panel) size was captured whatever the override.
      const [w, h] = this.phone.orientation === 'landscape' ? [o.height, o.width] : [o.width, o.height];
      const data = await sharp(screen.data, { raw: { width: screen.width, height: screen.height, channels: 4 } }).resize(w, h, { fit: 'fill' }).raw().toBuffer();
      screen = { data, width: w, height: h };
    }
    const { width, height } = screen;
    const data = panel.shows === 'screen' ? screen.data : Buffer.alloc(screen.data.length, Buffer.from([0, 0, 0, 255]));
    // A phone encodes every capture itself: screencap -p → AndroidBitmap_compress → hwui's
    // Bitmap::compress → SkPngEncoder::Encode(…, {}), i.e. Skia's default options (zlib level 6, all
    // five row filters tried per row: FilterFlag::kAll), so host decoders meet Paeth/Sub/Up rows as from a phone.
    const format = this.quirks.pixelFormat;
    const delay = this.quirks.screencapDelayMs[asPng ? 'png' : 'raw'];
    if (delay) await new Promise((r) => setTimeout(r, delay));
    // Before Android 8 there is no colour space (screencap neither writes one nor tags its PNG).
    const release = releaseMajor(this.quirks, this.phone.info.version);
    const colourSpace = release >= 8 ? this.quirks.colourSpace : 'sRGB';
    if (asPng) {
      const png = await sharp(capturedColours(data, format), { raw: { width, height, channels: 4 } }).png({ compressionLevel: 6, adaptiveFiltering: true }).toBuffer();
      return { out: colourSpace === 'DISPLAY_P3' ? await tagPngDisplayP3(png) : png, code: 0, err: warning };
    }
    return { out: rawScreencap(data, width, height, format, release, colourSpace), code: 0, err: warning };
  }
}

