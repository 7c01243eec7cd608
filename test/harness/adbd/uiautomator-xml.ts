import type { ScreenSize, UiNode } from '../../../src/engine/ui-tree.js';

/**
 * Writes a UiNode tree with the attribute set of androidx UiAutomator's dumper (drawing-order, hint,
 * display-id, visible-to-user), which the emulated UiAutomator2 server serves. `uiautomator dump`
 * itself writes less: see frameworkDumpXml.
 */
export function uiautomatorXml(root: UiNode, rotation: number): string {
  const parts: string[] = [`<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="${rotation}">`];
  const write = (n: UiNode, index: number) => {
    const { x, y, width, height } = n.bounds;
    const attrs: [string, string][] = [
      ...dumperAttributes(n, index, n.text, `[${x},${y}][${x + width},${y + height}]`),
      ['drawing-order', String(index)],
      ['hint', n.hint ?? ''],
      ['display-id', '0'],
    ];
    if (n.displayed === false) attrs.push(['visible-to-user', 'false']);
    parts.push(`<node ${attrs.map(([k, v]) => `${k}="${escapeAttr(v)}"`).join(' ')}`);
    if (n.children.length === 0) {
      parts.push(' />');
      return;
    }
    parts.push('>');
    n.children.forEach(write);
    parts.push('</node>');
  };
  write(root, 0);
  parts.push('</hierarchy>');
  return parts.join('');
}

/** The seventeen attributes both dumpers write, in AccessibilityNodeInfoDumper's order. */
function dumperAttributes(n: UiNode, index: number, text: string, bounds: string): [string, string][] {
  return [
    ['index', String(index)],
    ['text', text],
    ['resource-id', n.resourceId ?? ''],
    ['class', n.className ?? 'android.view.View'],
    ['package', n.package ?? ''],
    ['content-desc', n.label ?? ''],
    ['checkable', String(Boolean(n.checkable))],
    ['checked', String(Boolean(n.checked))],
    ['clickable', String(Boolean(n.clickable))],
    ['enabled', String(n.enabled)],
    ['focusable', String(Boolean(n.focusable || n.editable))],
    ['focused', String(Boolean(n.focused))],
    ['scrollable', String(Boolean(n.scrollable))],
    ['long-clickable', 'false'],
    ['password', String(Boolean(n.password))],
    ['selected', String(Boolean(n.selected))],
    ['bounds', bounds],
  ];
}

function escapeAttr(value: string): string {
  const named: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
  return value.replace(/[&<>"'\n\r\t]/g, (c) => named[c] ?? `&#${c.charCodeAt(0)};`);
}

/**
 * What `uiautomator dump` writes: frameworks/base cmds/uiautomator/library/core-src/com/android/
 * uiautomator/core/AccessibilityNodeInfoDumper.java (dumpWindowToFile, dumpNodeRec), unchanged in
 * its attribute set from Android 5 to 14:
 * - `NAF="true"` first on a clickable, enabled node with no text or content-desc whose descendants
 *   have none either (nafCheck; list and grid classes excepted);
 * - then index, text, resource-id, class, package, content-desc, checkable, checked, clickable,
 *   enabled, focusable, focused, scrollable, long-clickable, password, selected, bounds; no hint,
 *   drawing-order, display-id or visible-to-user (those are androidx UiAutomator's);
 * - children that are not visible to the user are left out, keeping their index;
 * - bounds are cut to the display (AccessibilityNodeInfoHelper.getVisibleBoundsInScreen);
 * - text is the node's accessibility text: an empty text field shows its hint there
 *   (TextView.getTextForAccessibility), and nothing says it is the hint;
 * - stripInvalidXMLChars turns control characters into "."; Android's KXmlSerializer escapes
 *   & < > " and tab/newline/CR, writes ' as it is, and a surrogate pair as one &#N; reference;
 * - the document is written without a final newline, so the shell's "UI hierchary dumped to:" line
 *   follows `</hierarchy>` directly.
 */
export function frameworkDumpXml(root: UiNode, rotation: number, screen: ScreenSize): string {
  const parts: string[] = [`<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="${rotation}">`];
  const write = (n: UiNode, index: number) => {
    const text = accessibilityText(n);
    const attrs = dumperAttributes(n, index, text, visibleBounds(n, screen));
    if (notAccessibilityFriendly(n)) attrs.unshift(['NAF', 'true']);
    parts.push(`<node ${attrs.map(([k, v]) => `${k}="${serializerEscape(stripInvalid(v))}"`).join(' ')}`);
    const shown = n.children.map((c, i) => [c, i] as const).filter(([c]) => c.displayed !== false);
    if (shown.length === 0) {
      parts.push(' />');
      return;
    }
    parts.push('>');
    for (const [c, i] of shown) write(c, i);
    parts.push('</node>');
  };
  write(root, 0);
  parts.push('</hierarchy>');
  return parts.join('');
}

const accessibilityText = (n: UiNode): string => (n.editable && !n.text && n.hint ? n.hint : n.text);

const NAF_EXCLUDED = ['android.widget.GridView', 'android.widget.GridLayout', 'android.widget.ListView', 'android.widget.TableLayout'];

function notAccessibilityFriendly(n: UiNode): boolean {
  if (NAF_EXCLUDED.some((c) => (n.className ?? '').endsWith(c))) return false;
  if (!(n.clickable && n.enabled && !n.label && !accessibilityText(n))) return false;
  const named = (c: UiNode): boolean => Boolean(c.label || accessibilityText(c)) || c.children.some(named);
  return !n.children.some(named);
}

function visibleBounds(n: UiNode, screen: ScreenSize): string {
  const { x, y, width, height } = n.bounds;
  let [l, t, r, b] = [x, y, x + width, y + height];
  // Rect.intersect leaves the rectangle as it was when the two do not overlap.
  if (l < screen.width && t < screen.height && r > 0 && b > 0) [l, t, r, b] = [Math.max(l, 0), Math.max(t, 0), Math.min(r, screen.width), Math.min(b, screen.height)];
  return `[${l},${t}][${r},${b}]`;
}

function stripInvalid(value: string): string {
  return value.replace(/[\x01-\x08\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f\ufdd0-\ufddf]/g, '.');
}

function serializerEscape(value: string): string {
  const named: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
  return value.replace(/[&<>"\t\n\r]|[\ud800-\udbff][\udc00-\udfff]/g, (c) => named[c] ?? `&#${c.codePointAt(0)};`);
}
