import type { Orientation, Rect } from '../../types.js';
import type { UiNode } from '../../ui-tree.js';
import type { DialogSpec, Screen } from './apps/app.js';
import { LayoutEngine, type Box } from './layout.js';
import type { DeviceProfile } from './profile.js';
import type { PhoneState, TaskState, ToastRecord } from './state.js';
import { selectedField, withSelection } from './text-selection.js';
import { toUiNode } from './tree.js';
import { button, column, row, text, type Action, type View } from './view.js';

export interface Layer {
  box: Box;
  package: string;
  scrim?: boolean;
  /** Modal layers take every touch; a touch outside their card runs `onOutsideTap` if any. */
  modal?: { card: Box; onOutsideTap?: Action };
}

/** Everything on screen at one moment: laid-out layers, bottom to top. */
export interface Frame {
  width: number;
  height: number;
  layers: Layer[];
  keyboardVisible: boolean;
  screen: Screen;
}

export interface ComposeInput {
  profile: DeviceProfile;
  state: PhoneState;
  task: TaskState;
  screen: Screen;
  now: number;
  toast: ToastRecord | undefined;
}

const KEY_ROWS = ['q w e r t y u i o p', 'a s d f g h j k l', '⇧ z x c v b n m ⌫'];

/**
 * iOS names the return key after what it does for the focused field (Next, Go, Done) and lists it
 * (XCUIElementTypeButton); Android's IME lives in another window and is not in the app's dump.
 */
function returnKey(profile: DeviceProfile, screen: Screen, focus: string | null): View {
  if (profile.platform === 'android') return button('⏎', { do: 'returnKey' }, { style: 'key', width: 88 });
  const order = screen.fields ?? [];
  const hasNext = focus !== null && order.includes(focus) && order.indexOf(focus) < order.length - 1;
  const name = hasNext ? 'Next' : screen.submit ? 'Go' : 'Done';
  return button(name, { do: 'returnKey' }, { style: 'key', width: 88, label: name });
}

function keyboard(profile: DeviceProfile, landscape: boolean, returnView: View): View {
  const keyRow = (keys: string[]) => row(keys.map((k) => button(k, { do: 'key', arg: k }, { style: 'key' })), { gap: 6, grow: true });
  return column(
    [
      ...KEY_ROWS.map((r) => keyRow(r.split(' '))),
      row(
        [button('123', { do: 'key' }, { style: 'key', width: 72 }), button('space', { do: 'key', arg: ' ' }, { style: 'key' }), returnView],
        { gap: 6, grow: true },
      ),
    ],
    {
      role: 'keyboard', label: 'Keyboard', id: profile.platform === 'android' ? 'keyboard_view' : undefined,
      bg: 'keyboard', pad: 6, gap: 8, height: landscape ? profile.keyboardDp.landscape : profile.keyboardDp.portrait,
    },
  );
}

