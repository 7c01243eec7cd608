import type { ElementType } from '../../types.js';
import type { UiNode } from '../../ui-tree.js';
import type { Box } from './layout.js';
import type { Platform } from './profile.js';
import type { ContainerRole, View } from './view.js';

/** Element type and raw class name of each view on each platform, as their UI dumps report them. */
function classify(v: View): { type: ElementType; android: string; ios: string } {
  switch (v.kind) {
    case 'text': return { type: 'text', android: 'android.widget.TextView', ios: 'XCUIElementTypeStaticText' };
    case 'field':
      return { type: 'edittext', android: 'android.widget.EditText', ios: v.password ? 'XCUIElementTypeSecureTextField' : 'XCUIElementTypeTextField' };
    case 'button':
      return { type: 'button', android: v.style === 'icon' ? 'android.widget.ImageButton' : 'android.widget.Button', ios: 'XCUIElementTypeButton' };
    case 'switch': return { type: 'switch', android: 'android.widget.Switch', ios: 'XCUIElementTypeSwitch' };
    case 'spinner': return { type: 'other', android: 'android.widget.ProgressBar', ios: 'XCUIElementTypeActivityIndicator' };
    case 'image': return { type: 'image', android: 'android.widget.ImageView', ios: 'XCUIElementTypeImage' };
    case 'spacer': return { type: 'other', android: 'android.view.View', ios: 'XCUIElementTypeOther' };
    case 'column':
    case 'row':
      return containerClass(v.role ?? 'plain');
  }
}

function containerClass(role: ContainerRole): { type: ElementType; android: string; ios: string } {
  switch (role) {
    case 'list': return { type: 'list', android: 'androidx.recyclerview.widget.RecyclerView', ios: 'XCUIElementTypeTable' };
    case 'listitem': return { type: 'listitem', android: 'android.widget.LinearLayout', ios: 'XCUIElementTypeCell' };
    case 'toolbar': return { type: 'other', android: 'android.view.ViewGroup', ios: 'XCUIElementTypeNavigationBar' };
    case 'dialog': return { type: 'dialog', android: 'android.widget.FrameLayout', ios: 'XCUIElementTypeAlert' };
    case 'keyboard': return { type: 'keyboard', android: 'android.inputmethodservice.KeyboardView', ios: 'XCUIElementTypeKeyboard' };
    case 'webview': return { type: 'webview', android: 'android.webkit.WebView', ios: 'XCUIElementTypeWebView' };
    case 'scroll': return { type: 'other', android: 'android.widget.ScrollView', ios: 'XCUIElementTypeScrollView' };
    case 'icon': return { type: 'text', android: 'android.widget.TextView', ios: 'XCUIElementTypeIcon' };
    case 'statusbar':
    case 'plain':
      return { type: 'other', android: 'android.widget.LinearLayout', ios: 'XCUIElementTypeOther' };
  }
}

export interface TreeContext {
  platform: Platform;
  /** Package that owns the boxes of this layer. */
  package: string;
}

/**
 * Turns laid-out boxes into the platform-neutral hierarchy. Bounds are the visible part of each
 * box (as UI dumps report them); views scrolled out of sight, spacers and the status bar are left out.
 */
export function toUiNode(box: Box, ctx: TreeContext): UiNode | null {
  const v = box.view;
  if (!box.visible || v.kind === 'spacer') return null;
  if ((v.kind === 'column' || v.kind === 'row') && v.role === 'statusbar') return null;
  // Keys are not elements of the app; only a labelled key (the iOS return key) is listed.
  if (v.kind === 'button' && v.style === 'key' && !v.label) return null;
  const cls = classify(v);
  const icon = (v.kind === 'column' || v.kind === 'row') && v.role === 'icon';
  const iconOnIos = ctx.platform === 'ios' && icon;
  const node: UiNode = {
    type: iconOnIos ? 'button' : cls.type,
    // A launcher icon is one view that draws its picture and its name (Launcher3's BubbleTextView:
    // text and content-desc both the app's name; SpringBoard's XCUIElementTypeIcon has no children).
    text: icon && ctx.platform === 'android' ? (v.label ?? '') : nodeText(v),
    label: v.label ?? (ctx.platform === 'ios' ? iosLabel(v) : null),
    bounds: box.visible,
    enabled: v.kind === 'button' ? v.enabled !== false : true,
    className: ctx.platform === 'android' ? cls.android : cls.ios,
    package: ctx.package,
    children: [],
  };
  if (v.id) node.resourceId = ctx.platform === 'android' && !v.id.includes(':id/') ? `${ctx.package}:id/${v.id}` : v.id;
  if (v.onTap || v.onLongPress || v.onDoubleTap || v.kind === 'field' || v.kind === 'switch') node.clickable = true;
  if (v.onLongPress) node.clickable = true;
  if (v.kind === 'field') {
    node.editable = true;
    node.focusable = true;
    node.focused = Boolean(v.focused);
    node.hint = v.hint;
    if (v.password) node.password = true;
  }
  if (v.kind === 'switch') {
    node.checkable = true;
    node.checked = v.checked;
  }
  if ((v.kind === 'column' || v.kind === 'row') && v.selected !== undefined) node.selected = v.selected;
  if (box.scroll) node.scrollable = true;
  if (icon) return node;
  for (const child of box.children) {
    const c = toUiNode(child, ctx);
    if (c) node.children.push(c);
  }
  return node;
}

function nodeText(v: View): string {
  switch (v.kind) {
    case 'text':
    case 'button':
    case 'switch':
      return v.text;
    // Password fields report their masked value, as both platforms do.
    case 'field':
      return v.password ? '•'.repeat(v.value.length) : v.value;
    default:
      return '';
  }
}

/** XCUITest gives buttons and static texts their visible text as label. */
function iosLabel(v: View): string | null {
  if (v.kind === 'button' || v.kind === 'switch') return v.text || null;
  if (v.kind === 'text') return v.text || null;
  return null;
}
