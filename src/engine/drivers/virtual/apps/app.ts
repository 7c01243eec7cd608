import { ToolError } from '../../../errors.js';
import type { DeviceProfile } from '../profile.js';
import {
  emptyData, TOAST_LOG_LIMIT, TOAST_MS,
  type AppData, type DialogState, type InstalledRecord, type PhoneState, type Route, type TaskState,
} from '../state.js';
import type { Action, ButtonView, ColorName, View } from '../view.js';

/** Back stack (bottom to top) and optional dialog a deep link opens. */
export interface DeepLinkTarget {
  routes: Route[];
  dialog?: DialogState;
  /** Where the link landed when that is not what it asked for (an item that does not exist), for the caller. */
  landed?: string;
}

/** A dialog an app shows: alert, context menu, or (system = true) a runtime permission prompt. */
export interface DialogSpec {
  title: string;
  message?: string;
  /** Menu entries, stacked full width. */
  options?: { id: string; text: string; action: Action }[];
  /** Dialog buttons, side by side at the bottom. */
  buttons?: { id: string; text: string; action: Action }[];
  /** Tapping outside or BACK dismisses it with this action (absent = it stays). */
  onCancel?: Action;
  system?: boolean;
}

/** What one screen of an app shows, declared as data; the phone adds status bar, toolbar and keyboard. */
export interface Screen {
  /** Toolbar / navigation bar title; absent = no toolbar. */
  title?: string;
  /** Show an up / back button in the toolbar. */
  up?: boolean;
  actions?: ButtonView[];
  body: View;
  bg?: ColorName;
  dialog?: DialogSpec;
  /** Field ids in focus order; ENTER moves along them and runs `submit` on the last one. */
  fields?: string[];
  submit?: Action;
}

export interface AppBehaviour {
  /** First route when the app starts without a running task. */
  start(app: AppScope): Route;
  screen(app: AppScope): Screen;
  /** App-specific actions (the phone handles the generic ones itself). */
  act(action: Action, app: AppScope): void;
  /** Where a deep link leads; undefined when the app does not handle it. */
  deepLink?(url: URL, app: AppScope): DeepLinkTarget | undefined;
}

/** The view of one running app on the phone state, with the operations apps need. */
export class AppScope {
  constructor(
    readonly state: PhoneState,
    readonly pkg: string,
    readonly task: TaskState,
    readonly profile: DeviceProfile,
    readonly now: number,
  ) {}

  get record(): InstalledRecord | undefined {
    return this.state.installed.find((a) => a.package === this.pkg);
  }

  get data(): AppData {
    return (this.state.data[this.pkg] ??= emptyData());
  }

  get route(): Route {
    return this.task.stack[this.task.stack.length - 1];
  }

  flag(name: string): boolean {
    return this.data.flags[name] === true;
  }

  setFlag(name: string, value: boolean): void {
    this.data.flags[name] = value;
  }

  list(name: string): number[] {
    return (this.data.lists[name] ??= []);
  }

  toggleInList(name: string, value: number): boolean {
    const values = this.list(name);
    const at = values.indexOf(value);
    if (at >= 0) values.splice(at, 1);
    else values.push(value);
    return at < 0;
  }

  field(id: string): string {
    return this.task.fields[id] ?? '';
  }

  /** A zoomable view's zoom on this task (1 until pinched). */
  zoom(key: string): number {
    return this.task.zoom?.[key] ?? 1;
  }

  setZoom(key: string, value: number): void {
    (this.task.zoom ??= {})[key] = value;
  }

  /** Leaving a screen drops its focus (and so the keyboard) and any dialog. */
  private leave(): void {
    this.task.focus = null;
    this.task.dialog = null;
    this.task.error = null;
  }

  push(route: Route): void {
    this.leave();
    this.task.stack.push(route);
  }

  replace(route: Route): void {
    this.leave();
    this.task.stack[this.task.stack.length - 1] = route;
  }

  resetTo(routes: Route[]): void {
    this.leave();
    this.task.stack = routes;
    this.task.fields = {};
    this.task.scroll = {};
  }

  showDialog(dialog: DialogState): void {
    this.task.dialog = dialog;
  }

  closeDialog(): void {
    this.task.dialog = null;
  }

  toast(text: string): void {
    this.state.toasts.push({ text, package: this.pkg, shownAt: this.now, until: this.now + TOAST_MS });
    if (this.state.toasts.length > TOAST_LOG_LIMIT) this.state.toasts.splice(0, this.state.toasts.length - TOAST_LOG_LIMIT);
  }

  unknownAction(action: Action): never {
    throw new ToolError('INTERNAL', `virtual app ${this.pkg} has no action "${action.do}"`);
  }
}
