import * as v from 'valibot';

import { ToolError } from '../../errors.js';
import type { ElementType } from '../../types.js';
import type { UiNode } from '../../ui-tree.js';

/*
 * GET /session/:id/source?format=json answers {value: <node>} where each node is
 *   {type: "Button" (XCUIElementType without its prefix), rawIdentifier, name, value, label,
 *    rect: {x, y, width, height} in points, frame: "{{x, y}, {w, h}}",
 *    isEnabled: "1"|"0", isVisible: "1"|"0", isAccessible: "1"|"0", isFocused: "1"|"0", children: [...]}
 * (appium/WebDriverAgent XCUIApplication+FBHelpers.m dictionaryForElement; builds before 2023 lack isFocused, before April 2021 isAccessible;
 * some forks add isHittable). Fixtures in test/fixtures/ios/*-source.json.
 */
const Flag = v.optional(v.union([v.string(), v.boolean(), v.number()]));
const Text = v.optional(v.nullable(v.union([v.string(), v.number(), v.boolean()])));

export interface WdaNode {
  type: string;
  rawIdentifier?: string | null;
  name?: string | null;
  value?: string | number | boolean | null;
  label?: string | null;
  placeholderValue?: string | null;
  rect: { x: number; y: number; width: number; height: number };
  isEnabled?: string | boolean | number;
  isVisible?: string | boolean | number;
  isAccessible?: string | boolean | number;
  isFocused?: string | boolean | number;
  isHittable?: string | boolean | number;
  children?: WdaNode[];
}

const WdaNodeSchema: v.GenericSchema<WdaNode> = v.looseObject({
  type: v.string(),
  rawIdentifier: v.optional(v.nullable(v.string())),
  name: v.optional(v.nullable(v.string())),
  value: Text,
  label: v.optional(v.nullable(v.string())),
  placeholderValue: v.optional(v.nullable(v.string())),
  rect: v.object({ x: v.number(), y: v.number(), width: v.number(), height: v.number() }),
  isEnabled: Flag,
  isVisible: Flag,
  isAccessible: Flag,
  isFocused: Flag,
  isHittable: Flag,
  children: v.optional(v.array(v.lazy(() => WdaNodeSchema))),
}) as unknown as v.GenericSchema<WdaNode>;

export function parseWdaSource(value: unknown): WdaNode {
  const root = typeof value === 'string' ? safeJson(value) : value;
  const parsed = v.safeParse(WdaNodeSchema, root);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const path = issue.path?.map((p) => String(p.key)).join('.') ?? '(root)';
    throw new ToolError('INTERNAL', `WebDriverAgent /source?format=json has an unexpected shape at ${path}: ${issue.message}`);
  }
  return parsed.output;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ToolError('INTERNAL', 'WebDriverAgent /source?format=json returned text that is not JSON; is WebDriverAgent up to date?');
  }
}

/** XCUIElementType names (without prefix) → SPEC §2 vocabulary. Unlisted types are "other". */
const TYPE_MAP: Record<string, ElementType> = {
  Button: 'button',
  MenuButton: 'button',
  PopUpButton: 'button',
  DisclosureTriangle: 'button',
  TextField: 'edittext',
  SecureTextField: 'edittext',
  SearchField: 'edittext',
  TextView: 'edittext',
  StaticText: 'text',
  Image: 'image',
  Icon: 'image',
  Switch: 'switch',
  Toggle: 'switch',
  CheckBox: 'checkbox',
  RadioButton: 'radio',
  Tab: 'tab',
  Link: 'link',
  Cell: 'listitem',
  Table: 'list',
  CollectionView: 'list',
  ScrollView: 'list',
  WebView: 'webview',
  Keyboard: 'keyboard',
  Key: 'keyboard',
  Alert: 'dialog',
  Sheet: 'dialog',
};

export const INPUTS = new Set(['TextField', 'SecureTextField', 'SearchField', 'TextView']);
const TAPPABLE = new Set(['Button', 'MenuButton', 'PopUpButton', 'DisclosureTriangle', 'Switch', 'Toggle', 'CheckBox', 'RadioButton', 'Tab', 'Link', 'Cell', 'Icon', 'Key', 'SegmentedControl', 'Slider', 'Stepper', 'PickerWheel']);
const SCROLLABLE = new Set(['Table', 'CollectionView', 'ScrollView', 'WebView']);
/** Kept when visible even without an action: the user reads them, and targets match on their text. */
const READABLE = new Set(['StaticText', 'Image', 'Icon', 'Alert', 'Sheet']);

export function mapXcuiType(type: string): ElementType {
  return TYPE_MAP[type.replace(/^XCUIElementType/, '')] ?? 'other';
}

export function flag(value: string | boolean | number | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  return value === true || value === 1 || value === '1' || value === 'true';
}

function textOf(value: WdaNode['value']): string {
  return value === null || value === undefined ? '' : String(value);
}

/**
 * Converts the WDA tree (points) to a UiNode tree (pixels). The SPEC §2 filter and ids stay in
 * elementsFromTree; this only decides what each iOS node means: which types act on a tap, which
 * take text, and that plain containers (Other, Window, Application) carry no text of their own
 * unless accessibility marks them as one element — React Native touchables are accessible "Other"s.
 */
