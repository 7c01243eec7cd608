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
  /** What Ctrl+C or Ctrl+X put on the phone's clipboard; absent until then. */
  clipboard?: string;
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
  /** The field whose whole text Ctrl+A selected (text-selection.ts); absent in older state files. */
  selected?: string | null;
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

/**
 * Why a state read from disk cannot be used, or undefined when it can. Checked down to every field
 * the phone reads: a hand edit that left a task without its stack, or a toast as null, otherwise
 * made every later call on that phone fail with a bare TypeError.
 */
export function phoneStateProblem(value: unknown): string | undefined {
  if (!isRecord(value)) return 'not an object';
  const s = value as Partial<PhoneState>;
  if (s.orientation !== 'portrait' && s.orientation !== 'landscape') return 'orientation is neither "portrait" nor "landscape"';
  for (const key of ['darkMode', 'wifi', 'keyboardShown'] as const) if (typeof s[key] !== 'boolean') return `${key} is not true or false`;
  if (!isFiniteNumber(s.volume)) return 'volume is not a number';
  if (s.clipboard !== undefined && typeof s.clipboard !== 'string') return 'clipboard is not a text';
  if (typeof s.foreground !== 'string') return 'foreground is not a package name';
  if (!Array.isArray(s.installed)) return 'installed is not a list';
  const badApp = s.installed.findIndex((a) => !isInstalledRecord(a));
  if (badApp >= 0) return `installed[${badApp}] lacks a package, name, version, system or installedAt`;
  if (!isRecord(s.tasks)) return 'tasks is not an object';
  for (const [pkg, task] of Object.entries(s.tasks)) {
    const why = taskProblem(task);
    if (why) return `tasks["${pkg}"]: ${why}`;
  }
  if (!isRecord(s.data)) return 'data is not an object';
  for (const [pkg, data] of Object.entries(s.data)) {
    if (!isRecord(data) || !isRecordOf(data.flags, (f) => typeof f === 'boolean') || !isRecordOf(data.lists, isNumberList)) {
      return `data["${pkg}"] is not {flags: {name: true|false}, lists: {name: [numbers]}}`;
    }
  }
  if (!Array.isArray(s.toasts)) return 'toasts is not a list';
  const badToast = s.toasts.findIndex((t) => !isRecord(t) || typeof t.text !== 'string' || typeof t.package !== 'string' || !isFiniteNumber(t.shownAt) || !isFiniteNumber(t.until));
  if (badToast >= 0) return `toasts[${badToast}] is not {text, package, shownAt, until}`;
  return undefined;
}

function taskProblem(value: unknown): string | undefined {
  if (!isRecord(value)) return 'not an object';
  const t = value as Partial<TaskState>;
  if (!Array.isArray(t.stack) || t.stack.length === 0) return 'stack is not a list of screens';
  if (!t.stack.every(isRoute)) return 'a screen of its stack has no name, or a field of the wrong type';
  if (!isRecordOf(t.fields, (v) => typeof v === 'string')) return 'fields is not {id: text}';
  if (t.focus !== null && typeof t.focus !== 'string') return 'focus is neither a field id nor null';
  if (!isRecordOf(t.scroll, isFiniteNumber)) return 'scroll is not {list: offset}';
  if (t.zoom !== undefined && !isRecordOf(t.zoom, isFiniteNumber)) return 'zoom is not {view: scale}';
  if (t.dialog !== null && !(isRecord(t.dialog) && typeof t.dialog.kind === 'string' && optional(t.dialog.item, isFiniteNumber))) return 'dialog is neither {kind} nor null';
  if (t.error !== null && typeof t.error !== 'string') return 'error is neither a text nor null';
  if (t.selected !== undefined && t.selected !== null && typeof t.selected !== 'string') return 'selected is neither a field id nor null';
  return undefined;
}

function isRoute(value: unknown): boolean {
  if (!isRecord(value) || typeof value.screen !== 'string') return false;
  return optional(value.item, isFiniteNumber) && optional(value.until, isFiniteNumber) &&
    optional(value.url, (v) => typeof v === 'string') && optional(value.next, (v) => typeof v === 'string');
}

function isInstalledRecord(value: unknown): boolean {
  return isRecord(value) && typeof value.package === 'string' && typeof value.name === 'string' &&
    typeof value.version === 'string' && typeof value.system === 'boolean' && isFiniteNumber(value.installedAt);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isRecordOf(value: unknown, each: (v: unknown) => boolean): boolean {
  return isRecord(value) && Object.values(value).every(each);
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function isNumberList(value: unknown): boolean {
  return Array.isArray(value) && value.every(isFiniteNumber);
}

function optional(value: unknown, check: (v: unknown) => boolean): boolean {
  return value === undefined || check(value);
}
