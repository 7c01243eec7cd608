import type { CallContext } from '../../driver.js';
import { parseResumedPackage } from './shell-output.js';

/**
 * What is in front: an app's package; no app (`none` says so, and what is there instead: the lock
 * screen, the notification shade); or `unknown` when nothing the device answers can tell.
 */
export type FrontSeen = { app: string } | { none: string } | { unknown: true };

/** Where the app in front is read when the activity manager's dump is missing. */
export interface FrontSources {
  text(command: string, ctx: CallContext, what: string): Promise<string>;
  /** The active window's hierarchy: the UiAutomator2 server's source while it runs, else a `uiautomator dump` (android-device.ts). */
  dumpTree(ctx: CallContext): Promise<string>;
}

/**
 * The app in front from `dumpsys activity activities`, else (only when that printed no dump of its
 * own: a vendor build that hides the service, a device emulation that lacks it) from the window
 * manager's focus, else from the package of the active window's root in its hierarchy. A dump
 * that is there and names no resumed activity (a lock screen pauses them all) is an answer, and the
 * full device pays no extra round trip.
 */
export async function readFront(activities: string, io: FrontSources, ctx: CallContext): Promise<FrontSeen> {
  const resumed = parseResumedPackage(activities);
  if (resumed) return { app: resumed };
  // ActivityManagerService's dump opens with this header on every release.
  if (/ACTIVITY MANAGER ACTIVITIES/.test(activities)) return { none: 'no resumed activity' };
  const focus = parseWindowFocus(await io.text(WINDOW_FOCUS_COMMAND, ctx, 'reading the foreground app'));
  if (focus) return focus;
  const tree = await io.dumpTree(ctx);
  // The first element with a package: uiautomator names every element <node>, the UiAutomator2 server by its class.
  const root = /<[\w.$]+\s[^>]*?\spackage="([^"]+)"/.exec(tree)?.[1];
  // DumpCommand finds no active window while the screen is off.
  if (!root && /null root node/.test(tree)) return { none: 'no window is shown (uiautomator found no root node)' };
  if (!root) return { unknown: true };
  return SYSTEM_UI.test(root) ? { none: `no app in front (${root} shows: the lock screen or the notification shade)` } : { app: root };
}

/** Where the focus lines are: the display dump from Android 10 (DisplayContent.dump), the window list before. */
const WINDOW_FOCUS_COMMAND = 'dumpsys window displays; dumpsys window windows';

/** The package that draws the status bar, the shade and the lock screen. */
const SYSTEM_UI = /^com\.android\.systemui$/;

/**
 * `dumpsys window` (WindowManagerService's window list; DisplayContent.dump from Android 10): the
 * "mCurrentFocus=Window{<hash> u<user> <title>}" line, whose title is the component ("pkg/cls") for
 * an activity's window and a name for a system one ("StatusBar", "NotificationShade" from Android
 * 12, "Keyguard"), and "mFocusedApp=", the activity record (Android 10+ "ActivityRecord{<hash> u0
 * pkg/.Cls t7}", before "AppWindowToken{… token=Token{… ActivityRecord{…}}}"). The focused window
 * decides; while it is null (a window is being replaced) or a popup's, the focused app does.
 */
export function parseWindowFocus(out: string): FrontSeen | undefined {
  const focus = /^\s*mCurrentFocus=(.*)$/m.exec(out)?.[1]?.trim();
  const window = focus && /^Window\{\S+ u\d+ ([^}]*?)(?: EXITING)?\}/.exec(focus)?.[1];
  const app = /^\s*mFocusedApp=.*?ActivityRecord\{\S+ u\d+ ([\w.]+)\//m.exec(out)?.[1];
  if (window) {
    const component = /^([\w.]+)\/[\w.$]+$/.exec(window)?.[1];
    if (component) return { app: component };
    if (/^(?:StatusBar|NotificationShade|Keyguard|Bouncer)\b/.test(window)) return { none: `no app in front (the system's ${window} window has the focus: the lock screen or the notification shade)` };
  }
  return app ? { app } : undefined;
}