function statusBar(profile: DeviceProfile, state: PhoneState, now: number): View {
  const d = new Date(now);
  const time = `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
  return row(
    [text(time, { size: 14, bold: true, color: 'onStatusBar' }), text(`${state.wifi ? 'Wi-Fi' : 'No Wi-Fi'}  100%`, { size: 12, color: 'onStatusBar', align: 'end' })],
    { role: 'statusbar', bg: 'statusBar', height: profile.statusBarDp, padX: profile.platform === 'ios' ? 32 : 16 },
  );
}

function toolbar(profile: DeviceProfile, screen: Screen): View {
  const up = { do: 'back' };
  if (profile.platform === 'android') {
    const children: View[] = [];
    if (screen.up) children.push(button('', up, { id: 'navigate_up', label: profile.wording.back, style: 'icon', glyph: '←', width: 48 }));
    children.push(text(screen.title ?? '', { id: 'toolbar_title', size: 22, title: true }));
    children.push(...(screen.actions ?? []));
    return row(children, { role: 'toolbar', id: 'toolbar', height: 64, padX: 8, gap: 8, bg: 'background' });
  }
  const side = 100;
  const actions = screen.actions ?? [];
  return row(
    [
      screen.up ? button('‹ Back', up, { id: 'BackButton', label: 'Back', style: 'text', width: side }) : { kind: 'spacer', width: side },
      text(screen.title ?? '', { size: 17, bold: true, align: 'center', title: true }),
      actions.length ? row(actions, { width: side, justify: 'end' }) : { kind: 'spacer', width: side },
    ],
    // No label or identifier: the iOS driver drops a NavigationBar as a plain container (wda-source.ts), so a
    // listing here shows what a real iPhone's does, and "Search" is the title alone, not the title and its bar.
    { role: 'toolbar', height: 44, padX: 8, bg: 'background' },
  );
}

function dialogCard(profile: DeviceProfile, spec: DialogSpec): View {
  const ios = profile.platform === 'ios';
  const stacked = spec.options ?? (ios || !spec.system ? [] : spec.buttons ?? []);
  const sideBySide = stacked === spec.buttons ? [] : spec.buttons ?? [];
  const children: View[] = [text(spec.title, { id: ios ? undefined : 'alertTitle', size: ios ? 17 : 20, bold: ios, align: ios ? 'center' : 'start' })];
  if (spec.message) children.push(text(spec.message, { id: ios ? undefined : 'message', size: ios ? 13 : 14, align: ios ? 'center' : 'start', color: 'muted' }));
  for (const o of stacked) children.push(button(o.text, o.action, { id: o.id, style: 'tonal' }));
  if (sideBySide.length) {
    children.push(row(sideBySide.map((b) => button(b.text, b.action, { id: b.id, style: 'text' })), { gap: 8, height: 44 }));
  }
  return column(children, { role: 'dialog', label: spec.title, bg: 'surface', radius: ios ? 14 : 28, pad: ios ? 16 : 24, gap: 16, width: ios ? 270 : 312 });
}

function toastView(toast: ToastRecord, profile: DeviceProfile): View {
  const width = Math.min(340, Math.round(toast.text.length * 14 * 0.6) + 40);
  return row([text(toast.text, { id: profile.platform === 'android' ? 'snackbar_text' : 'toast', size: 14, color: 'onToast', align: 'center' })], {
    bg: 'toast', radius: 24, height: 48, width, padX: 16,
  });
}

/**
 * The orientation the screen shows: the phone's, unless the app in front cannot take it. `state.orientation` is
 * how the phone is held, so an app that turns comes back in landscape after a visit to an iPhone's portrait home screen.
 */
export function shownOrientation(profile: DeviceProfile, state: PhoneState): Orientation {
  return state.foreground === profile.launcher && !profile.homeScreenTurns ? 'portrait' : state.orientation;
}

export function screenSizeOf(profile: DeviceProfile, state: PhoneState): { width: number; height: number } {
  return shownOrientation(profile, state) === 'portrait'
    ? { width: profile.width, height: profile.height }
    : { width: profile.height, height: profile.width };
}

/** Lays out the foreground app's screen with the phone's own furniture around it. */
export function compose(input: ComposeInput): Frame {
  const { profile, state, task, screen, now } = input;
  const { width, height } = screenSizeOf(profile, state);
  const full: Rect = { x: 0, y: 0, width, height };
  const landscape = shownOrientation(profile, state) === 'landscape';
  const engine = new LayoutEngine({ density: profile.density, scrollOffset: (key) => task.scroll[key] ?? 0 });
  const keyboardVisible = state.keyboardShown && task.focus !== null && !screen.dialog;
  const parts: View[] = [statusBar(profile, state, now)];
  if (screen.title !== undefined) parts.push(toolbar(profile, screen));
  parts.push(column([withSelection(screen.body, selectedField(task))], { grow: true, bg: screen.bg }));
  parts.push(keyboardVisible ? keyboard(profile, landscape, returnKey(profile, screen, task.focus)) : row([], { role: 'statusbar', height: profile.bottomInsetDp }));
  const main = engine.layout(column(parts), full, full);
  const layers: Layer[] = [{ box: main, package: state.foreground }];

  if (input.toast) {
    const bottom = main.children[main.children.length - 1].rect.y;
    const area = { x: 0, y: 0, width, height: bottom };
    const toastBox = engine.layout(column([toastView(input.toast, profile)], { justify: 'end', align: 'center', pad: 24 }), area, area);
    layers.push({ box: toastBox, package: state.foreground });
  }
  if (screen.dialog) {
    const box = engine.layout(column([dialogCard(profile, screen.dialog)], { justify: 'center', align: 'center', pad: 24 }), full, full);
    layers.push({
      box,
      package: screen.dialog.system ? profile.permissionController : state.foreground,
      scrim: true,
      modal: { card: box.children[0], onOutsideTap: screen.dialog.system ? undefined : screen.dialog.onCancel },
    });
  }
  return { width, height, layers, keyboardVisible, screen };
}

/** The whole hierarchy: one window node holding each layer's tree. */
export function frameTree(frame: Frame, profile: DeviceProfile): UiNode {
  const root: UiNode = {
    type: 'other', text: '', label: null, bounds: { x: 0, y: 0, width: frame.width, height: frame.height }, enabled: true,
    className: profile.platform === 'android' ? 'android.widget.FrameLayout' : 'XCUIElementTypeApplication',
    package: frame.layers[Math.max(frame.layers.findLastIndex((l) => l.modal), 0)].package, children: [],
  };
  // A modal window (dialog, permission prompt, alert) hides what is under it from the dump, as a
  // real uiautomator dump of the active window does: only it and what is above it are listed.
  const top = frame.layers.findLastIndex((l) => l.modal);
  for (const layer of frame.layers.slice(Math.max(top, 0))) {
    const node = toUiNode(layer.box, { platform: profile.platform, package: layer.package });
    if (node) root.children.push(node);
  }
  return root;
}