export function wdaToUiNode(node: WdaNode, scale: number): UiNode {
  const type = node.type.replace(/^XCUIElementType/, '');
  const label = node.label || null;
  const enabled = flag(node.isEnabled) ?? true;
  const visible = flag(node.isVisible) ?? true;
  const hittable = flag(node.isHittable) ?? true;
  // Builds before April 2021 (WebDriverAgent 035af066) write no isAccessible. A labelled view without children is then
  // taken for an accessibility element (an icon button, a React Native touchable): a container's label only repeats
  // the words of the children it holds.
  const accessible = flag(node.isAccessible) ?? (!node.children?.length && Boolean(label));
  const input = INPUTS.has(type);
  const known = TYPE_MAP[type] !== undefined;
  const accessibleOther = type === 'Other' && accessible && Boolean(label || node.rawIdentifier);
  const carriesMeaning = known || accessibleOther || READABLE.has(type);

  const ui: UiNode = {
    type: mapXcuiType(type),
    text: !carriesMeaning ? '' : input ? textOf(node.value) : type === 'StaticText' ? textOf(node.value) || label || '' : label ?? textOf(node.value),
    label: carriesMeaning ? label : null,
    bounds: {
      x: Math.round(node.rect.x * scale),
      y: Math.round(node.rect.y * scale),
      width: Math.round(node.rect.width * scale),
      height: Math.round(node.rect.height * scale),
    },
    enabled,
    displayed: visible && hittable,
    className: `XCUIElementType${type}`,
    children: (node.children ?? []).map((c) => wdaToUiNode(c, scale)),
  };
  if (TAPPABLE.has(type) || accessibleOther) ui.clickable = true;
  if (input) {
    ui.editable = true;
    ui.password = type === 'SecureTextField';
    ui.focusable = true;
    // XCTest reports an empty field's placeholder as its value; builds that also send placeholderValue let us tell them apart.
    const placeholder = node.placeholderValue || undefined;
    if (placeholder && textOf(node.value) === placeholder) ui.text = '';
    if (placeholder) ui.hint = placeholder;
  }
  if (type === 'Switch' || type === 'Toggle' || type === 'CheckBox' || type === 'RadioButton') {
    ui.checkable = true;
    // "1"/"0" since WDA c2a0427b (July 2017); before it the boxed BOOL XCTest hands a switch came as JSON true/false.
    ui.checked = node.value === true || textOf(node.value) === '1' || textOf(node.value).toLowerCase() === 'on';
    ui.text = label ?? '';
  }
  if (SCROLLABLE.has(type)) ui.scrollable = true;
  const focused = flag(node.isFocused);
  if (focused) ui.focused = true;
  if (node.rawIdentifier && carriesMeaning) ui.resourceId = node.rawIdentifier;
  return ui;
}

/**
 * WebDriverAgent snapshots the app with XCTest's maxDepth parameter (FBConfiguration.m snapshotMaxDepth,
 * 50 unless a client changed it through /appium/settings since the last POST /session, which resets it:
 * FBConfiguration.m resetSessionSettings). maxDepth counts levels with the application
 * as level 1 (WDA asks for maxDepth 1 to get an element without children, FBXCAXClientProxy.m), so the
 * nodes on level maxDepth come back without their children, and dictionaryForElement then leaves the
 * `children` key out exactly as it does for a real leaf. A cut node cannot be told from a leaf: a tree
 * that reaches the level is reported as possibly cut, never as complete.
 */
export const WDA_DEFAULT_SNAPSHOT_MAX_DEPTH = 50;

/**
 * The depth WDA snapshots to, from its appium settings. Builds without the setting, or a settings call that
 * failed (undefined), leave WDA's default: a listing is then at worst said to be possibly cut when it is not,
 * never the other way round.
 */
export function snapshotMaxDepthOf(settings: unknown): number {
  const depth = (settings as { snapshotMaxDepth?: unknown } | null | undefined)?.snapshotMaxDepth;
  return typeof depth === 'number' && depth > 0 ? depth : WDA_DEFAULT_SNAPSHOT_MAX_DEPTH;
}

/** Levels of the tree, the root being level 1 (as XCTest's maxDepth counts them). */
export function treeLevels(node: WdaNode): number {
  let deepest = 0;
  for (const child of node.children ?? []) deepest = Math.max(deepest, treeLevels(child));
  return deepest + 1;
}

/** The note a listing carries when the tree reaches WDA's snapshot depth, else undefined. */
export function depthCutNote(root: WdaNode, maxDepth: number): string | undefined {
  if (treeLevels(root) < maxDepth) return undefined;
  return (
    `the accessibility tree reaches WebDriverAgent's snapshot depth limit (snapshotMaxDepth ${maxDepth} levels): ` +
    `elements nested deeper are cut off and not listed, so a missing element may just be too deep. ` +
    `Raising WebDriverAgent's snapshotMaxDepth setting (POST /session/:id/appium/settings {"settings": {"snapshotMaxDepth": 60}}) lists them ` +
    `until a new WebDriverAgent session starts, which puts it back to ${WDA_DEFAULT_SNAPSHOT_MAX_DEPTH}; XCTest often refuses snapshots above about 62 levels`
  );
}
