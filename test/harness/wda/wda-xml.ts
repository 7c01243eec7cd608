import type { WdaJsonNode } from './wda-tree.js';

/*
 * /source?format=xml as WebDriverAgent writes it (FBXPath.m xmlStringWithRootElement through libxml2's text
 * writer): one element per node named by its full XCUIElementType, attributes in FBElementAttribute's order
 * (type, value, name, label, enabled, visible, accessible, x, y, width, height, index), an attribute whose value
 * is nil left out, booleans "true"/"false", attribute text escaped as libxml2 serializes it.
 */

/** libxml2's xmlBufAttrSerializeTxtContent: besides the markup characters, a newline, carriage return and tab as character references. */
const escape = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');

/** `app`: the application element's processId and bundleId, which builds since September 2025 (#1055) write. */
export function wdaXml(root: WdaJsonNode, app?: { pid: number; bundleId: string }): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${element(root, 0, '', app)}`;
}

function element(node: WdaJsonNode, index: number, indent: string, app?: { pid: number; bundleId: string }): string {
  const type = `XCUIElementType${node.type}`;
  const attrs: [string, string | null][] = [
    ['type', type],
    ['value', node.value],
    ['name', node.name],
    ['label', node.label],
    ['enabled', bool(node.isEnabled)],
    ['visible', bool(node.isVisible)],
    ['accessible', bool(node.isAccessible)],
    ['x', String(node.rect.x)],
    ['y', String(node.rect.y)],
    ['width', String(node.rect.width)],
    ['height', String(node.rect.height)],
    ['index', String(index)],
    ['placeholderValue', node.placeholderValue ?? null],
    ['processId', app ? String(app.pid) : null],
    ['bundleId', app?.bundleId ?? null],
  ];
  const open = `${indent}<${type} ${attrs.filter(([, v]) => v !== null).map(([k, v]) => `${k}="${escape(v!)}"`).join(' ')}`;
  const children = node.children ?? [];
  if (!children.length) return `${open}/>\n`;
  return `${open}>\n${children.map((c, i) => element(c, i, `${indent}  `)).join('')}${indent}</${type}>\n`;
}

const bool = (flag: '1' | '0'): string => (flag === '1' ? 'true' : 'false');
