import { ToolError } from '../../errors.js';
import { longPressThresholdMs } from '../../long-press.js';
import type { Button, CtrlLetter, FingerPath, Orientation } from '../../types.js';
import type { UiNode } from '../../ui-tree.js';
import { AppScope, type AppBehaviour } from './apps/app.js';
import { demoApp } from './apps/demo.js';
import { browserApp, genericApp, launcherApp, settingsApp } from './apps/system.js';
import { compose, frameTree, type Frame, type Layer } from './compose.js';
import { Finger } from './finger.js';
import { contains, type Box } from './layout.js';
import { PhoneApps } from './phone-apps.js';
import { DEMO_PACKAGE, type DeviceProfile } from './profile.js';
import { emptyTask, type PhoneState, type TaskState, type ToastRecord } from './state.js';
import { ctrlShortcut, takeSelection } from './text-selection.js';
import type { Action, View } from './view.js';

/**
 * The behaviour of one virtual phone over its plain-data state: gestures, keys, system settings,
 * and its apps (phone-apps.ts). Synchronous and deterministic for a given clock time.
 */
export class Phone {
  /** Installing, starting and stopping apps, and opening URLs. */
  readonly apps = new PhoneApps(this);
  private cached: { key: string; frame: Frame } | undefined;
  /** The finger of streamed touch (not part of the saved state: a finger does not survive a restart). */
  private readonly finger = new Finger({
    now: () => this.now,
    longPressMs: () => longPressThresholdMs(this.profile.info),
    screen: () => {
      const frame = this.frame();
      return { width: frame.width, height: frame.height, modal: frame.layers.some((l) => l.modal) };
    },
    hit: (x, y) => this.hit(x, y),
    setScroll: (key, offset) => (this.foregroundTask.scroll[key] = offset),
    tap: (x, y) => this.tap(x, y),
    longPress: (x, y) => this.longPress(x, y),
    back: () => this.navigateBack({ hideKeyboardFirst: false }),
  });

  constructor(
    readonly profile: DeviceProfile,
    public state: PhoneState,
    private readonly clockNow: () => number,
  ) {}

  get id(): string {
    return this.profile.info.id;
  }

  get now(): number {
    return this.clockNow();
  }

  private behaviour(pkg: string): AppBehaviour {
    if (pkg === this.profile.launcher) return launcherApp;
    if (pkg === this.profile.browser) return browserApp;
    if (pkg === this.profile.settings) return settingsApp;
    if (pkg === DEMO_PACKAGE) return demoApp;
    return genericApp;
  }

  /** The app's running task, started fresh when it has none. */
  scope(pkg: string): AppScope {
    let task = this.state.tasks[pkg];
    if (!task) {
      task = emptyTask({ screen: 'main' });
      const scope = new AppScope(this.state, pkg, task, this.profile, this.now);
      task.stack = [this.behaviour(pkg).start(scope)];
      this.state.tasks[pkg] = task;
      return scope;
    }
    return new AppScope(this.state, pkg, task, this.profile, this.now);
  }

  private get foregroundTask(): TaskState {
    return this.scope(this.state.foreground).task;
  }

  /** Moves timed screens (loading) on once their time has come. */
  settle(): void {
    // A finger held down: its long press is due whether or not the client sent anything since.
    this.finger.settle();
    const now = this.now;
    for (const pkg of Object.keys(this.state.tasks)) {
      for (let guard = 0; guard < 5; guard++) {
        const scope = this.scope(pkg);
        const route = scope.route;
        if (route.until === undefined || route.until > now) break;
        scope.replace({ screen: route.next ?? 'home' });
      }
    }
  }

  activeToast(): ToastRecord | undefined {
    const now = this.now;
    for (let i = this.state.toasts.length - 1; i >= 0; i--) {
      const t = this.state.toasts[i];
      if (t.shownAt <= now && now < t.until) return t;
    }
    return undefined;
  }

  frame(): Frame {
    const toast = this.activeToast();
    const minute = Math.floor(this.now / 60_000);
    const key = `${JSON.stringify(this.state)}|${toast ? toast.shownAt : -1}|${minute}`;
    if (this.cached?.key === key) return this.cached.frame;
    const scope = this.scope(this.state.foreground);
    const screen = this.behaviour(scope.pkg).screen(scope);
    const frame = compose({ profile: this.profile, state: this.state, task: scope.task, screen, now: this.now, toast });
    // The key is taken again: starting a missing task above may have changed the state.
    this.cached = { key: `${JSON.stringify(this.state)}|${toast ? toast.shownAt : -1}|${minute}`, frame };
    return frame;
  }

