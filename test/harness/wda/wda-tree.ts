import type { UiNode } from '../../../src/engine/ui-tree.js';

/**
 * The virtual phone's hierarchy (pixels, iOS class names) as WebDriverAgent's /source?format=json
 * tree (points): {type, rawIdentifier, name, value, label, rect, customActions, frame, nativeFrame, isEnabled,
 * isVisible, isAccessible, isNativeAccessibilityElement, isFocused, traits, children}, and placeholderValue on text
 * inputs only (FBDoesElementSupportInnerText), as appium/WebDriverAgent's XCUIApplication+FBHelpers.m
 * dictionaryForElement writes it. Like XCTest, an empty text field reports its placeholder as value (wdValue).
 * The fields added in 2024-2025 are optional here: hand-made nodes of tests may leave them out, as older builds do.
 */
export interface WdaJsonNode {
  type: string;
  rawIdentifier: string | null;
  name: string | null;
  value: string | null;
  label: string | null;
  rect: { x: number; y: number; width: number; height: number };
  customActions?: string | null;
  frame: string;
  nativeFrame?: string;
  isEnabled: '1' | '0';
  isVisible: '1' | '0';
  isAccessible: '1' | '0';
  isNativeAccessibilityElement?: '1' | '0';
  isFocused: '1' | '0';
  traits?: string;
  placeholderValue?: string | null;
  children?: WdaJsonNode[];
}

/** XCUIElementTypes that carry a placeholderValue in the tree (FBElementHelpers.m FBDoesElementSupportInnerText). */
const INNER_TEXT = new Set(['TextField', 'SecureTextField', 'SearchField', 'TextView']);
/** FBAccessibilityTraits.m names of the traits UIKit gives these types by default. */
const TRAITS: Record<string, string> = { Button: 'Button', StaticText: 'StaticText', Image: 'Image', Link: 'Link', SearchField: 'SearchField', Key: 'Keyboard Key' };

const bit = (b: boolean | undefined): '1' | '0' => (b ? '1' : '0');
const round = (n: number) => Math.round(n * 1000) / 1000;

export function wdaTree(root: UiNode, scale: number, appName: string, screen: { width: number; height: number }): WdaJsonNode {
  const full = { x: 0, y: 0, width: screen.width, height: screen.height };
  const window = node({ type: 'other', text: '', label: null, bounds: full, enabled: true, children: [root] }, scale, 'Window');
  return { ...node({ type: 'other', text: '', label: appName, bounds: full, enabled: true, children: [] }, scale, 'Application'), children: [window] };
}

function node(n: UiNode, scale: number, forcedType?: string): WdaJsonNode {
  const type = forcedType ?? n.className?.replace(/^XCUIElementType/, '') ?? 'Other';
  const rect = { x: round(n.bounds.x / scale), y: round(n.bounds.y / scale), width: round(n.bounds.width / scale), height: round(n.bounds.height / scale) };
  const isText = type === 'StaticText';
  const value = n.checkable
    ? bit(n.checked)
    : n.editable
      ? n.text || n.hint || null
      : n.text || null;
  const label = n.editable ? n.label : n.label ?? (n.text || null);
  const accessible = type !== 'Other' || Boolean(n.clickable && (n.label || n.text));
  const out: WdaJsonNode = {
    type,
    rawIdentifier: n.resourceId ?? null,
    name: n.resourceId ?? label ?? (isText ? value : null),
    value,
    label,
    rect,
    customActions: null,
    frame: `{{${rect.x}, ${rect.y}}, {${rect.width}, ${rect.height}}}`,
    nativeFrame: `{{${rect.x}, ${rect.y}}, {${rect.width}, ${rect.height}}}`,
    isEnabled: bit(n.enabled),
    isVisible: bit(n.displayed !== false),
    isAccessible: bit(accessible && !forcedType),
    isNativeAccessibilityElement: bit(accessible && !forcedType),
    isFocused: bit(n.focused),
    traits: TRAITS[type] ?? '',
  };
  if (INNER_TEXT.has(type)) out.placeholderValue = n.hint || null;
  if (n.children.length) out.children = n.children.map((c) => node(c, scale));
  return out;
}

export function allNodes(node: WdaJsonNode): WdaJsonNode[] {
  return [node, ...(node.children ?? []).flatMap(allNodes)];
}

export function findNode(node: WdaJsonNode, test: (n: WdaJsonNode) => boolean): WdaJsonNode | undefined {
  return allNodes(node).find(test);
}

/** The tree as iOS shows it while a hardware keyboard is connected: no on-screen keyboard. */
export function withoutKeyboards(node: WdaJsonNode): WdaJsonNode {
  if (!node.children) return node;
  return { ...node, children: node.children.filter((c) => c.type !== 'Keyboard').map(withoutKeyboards) };
}

/** FBConfiguration.m's default for XCTest's maxDepth snapshot parameter. */
export const SNAPSHOT_MAX_DEPTH = 50;

/**
 * The tree as XCTest snapshots it with maxDepth levels (the application is level 1; maxDepth 1 gives an
 * element without children, FBXCAXClientProxy.m): nodes on the last level lose their children, and
 * dictionaryForElement leaves `children` out for them as for any childless node.
 */
export function cutAtDepth(node: WdaJsonNode, maxDepth: number, level = 1): WdaJsonNode {
  if (!node.children) return node;
  if (level >= maxDepth) {
    const { children: _cut, ...leaf } = node;
    return leaf;
  }
  return { ...node, children: node.children.map((c) => cutAtDepth(c, maxDepth, level + 1)) };
}

/**
 * What /source holds while the lock screen shows: XCTest's active application is then SpringBoard
 * (XCUIApplication+FBHelpers.m fb_activeApplication falls back to fb_systemApplication), whose cover sheet
 * shows the clock and the unlock hint, never the app behind it. The exact elements are not captured from
 * a device; what matters here is that none of the app's are listed.
 */
export function lockScreenTree(scale: number, screen: { width: number; height: number }): WdaJsonNode {
  const px = (x: number, y: number, width: number, height: number) => ({ x: x * scale, y: y * scale, width: width * scale, height: height * scale });
  const w = screen.width / scale;
  const h = screen.height / scale;
  const text = (t: string, y: number): UiNode => ({ type: 'text', className: 'XCUIElementTypeStaticText', text: t, label: null, bounds: px(20, y, w - 40, 30), enabled: true, children: [] });
  return wdaTree({ type: 'other', text: '', label: null, bounds: px(0, 0, w, h), enabled: true, children: [text('9:41', 120), text('Swipe up to open', h - 60)] }, scale, 'SpringBoard', screen);
}
