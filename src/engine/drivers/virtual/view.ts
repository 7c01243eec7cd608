/**
 * The declarative UI vocabulary the virtual apps describe their screens with. Sizes are in
 * density-independent units (dp / points); the layout engine turns them into device pixels.
 */

/** Something a gesture triggers. `do` names an operation of the phone or of the foreground app. */
export interface Action {
  do: string;
  arg?: string | number;
  /** For onPinch: how far the fingers moved apart (end span / start span). */
  scale?: number;
}

export type ColorName =
  | 'background' | 'surface' | 'surfaceVariant' | 'onSurface' | 'muted' | 'primary' | 'onPrimary'
  | 'outline' | 'error' | 'success' | 'liked' | 'image' | 'viewfinder' | 'onImage'
  | 'keyboard' | 'key' | 'statusBar' | 'onStatusBar' | 'toast' | 'onToast';

/** What a container stands for in the UI hierarchy (drives element type and platform class). */
export type ContainerRole =
  | 'plain' | 'list' | 'listitem' | 'toolbar' | 'dialog' | 'keyboard' | 'webview' | 'scroll' | 'icon' | 'statusbar';

interface ViewBase {
  /** Resource id tail (`email`); Android prefixes it with `<package>:id/`. */
  id?: string;
  label?: string;
  onTap?: Action;
  onDoubleTap?: Action;
  onLongPress?: Action;
  /** Two fingers pinching or spreading on it; dispatched with the gesture's `scale`. */
  onPinch?: Action;
  /** Fixed size in dp; absent means "fill the parent's width" / "intrinsic height". */
  width?: number;
  height?: number;
  /** Takes a share of the parent's spare space along its main axis. */
  grow?: boolean;
}

export interface ContainerView extends ViewBase {
  kind: 'column' | 'row';
  role?: ContainerRole;
  children: View[];
  gap?: number;
  pad?: number;
  /** Horizontal padding when it differs from `pad`. */
  padX?: number;
  bg?: ColorName;
  /** Corner radius of the background. */
  radius?: number;
  border?: ColorName;
  /** Cross-axis placement of children narrower than the container. */
  align?: 'start' | 'center' | 'end';
  /** Main-axis placement when children do not fill the container. */
  justify?: 'start' | 'center' | 'end';
  /** Present on scrollable columns: key of the offset stored in the app's task state. */
  scrollKey?: string;
  selected?: boolean;
}

export interface TextView extends ViewBase {
  kind: 'text';
  text: string;
  size?: number;
  bold?: boolean;
  color?: ColorName;
  align?: 'start' | 'center' | 'end';
  /** The screen's title (toolbar / navigation bar). */
  title?: boolean;
}

export interface FieldView extends ViewBase {
  kind: 'field';
  id: string;
  hint: string;
  value: string;
  password?: boolean;
  focused?: boolean;
  /** Its whole text is selected (Ctrl+A): drawn highlighted. */
  selected?: boolean;
}

export interface ButtonView extends ViewBase {
  kind: 'button';
  text: string;
  enabled?: boolean;
  style?: 'filled' | 'text' | 'tonal' | 'icon' | 'key';
  /** Drawn glyph for icon buttons (their text stays empty, the label names them). */
  glyph?: string;
  color?: ColorName;
}

export interface SwitchView extends ViewBase {
  kind: 'switch';
  text: string;
  checked: boolean;
}

export interface SpinnerView extends ViewBase {
  kind: 'spinner';
}

export interface ImageView extends ViewBase {
  kind: 'image';
  color: ColorName;
  glyph?: string;
  glyphColor?: ColorName;
  radius?: number;
}

export interface SpacerView extends ViewBase {
  kind: 'spacer';
}

export type View =
  | ContainerView | TextView | FieldView | ButtonView | SwitchView | SpinnerView | ImageView | SpacerView;

export const column = (children: View[], props: Omit<ContainerView, 'kind' | 'children'> = {}): ContainerView => ({
  kind: 'column', children, ...props,
});
export const row = (children: View[], props: Omit<ContainerView, 'kind' | 'children'> = {}): ContainerView => ({
  kind: 'row', children, ...props,
});
export const text = (value: string, props: Omit<TextView, 'kind' | 'text'> = {}): TextView => ({
  kind: 'text', text: value, ...props,
});
export const button = (label: string, onTap: Action, props: Omit<ButtonView, 'kind' | 'text' | 'onTap'> = {}): ButtonView => ({
  kind: 'button', text: label, onTap, ...props,
});
export const spacer = (props: Omit<SpacerView, 'kind'> = { grow: true }): SpacerView => ({ kind: 'spacer', ...props });