  /** A string that changes whenever the screen's content does. */
  frameKey(): string {
    this.frame();
    return this.cached?.key ?? '';
  }

  uiTree(): UiNode {
    return frameTree(this.frame(), this.profile);
  }

  // ---- gestures ----------------------------------------------------------------------------

  private checkPoint(x: number, y: number): void {
    const { width, height } = this.frame();
    if (!(x >= 0 && y >= 0 && x < width && y < height)) {
      throw new ToolError('INVALID_PARAMETER', `point (${x}, ${y}) is outside the screen of ${this.id} (${width}x${height} pixels); use coordinates from mobile_list_elements_on_screen`);
    }
  }

  /** The boxes under a point, outermost first, in the layer that receives touches. */
  private hit(x: number, y: number): { path: Box[]; layer: Layer; outside: boolean } {
    const layers = this.frame().layers;
    const modal = [...layers].reverse().find((l) => l.modal);
    const layer = modal ?? layers[0];
    if (modal?.modal && !(modal.modal.card.visible && contains(modal.modal.card.visible, x, y))) {
      return { path: [], layer, outside: true };
    }
    return { path: hitPath(layer.box, x, y), layer, outside: false };
  }

  tap(x: number, y: number): void {
    this.checkPoint(x, y);
    const { path, layer, outside } = this.hit(x, y);
    if (outside) {
      if (layer.modal?.onOutsideTap) this.dispatch(layer.modal.onOutsideTap);
      return;
    }
    for (const box of [...path].reverse()) {
      const v = box.view;
      if (v.kind === 'button' && v.enabled === false) return;
      if (v.onTap) return this.dispatch(v.onTap);
    }
    // The demo apps end editing on a tap outside the field, as most iOS apps do (endEditing: the field
    // resigns first responder, so the keyboard goes and typing has nowhere to go until a field is tapped).
    const onKeyboard = path.some((b) => (b.view.kind === 'column' || b.view.kind === 'row') && b.view.role === 'keyboard');
    if (this.profile.platform === 'ios' && !layer.modal && !onKeyboard && this.frame().keyboardVisible) {
      this.state.keyboardShown = false;
      this.foregroundTask.focus = null;
    }
  }

  doubleTap(x: number, y: number): void {
    this.checkPoint(x, y);
    const { path, outside } = this.hit(x, y);
    const target = outside ? undefined : deepest(path, (v) => v.onDoubleTap);
    if (target) return this.dispatch(target);
    this.tap(x, y);
    this.tap(x, y);
  }

  /** True when something took it (a list row's menu opened). */
  longPress(x: number, y: number): boolean {
    this.checkPoint(x, y);
    const { path, outside } = this.hit(x, y);
    const target = outside ? undefined : deepest(path, (v) => v.onLongPress);
    if (target) this.dispatch(target);
    return target !== undefined;
  }

  swipe(fromX: number, fromY: number, toX: number, toY: number): void {
    this.checkPoint(fromX, fromY);
    const { width } = this.frame();
    const dx = toX - fromX;
    const dy = toY - fromY;
    const { path, outside } = this.hit(fromX, fromY);
    if (outside) return;
    // Edge swipe from the left is "back" on both platforms' gesture navigation.
    if (fromX < width * 0.05 && dx > width * 0.25 && Math.abs(dy) < dx / 2 && !this.frame().layers.some((l) => l.modal)) {
      this.navigateBack({ hideKeyboardFirst: false });
      return;
    }
    const scroller = [...path].reverse().find((b) => b.scroll);
    if (!scroller?.scroll || dy === 0) return;
    // A finger moving up (dy < 0) moves the content up, revealing what lies below.
    const next = Math.min(scroller.scroll.max, Math.max(0, scroller.scroll.offset - Math.round(dy)));
    this.foregroundTask.scroll[scroller.scroll.key] = next;
  }

