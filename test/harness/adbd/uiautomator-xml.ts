import type { UiNode } from '../../../src/engine/ui-tree.js';

/** Writes a UiNode tree the way `uiautomator dump` does on Android 14 (attribute names, order, escaping). */
export function uiautomatorXml(root: UiNode, rotation: number): string {
  const parts: string[] = [`<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="${rotation}">`];
  const write = (n: UiNode, index: number) => {
    const { x, y, width, height } = n.bounds;
    const attrs: [string, string][] = [
      ['index', String(index)],
      ['text', n.text],
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
      ['bounds', `[${x},${y}][${x + width},${y + height}]`],
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

function escapeAttr(value: string): string {
  const named: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
  return value.replace(/[&<>"'\n\r\t]/g, (c) => named[c] ?? `&#${c.charCodeAt(0)};`);
}
