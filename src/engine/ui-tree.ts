import type { ElementType, Rect, UiElement } from './types.js';

/**
 * A platform-neutral UI hierarchy node. Every driver turns its native hierarchy
 * (uiautomator XML, WDA /source JSON, the virtual phone's model) into this shape,
 * and `elementsFromTree` turns it into the public element list, so the filtering
 * and id rules of SPEC §2 live in exactly one place.
 */
export interface UiNode {
  type: ElementType;
  text: string;
  label: string | null;
  bounds: Rect;
  enabled: boolean;
  /** False when the platform says the node is hidden (alpha 0, not displayed). */
  displayed?: boolean;
  clickable?: boolean;
  focusable?: boolean;
  checkable?: boolean;
  checked?: boolean;
  focused?: boolean;
  selected?: boolean;
  scrollable?: boolean;
  editable?: boolean;
  password?: boolean;
  hint?: string;
  resourceId?: string;
  className?: string;
  package?: string;
  children: UiNode[];
}

export interface ScreenSize { width: number; height: number }

export const sameSize = (a: ScreenSize, b: ScreenSize): boolean => a.width === b.width && a.height === b.height;

function intersects(r: Rect, screen: ScreenSize): boolean {
  return r.x < screen.width && r.y < screen.height && r.x + r.width > 0 && r.y + r.height > 0;
}

/** SPEC §2 "interactive elements currently visible". */
export function isListable(node: UiNode, screen: ScreenSize): boolean {
  if (node.displayed === false) return false;
  if (node.bounds.width <= 0 || node.bounds.height <= 0) return false;
  if (!intersects(node.bounds, screen)) return false;
  return Boolean(
    node.clickable || node.focusable || node.checkable || node.scrollable || node.editable ||
      node.text || node.label,
  );
}

/** Ids come from resource ids when unique in the tree, else from the node's path, so they stay stable while the element stays put. */
function sanitizeId(raw: string): string {
  const tail = raw.includes(':id/') ? raw.slice(raw.indexOf(':id/') + 4) : raw;
  return tail.replace(/[^A-Za-z0-9_.-]+/g, '_');
}

/**
 * Linear in the nodes: the hierarchy path that names an element without a unique resource id is
 * kept as a stack of child indices and joined only for elements that need it (a string per node
 * made deep trees quadratic).
 */
/**
 * Whether an id is an element's place in the tree (`n0.0.2.1`, given where no unique resource id is),
 * not the app's name for it: after a scroll the same id is another row's element.
 */
export function isPositionalId(id: string): boolean {
  return /^n0(\.|$)/.test(id);
}

export function elementsFromTree(root: UiNode, screen: ScreenSize): UiElement[] {
  const idCounts = new Map<string, number>();
  const countIds = (n: UiNode) => {
    if (n.resourceId) idCounts.set(n.resourceId, (idCounts.get(n.resourceId) ?? 0) + 1);
    for (const c of n.children) countIds(c);
  };
  countIds(root);

  const out: UiElement[] = [];
  const path: number[] = [];
  const walk = (n: UiNode) => {
    if (isListable(n, screen)) {
      const unique = n.resourceId !== undefined && n.resourceId !== '' && idCounts.get(n.resourceId) === 1;
      out.push(toElement(n, unique ? sanitizeId(n.resourceId!) : path.length ? `n0.${path.join('.')}` : 'n0'));
    }
    for (let i = 0; i < n.children.length; i++) {
      path.push(i);
      walk(n.children[i]);
      path.pop();
    }
  };
  walk(root);
  return out;
}

function toElement(n: UiNode, id: string): UiElement {
  const { x, y, width, height } = n.bounds;
  const el: UiElement = {
    id,
    text: n.text,
    type: n.type,
    accessibility_label: n.label ?? null,
    x, y, width, height,
    visible: true,
    enabled: n.enabled,
    center: { x: Math.round(x + width / 2), y: Math.round(y + height / 2) },
  };
  if (n.checkable || n.checked !== undefined) el.checked = Boolean(n.checked);
  if (n.selected !== undefined) el.selected = n.selected;
  if (n.focused !== undefined) el.focused = n.focused;
  if (n.password) el.password = true;
  if (n.clickable !== undefined) el.clickable = n.clickable;
  if (n.scrollable !== undefined) el.scrollable = n.scrollable;
  if (n.hint) el.hint = n.hint;
  if (n.resourceId) el.resource_id = n.resourceId;
  if (n.className) el.class = n.className;
  if (n.package) el.package = n.package;
  return el;
}