  /**
   * Two fingers down together and moved: the zoomable view under the point between where they
   * went down gets the scale (end span / start span), as ScaleGestureDetector / a pinch
   * recognizer report it. Anywhere else nothing happens, as on a real screen.
   */
  pinch(fingers: readonly [FingerPath, FingerPath]): void {
    const [a, b] = fingers;
    this.checkPoint(a.from.x, a.from.y);
    this.checkPoint(b.from.x, b.from.y);
    const { path, outside } = this.hit((a.from.x + b.from.x) / 2, (a.from.y + b.from.y) / 2);
    const target = outside ? undefined : deepest(path, (v) => v.onPinch);
    const span = (p: 'from' | 'to') => Math.hypot(a[p].x - b[p].x, a[p].y - b[p].y);
    if (target && span('from') > 0) this.dispatch({ ...target, scale: span('to') / span('from') });
  }

  /** Streamed touch (finger.ts): down, moves, up or cancel. */
  touch(phase: 'down' | 'move' | 'up' | 'cancel', x: number, y: number): void {
    if (phase === 'down') this.finger.press(x, y);
    else if (phase === 'move') this.finger.move(x, y);
    else if (phase === 'up') this.finger.lift(x, y);
    else this.finger.cancel();
  }

  /** Empties the focused field, as select-all and delete would. */
  clearText(): void {
    const task = this.foregroundTask;
    if (task.dialog || !task.focus) {
      throw new ToolError('INVALID_PARAMETER', `no text field is focused on ${this.id}; tap a text field first (mobile_list_elements_on_screen shows edittext elements)`);
    }
    task.fields[task.focus] = '';
    task.selected = null;
  }

  /** One backspace in the focused field (a selection's whole text); nothing focused: the key goes nowhere, as on a device. */
  deleteBackward(): void {
    const task = this.foregroundTask;
    if (task.dialog || !task.focus || takeSelection(task)) return;
    task.fields[task.focus] = (task.fields[task.focus] ?? '').slice(0, -1);
  }

  /** A hardware keyboard's Ctrl+letter in the focused field (text-selection.ts). */
  ctrl(letter: CtrlLetter): void {
    ctrlShortcut(this.state, this.foregroundTask, letter, this.id);
  }

  /** A newline types ENTER and a tab moves to the next field, as a phone's keyboard does. */
  typeText(value: string): void {
    const task = this.foregroundTask;
    // Text at even indexes, the newlines and tabs between them at odd ones.
    const parts = value.split(/([\n\t])/);
    parts.forEach((part, i) => {
      if (i % 2 === 1) return part === '\n' ? this.press('ENTER') : this.nextField();
      if (!part) return;
      if (task.dialog || !task.focus) {
        // Part of the text may be in already: say how much, since a retry would type it twice. Counted, not
        // quoted: the text may be a password, and error messages reach every viewer's activity feed.
        const count = (n: number) => `${n} character${n === 1 ? '' : 's'}`;
        const done = i > 0 ? `typed the first ${count([...parts.slice(0, i).join('')].length)} (newlines as ENTER, tabs as TAB), then ` : '';
        throw new ToolError('INVALID_PARAMETER', `${done}no text field is focused on ${this.id}${done ? ` for the other ${count([...parts.slice(i).join('')].length)}` : ''}; tap a text field first (mobile_list_elements_on_screen shows edittext elements)`);
      }
      takeSelection(task);
      task.fields[task.focus] = (task.fields[task.focus] ?? '') + part;
      task.error = null;
    });
  }

  press(button: Button): void {
    switch (button) {
      case 'BACK':
        if (this.profile.platform === 'ios') {
          throw new ToolError('INVALID_PARAMETER', `iOS has no BACK button (${this.id}); tap the navigation bar's Back button or swipe right from the left edge of the screen`);
        }
        return this.navigateBack({ hideKeyboardFirst: true });
      case 'HOME':
        this.state.keyboardShown = false;
        this.state.foreground = this.profile.launcher;
        this.scope(this.profile.launcher);
        return;
      case 'ENTER':
        return this.enter();
      case 'VOLUME_UP':
      case 'VOLUME_DOWN':
        this.state.volume = Math.min(15, Math.max(0, this.state.volume + (button === 'VOLUME_UP' ? 1 : -1)));
        return;
    }
  }

  /** Tab: focus moves to the screen's next field; from the last one it stays (nothing else on screen takes key focus). */
  nextField(): void {
    const task = this.foregroundTask;
    if (!task.focus || task.dialog) return;
    task.selected = null;
    const order = this.frame().screen.fields ?? [];
    const next = order[order.indexOf(task.focus) + 1];
    if (order.includes(task.focus) && next) task.focus = next;
  }

