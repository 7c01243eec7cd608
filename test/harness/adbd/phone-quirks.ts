import type { AppErrorDialog } from './app-error-dialog.js';
import type { ColourSpaceName, PixelFormatName } from './raw-screencap.js';

/** Knobs tests turn to reproduce what real devices do. */
export interface PhoneQuirks {
  /** The next N `uiautomator dump` calls print "null root node" instead of a dump. */
  nullRootDumps: number;
  /** The screen never stays still for 1 s (an animation, a video): `uiautomator dump` prints "could not get idle state". */
  neverIdle: boolean;
  /** `dumpsys SurfaceFlinger --display-id` lists a second display. */
  secondDisplay: boolean;
  /** A foldable's two panels (displays.ts): folded, the outer one shows the phone; open, the inner one (listed first). */
  foldable: 'folded' | 'open' | undefined;
  /** Packages whose management commands fail with a SecurityException. */
  securityDenied: Set<string>;
  /** No physical keys (cloud phones, TV boxes): `monkey -p` aborts on "SYS_KEYS has no physical keys". */
  noPhysicalKeys: boolean;
  /** Input injection is forbidden (Xiaomi/MIUI without "USB debugging (Security settings)"). */
  injectionDenied: boolean;
  /** The focused field drops deletions (an InputFilter that refuses them, a field that ignores edits): DEL and FORWARD_DEL change nothing. */
  deletesRefused: boolean;
  /** The screen is off: input is dropped, uiautomator finds no root node, `dumpsys power` says Asleep. */
  screenOff: boolean;
  /** The lock screen shows: input reaches the keyguard, not the app. */
  locked: boolean;
  /** The lock needs a PIN/pattern/password: `wm dismiss-keyguard` cannot remove it. */
  secureLock: boolean;
  /** A trust agent (Smart Lock) holds the secure lock open: `wm dismiss-keyguard` unlocks without the PIN. */
  lockTrusted: boolean;
  /**
   * A device policy or user restriction forbids changing Wi-Fi: `cmd wifi set-wifi-enabled` and
   * `svc wifi` exit 0 and change nothing (WifiShellCommand ignores setWifiEnabled's answer).
   */
  wifiRefused: boolean;
  /** An activity shows over the lock screen (camera, a call, showWhenLocked): input reaches it. */
  lockOccluded: boolean;
  /**
   * Android's app error dialog shows (app-error-dialog.ts): a crash ("keeps stopping") or an ANR
   * ("isn't responding"). The dump shows the dialog's window alone and input does not reach the app;
   * its buttons are not emulated (a test clears the quirk to close it).
   */
  appError: AppErrorDialog | undefined;
  /** `wm size` override (or a vendor's lower render size): input and uiautomator use it, screencap keeps panel pixels. */
  wmOverride: { width: number; height: number } | undefined;
  /** What one `uiautomator dump` costs the device (JVM start, wait for idle, tree walk, file write); 0 = instant. */
  dumpDelayMs: number;
  /**
   * What one capture costs the device beyond the emulation's own work: `png` for `screencap -p`
   * (real phones spend 0.6–3 s in the PNG encoder), `raw` for raw `screencap`; 0 = instant.
   */
  screencapDelayMs: { raw: number; png: number };
  /** The next `pm install` prints "Failure [<this>]" (e.g. "INSTALL_FAILED_INSUFFICIENT_STORAGE"). */
  installFailure: string | undefined;
  /**
   * The user restriction no_install_apps (a managed phone, a work profile): PackageInstallerService.createSessionInternal
   * throws SecurityException("User restriction prevents installing") before any session exists, so `pm install-create` fails.
   */
  installRestricted?: boolean;
  /** The next `pm uninstall` prints "Failure [<this>]" (e.g. DELETE_FAILED_OWNER_BLOCKED, a device owner's block). */
  uninstallFailure: string | undefined;
  /**
   * `pm install-commit` waits for a confirmation on the phone that nobody gives (MIUI "Install via
   * USB", ColorOS, Vivo, Play Protect): it answers only once the session is abandoned.
   */
  installConfirmation: boolean;
  /** An `input` without a `motionevent` command (it answers "Unknown command"), as on releases before 10 whatever this says. */
  noMotionEvent: boolean;
  /**
   * Before Android 10: `dumpsys input` lists a touch device that does not follow the display (a
   * touchpad, an emulator's extra multi-touch device) before the touchscreen; its SurfaceOrientation stays 0.
   */
  touchpadFirst: boolean;
  /**
   * Packages whose activity fixes its orientation (android:screenOrientation="portrait"): with
   * rotation locked, DisplayRotation.rotationForOrientation lets the app's request win over
   * user_rotation, so the display stays in the app's orientation while it is in front.
   */
  fixedOrientation: Map<string, 'portrait' | 'landscape'>;
  /** How long after `settings put system user_rotation` the display turns (a phone animates it); 0 = at once. */
  rotationDelayMs: number;
  /**
   * Packages with a second launcher activity (package → its class, e.g. a debug build's
   * "leakcanary.internal.activity.LeakLauncherActivity"): the package manager then resolves the
   * launcher intent to its chooser, ResolverActivity, which `am start` opens instead of the app.
   */
  secondLauncher: Map<string, string>;
  /** Packages disabled with `pm disable-user` (or Settings › Apps › Disable): installed, but nothing of them resolves or starts. */
  disabledApps: Set<string>;
  /**
   * The display's natural orientation is landscape (most tablets, TV boxes, Chromebooks): `wm size`
   * prints the landscape size and rotation 0 shows landscape, so portrait is rotation 1. Tests turn
   * the virtual phone to landscape first, as such a device starts.
   */
  naturalLandscape: boolean;
  /**
   * System apps that carry an update (Chrome, Maps…): `pm uninstall` removes only the update and
   * prints "Success" (PackageManagerShellCommand runUninstall with DELETE_ALL_USERS); the factory
   * version stays installed, and a second uninstall is refused as for any system app.
   */
  updatedSystemApps: Set<string>;
  /** Another Android release, mostly older (getprop's release and API level; the package manager's options and output, and the keyguard dump's layout, follow it). */
  release: { version: string; sdk: number } | undefined;
  /** The buffer format screen captures come in (raw-screencap.ts): RGB_565 on 16-bit displays, RGBA_1010102 for wide-colour captures. */
  pixelFormat: PixelFormatName;
  /** The dataspace captures come in (raw-screencap.ts): DISPLAY_P3 for a display in a wide-colour mode (raw header c = 2, `screencap -p` tagged Display P3). */
  colourSpace: ColourSpaceName;
  /**
   * Packages that do not come up when started: `crash`, the process dies in onCreate, before the
   * first frame, and the app that was in front stays there; `busy`, the app is shown but its main
   * thread never goes idle, so Android's idle timeout ends `am start -W`; `slow`, the app is in front
   * but its first frame takes longer than a test waits, so `am start -W` does not answer (app-commands.ts);
   * `permission`, the app asks for a runtime permission as it starts, and the system's prompt comes up over it.
   */
  appStart: Map<string, 'crash' | 'busy' | 'slow' | 'permission'>;
  /** Every link has several handlers and none is the default: `am start -a VIEW` opens the system's "Open with" chooser (app-commands.ts). */
  linkChooser: boolean;
  /** The user the screen shows (a shared tablet switched to a secondary user or a guest): `am start` and the launcher act for it, pm for user 0 unless told (users.ts). */
  currentUser: number;
  /** Packages installed for some users only (package → their ids); a package not here is every user's. */
  userInstalls: Map<string, Set<number>>;
  /**
   * Android still starting: adbd is up (adb lists `device`) before the system server has finished, and
   * `sys.boot_completed` is set to 1 only by ActivityManagerService.finishBooting; until then getprop has
   * no such property.
   */
  booting: boolean;
  /** `am start` ignores -W (a device emulation's `am`): it prints "Starting: Intent {…}" and returns without a WaitResult. */
  startIgnoresWait?: boolean;
  /** `am start` does not know -W: Intent.parseCommandArgs throws "Unknown option: -W" and nothing starts. */
  startRefusesWait?: boolean;
  /** What the device's shell lacks (absent-commands.ts): "monkey", "dumpsys input", "cmd package". */
  absent: Set<string>;
  /**
   * getprop prints a few product and build properties only, none of init's own (init.svc.*, which
   * every Android prints): a shell that is not Android's, as a stripped-down or emulated device has.
   */
  bareGetprop: boolean;
  /**
   * What `screencap` without -p writes, where not a raw frame: `png`, a PNG whatever the options (an
   * emulation that only knows -p); `refused`, a usage error on stderr and exit 1. -p works either way.
   */
  rawScreencap?: 'png' | 'refused';
}

