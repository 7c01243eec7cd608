import { createRequire } from 'node:module';
import type { XMLParser } from 'fast-xml-parser';
import type { ElementType, Rect } from '../../types.js';
import type { UiNode } from '../../ui-tree.js';
import { elementTypeFor } from './class-types.js';
import { scanUiautomatorXml, type ScannedNode as XmlNode } from './uiautomator-scan.js';

/**
 * Parses `uiautomator dump` output (a `<hierarchy>` of `<node>` elements with string attributes:
 * NAF on unlabelled clickables, index, text, resource-id, class, package, content-desc, checkable,
 * checked, clickable, enabled, focusable, focused, scrollable, long-clickable, password, selected,
 * bounds="[l,t][r,b]": frameworks/base cmds/uiautomator AccessibilityNodeInfoDumper, on every
 * release) into a UiNode tree. The UiAutomator2 server's source (sourceAsDump) adds hint and
 * displayed (read as visible-to-user), which are read when present. Neither source lists another
 * display: `uiautomator dump` dumps the active window's root, and the server only windows of its
 * current display (AXWindowHelpers.getWindows), without a display-id attribute; androidx
 * UiAutomator's own dumpWindowHierarchy (2.3+: every display, display-id per node) is not read
 * here. Without the hint
 * attribute an empty field is listed with its hint as its text: TextView.getTextForAccessibility
 * reports the hint when the text is empty, and the dump does not say so.
 */

/**
 * For output outside the dialect uiautomator-scan.ts reads. Loaded (synchronously, the parse is
 * synchronous) only when such output comes: the library costs ~80 ms at every start otherwise.
 */
let fallbackParser: XMLParser | undefined;
function xmlParser(): XMLParser {
  if (fallbackParser) return fallbackParser;
  const { XMLParser: Parser } = createRequire(import.meta.url)('fast-xml-parser') as typeof import('fast-xml-parser');
  return (fallbackParser = new Parser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    // uiautomator writes newlines and emoji as numeric character references (&#10;).
    htmlEntities: true,
    trimValues: false,
    parseAttributeValue: false,
    isArray: (name) => name === 'node',
  }));
}

/** Messages uiautomator prints instead of a dump when the window is changing; worth retrying. */
export function isTransientDumpFailure(output: string): boolean {
  // The hierarchy check first: it spares the case-insensitive search a read of every whole dump.
  return !output.includes('<hierarchy') && /null root node returned by UiTestAutomationBridge|Failed to dump/i.test(output);
}

/**
 * DumpCommand waits for the UI to stay unchanged for 1 s, at most 10 s (UiAutomation.waitForIdle(1000,
 * 10000)), and prints "ERROR: could not get idle state." and no XML when it never does: an animation,
 * a video or a view redrawn in a loop keeps the screen busy. Asking again costs another 10 s and meets
 * the same screen, so this is not retried.
 */
export function isNeverIdleDump(output: string): boolean {
  return !output.includes('<hierarchy') && /ERROR: could not get idle state/.test(output);
}

/**
 * Android lets one UiAutomation connection exist at a time: while an instrumentation holds one (the
 * UiAutomator2 server, an Appium session), `uiautomator dump` dies connecting with
 * "IllegalStateException: UiAutomationService … already registered!" (UiAutomationManager) and no XML.
 */
export function isUiAutomationTaken(output: string): boolean {
  return !output.includes('<hierarchy') && /UiAutomationService [^\n]*already registered/.test(output);
}

/** Cuts the XML out of the raw output: warnings can precede `<?xml` and the "dumped to" line follows it. */
export function extractHierarchyXml(output: string): string | undefined {
  const start = output.search(/<\?xml|<hierarchy/);
  const end = output.lastIndexOf('</hierarchy>');
  if (start < 0 || end < start) return undefined;
  return output.slice(start, end + '</hierarchy>'.length);
}

/** Rect.toShortString's "[l,t][r,b]"; blanks around the numbers (a hand-written or emulated dump) are read too. */
export function parseBounds(value: unknown): Rect {
  const m = /^\[\s*(-?\d+)\s*,\s*(-?\d+)\s*\]\s*\[\s*(-?\d+)\s*,\s*(-?\d+)\s*\]$/.exec(String(value ?? '').trim());
  if (!m) return { x: 0, y: 0, width: 0, height: 0 };
  const [l, t, r, b] = m.slice(1).map(Number);
  return { x: l, y: t, width: Math.max(0, r - l), height: Math.max(0, b - t) };
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const flag = (v: unknown): boolean => v === 'true';

function toUiNode(x: XmlNode, parentType: ElementType | undefined, insideWebView: boolean): UiNode {
  const className = str(x.class);
  const text = str(x.text);
  const label = str(x['content-desc']);
  const resourceId = str(x['resource-id']);
  const clickable = flag(x.clickable) || flag(x['long-clickable']);
  const checkable = flag(x.checkable);
  const scrollable = flag(x.scrollable);
  const type = elementTypeFor(className, { clickable, checkable, scrollable, hasText: Boolean(text || label), resourceId, parentType, insideWebView });
  const hint = str(x.hint);
  const editable = type === 'edittext';
  const node: UiNode = {
    type,
    // A field showing only its hint reports the hint as text on old releases; keep the real value empty.
    text: editable && hint && text === hint ? '' : text,
    label: label || null,
    bounds: parseBounds(x.bounds),
    enabled: x.enabled === undefined ? true : flag(x.enabled),
    clickable,
    focusable: flag(x.focusable),
    checkable,
    checked: flag(x.checked),
    focused: flag(x.focused),
    selected: flag(x.selected),
    scrollable,
    editable,
    password: flag(x.password),
    children: [],
  };
  if (x['visible-to-user'] === 'false') node.displayed = false;
  if (hint) node.hint = hint;
  if (resourceId) node.resourceId = resourceId;
  if (className) node.className = className;
  if (x.package) node.package = str(x.package);
  const childWeb = insideWebView || type === 'webview';
  node.children = (x.node ?? []).map((c) => toUiNode(c, type, childWeb));
  return node;
}

/**
 * Returns the tree under a synthetic, zero-sized root (so several windows, e.g. an app and the
 * keyboard, share one tree and ids keep one shape). Throws on output that holds no hierarchy.
 */
export function parseUiautomatorDump(output: string): { root: UiNode; rotation: number } {
  const xml = extractHierarchyXml(output);
  if (!xml) throw new Error(`uiautomator printed no hierarchy: ${output.trim().slice(0, 200) || '(nothing)'}`);
  const doc = (scanUiautomatorXml(xml) ?? xmlParser().parse(xml)) as { hierarchy?: XmlNode | string };
  const hierarchy = typeof doc.hierarchy === 'object' ? doc.hierarchy : {};
  const windows = (hierarchy.node ?? []).map((n) => toUiNode(n, undefined, false));
  return {
    rotation: Number(str(hierarchy.rotation)) || 0,
    root: { type: 'other', text: '', label: null, bounds: { x: 0, y: 0, width: 0, height: 0 }, enabled: true, children: windows },
  };
}