  private enter(): void {
    const task = this.foregroundTask;
    if (!task.focus || task.dialog) return;
    const screen = this.frame().screen;
    const order = screen.fields ?? [];
    const next = order[order.indexOf(task.focus) + 1];
    if (order.includes(task.focus) && next) {
      task.focus = next;
    } else if (screen.submit) {
      this.state.keyboardShown = false;
      this.dispatch(screen.submit);
    } else if (this.profile.platform === 'ios') {
      this.state.keyboardShown = false; // the return key reads "Done" here
    }
  }

  private navigateBack(opts: { hideKeyboardFirst: boolean }): void {
    const scope = this.scope(this.state.foreground);
    const task = scope.task;
    if (opts.hideKeyboardFirst && this.frame().keyboardVisible) {
      this.state.keyboardShown = false;
      return;
    }
    if (task.dialog) {
      const cancel = this.frame().screen.dialog?.onCancel;
      if (cancel && opts.hideKeyboardFirst) this.dispatch(cancel);
      return;
    }
    if (task.stack.length > 1) {
      task.stack.pop();
      task.focus = null;
      task.error = null;
      this.state.keyboardShown = false;
      return;
    }
    if (opts.hideKeyboardFirst && scope.pkg !== this.profile.launcher) this.press('HOME');
  }

  dispatch(action: Action): void {
    const scope = this.scope(this.state.foreground);
    // A tap places the cursor or acts elsewhere: a selection ends, except under the keyboard's own keys, which replace it.
    if (action.do !== 'key') scope.task.selected = null;
    switch (action.do) {
      case 'back': return this.navigateBack({ hideKeyboardFirst: false });
      case 'focus':
        scope.task.focus = String(action.arg);
        this.state.keyboardShown = true;
        return;
      case 'closeDialog': scope.closeDialog(); return;
      case 'setDarkMode': this.state.darkMode = Boolean(action.arg); return;
      case 'setWifi': this.state.wifi = Boolean(action.arg); return;
      case 'launch': return this.apps.launch(String(action.arg));
      case 'key': return this.keyTapped(String(action.arg ?? ''));
      case 'returnKey': return this.enter();
      default: this.behaviour(scope.pkg).act(action, scope);
    }
  }

  /**
   * A key of the drawn keyboard, tapped: it types into the focused field as a phone's keyboard does. There
   * is no shift state or symbols page, so ⇧ and 123 change nothing.
   */
  private keyTapped(key: string): void {
    if (key === '⌫') return this.deleteBackward();
    if (key === '⇧' || !key) return;
    this.typeText(key);
  }

  // ---- system settings ---------------------------------------------------------------------

  setWifi(enabled: boolean): void {
    if (this.profile.platform === 'ios') {
      throw new ToolError('UNSUPPORTED', `iOS does not let automation switch Wi-Fi (${this.id}); toggle it in Settings or Control Center by hand`);
    }
    this.state.wifi = enabled;
  }

  /** Refused as the iOS driver refuses a real iPhone's home screen (ios-device.ts), the phone left as it was. */
  setOrientation(orientation: Orientation): void {
    const front = this.state.foreground;
    if (orientation === 'landscape' && front === this.profile.launcher && !this.profile.homeScreenTurns) {
      throw new ToolError('UNSUPPORTED', `${front} (the home screen), the app in front, does not support landscape on ${this.id}: iOS kept it as it was, as an iPhone's home screen stays portrait. Bring an app that supports landscape to the front to rotate (mobile_launch_app, e.g. ${DEMO_PACKAGE})`);
    }
    this.state.orientation = orientation;
  }
}

function hitPath(box: Box, x: number, y: number): Box[] {
  if (!box.visible || !contains(box.visible, x, y)) return [];
  for (let i = box.children.length - 1; i >= 0; i--) {
    const sub = hitPath(box.children[i], x, y);
    if (sub.length) return [box, ...sub];
  }
  return [box];
}

function deepest(path: Box[], pick: (v: View) => Action | undefined): Action | undefined {
  for (let i = path.length - 1; i >= 0; i--) {
    const a = pick(path[i].view);
    if (a) return a;
  }
  return undefined;
}
