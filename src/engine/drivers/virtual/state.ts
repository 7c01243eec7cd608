import type { Orientation } from '../../types.js';
import { DEMO_PACKAGE, type DeviceProfile } from './profile.js';

/**
 * The whole state of one virtual phone as plain JSON data, so that it can be written to a
 * state file and picked up by the next process. Timers are absolute times on the device clock.
 */
export interface PhoneState {
  orientation: Orientation;
  darkMode: boolean;
  wifi: boolean;
  volume: number;
  installed: InstalledRecord[];
  foreground: string;
  /** Running apps: their back stack and screen-local state. Absent = not running. */
  tasks: Record<string, TaskState>;
  /** Data an app keeps across launches (cleared by clear data / uninstall). */
  data: Record<string, AppData>;
  /** The soft keyboard is up (it also needs a focused field in the foreground app). */
  keyboardShown: boolean;
  toasts: ToastRecord[];
}

export interface InstalledRecord {
  package: string;
  name: string;
  version: string;
  system: boolean;
  installedAt: number;
}

export interface Route {
  screen: string;
  item?: number;
  url?: string;
  /** A timed screen (loading) moves on to `next` at this clock time. */
  until?: number;
  next?: string;
}

export interface DialogState {
  kind: string;
  item?: number;
}

export interface TaskState {
  stack: Route[];
  fields: Record<string, string>;
  focus: string | null;
  scroll: Record<string, number>;
  dialog: DialogState | null;
  error: string | null;
  /** Zoom of zoomable views by key (1 = not zoomed); absent in state files from before pinch. */
  zoom?: Record<string, number>;
}

export interface AppData {
  flags: Record<string, boolean>;
  lists: Record<string, number[]>;
}

export interface ToastRecord {
  text: string;
  package: string;
  shownAt: number;
  until: number;
}

export const TOAST_MS = 2500;
export const TOAST_LOG_LIMIT = 50;

export function emptyTask(route: Route): TaskState {
  return { stack: [route], fields: {}, focus: null, scroll: {}, dialog: null, error: null };
}

export function emptyData(): AppData {
  return { flags: {}, lists: {} };
}

export function initialState(profile: DeviceProfile, now: number): PhoneState {
  const ios = profile.platform === 'ios';
  const system = (pkg: string, name: string, version: string): InstalledRecord => ({
    package: pkg, name, version, system: true, installedAt: now,
  });
  return {
    orientation: 'portrait',
    darkMode: false,
    wifi: true,
    volume: 8,
    installed: [
      system(profile.launcher, ios ? 'Home Screen' : 'Pixel Launcher', ios ? '17.5' : '14'),
      system(profile.browser, ios ? 'Safari' : 'Chrome', ios ? '17.5' : '124.0.6367.82'),
      system(profile.settings, 'Settings', ios ? '17.5' : '14'),
      { package: DEMO_PACKAGE, name: 'MobileBridge Demo', version: '1.4.2', system: false, installedAt: now },
    ],
    foreground: profile.launcher,
    tasks: { [profile.launcher]: emptyTask({ screen: 'home' }) },
    data: {},
    keyboardShown: false,
    toasts: [],
  };
}

/** Accepts a state read from disk only when it has the fields this version relies on. */
export function isPhoneState(value: unknown): value is PhoneState {
  const s = value as PhoneState;
  return (
    typeof s === 'object' && s !== null && Array.isArray(s.installed) && typeof s.foreground === 'string' &&
    typeof s.tasks === 'object' && typeof s.data === 'object' && Array.isArray(s.toasts) &&
    (s.orientation === 'portrait' || s.orientation === 'landscape')
  );
}
