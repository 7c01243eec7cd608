import type { WdaNode } from './wda-source.js';

/*
 * XCTest's source lists every element of the app, including those hidden behind the keyboard or
 * behind an alert: iOS does not resize the app for the keyboard, and an alert is a separate window
 * on top. A tap at such an element's centre lands on the key or the alert instead (a listed
 * "Sign in" under the landscape keyboard was the keyboard's "g"). These are removed before listing.
 */

type Rect = WdaNode['rect'];

const MODAL_TYPES = new Set(['Alert', 'Sheet']);

function typeOf(node: WdaNode): string {
  return node.type.replace(/^XCUIElementType/, '');
}

function shown(node: WdaNode): boolean {
  const visible = node.isVisible === undefined || node.isVisible === true || node.isVisible === 1 || node.isVisible === '1' || node.isVisible === 'true';
  return visible && node.rect.width > 0 && node.rect.height > 0;
}

function collect(node: WdaNode, types: Set<string>, into: WdaNode[] = []): WdaNode[] {
  if (types.has(typeOf(node)) && shown(node)) into.push(node);
  else for (const c of node.children ?? []) collect(c, types, into);
  return into;
}

function contains(r: Rect, x: number, y: number): boolean {
  return x >= r.x && x < r.x + r.width && y >= r.y && y < r.y + r.height;
}

/** Drops nodes whose centre lies under a keyboard; their children are judged on their own. */
function dropUnder(node: WdaNode, covers: Rect[], keep: Set<WdaNode>): WdaNode[] {
  if (keep.has(node)) return [node];
  const children = (node.children ?? []).flatMap((c) => dropUnder(c, covers, keep));
  const cx = node.rect.x + node.rect.width / 2;
  const cy = node.rect.y + node.rect.height / 2;
  // Containers larger than a cover (the window, a scroll view) stay: part of them is still reachable.
  const covered = covers.some((r) => contains(r, cx, cy) && node.rect.width <= r.width && node.rect.height <= r.height);
  if (covered) return children;
  return [{ ...node, children }];
}

/** The tree as a user can reach it: only the alert while one shows, and nothing under the keyboard. */
export function withoutCoveredNodes(root: WdaNode): WdaNode {
  const keyboards = collect(root, new Set(['Keyboard']));
  const modals = collect(root, MODAL_TYPES);
  const base: WdaNode = modals.length ? { ...root, children: [...modals, ...keyboards.filter((k) => !modals.some((m) => collect(m, new Set(['Keyboard'])).includes(k)))] } : root;
  if (!keyboards.length) return base;
  const keep = new Set(keyboards);
  const [top] = dropUnder(base, keyboards.map((k) => k.rect), keep);
  return top ?? { ...root, children: keyboards };
}