/** The release's major version: the quirk's older release, else the phone's own (`phoneVersion`). */
export function releaseMajor(quirks: PhoneQuirks, phoneVersion: string): number {
  return Number.parseInt(quirks.release?.version ?? phoneVersion, 10);
}

/** The release's API level: the quirk's older release, else Android 14's. */
export function releaseSdk(quirks: PhoneQuirks): number {
  return quirks.release?.sdk ?? 34;
}

/** A phone without quirks: every knob off. */
export function noQuirks(): PhoneQuirks {
  return {
    nullRootDumps: 0, neverIdle: false, secondDisplay: false, securityDenied: new Set(), noPhysicalKeys: false, installFailure: undefined, uninstallFailure: undefined, installConfirmation: false, injectionDenied: false, deletesRefused: false, screenOff: false, locked: false, secureLock: false, lockTrusted: false, wifiRefused: false, lockOccluded: false, appError: undefined, wmOverride: undefined, dumpDelayMs: 0, screencapDelayMs: { raw: 0, png: 0 },
    noMotionEvent: false, touchpadFirst: false, fixedOrientation: new Map(), rotationDelayMs: 0, secondLauncher: new Map(), disabledApps: new Set(), naturalLandscape: false, updatedSystemApps: new Set(), release: undefined, pixelFormat: 'RGBA_8888', colourSpace: 'sRGB', foldable: undefined, appStart: new Map(), linkChooser: false, currentUser: 0, userInstalls: new Map(), booting: false, absent: new Set(), bareGetprop: false,
  };
}
