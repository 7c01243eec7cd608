import type { Rect } from './geometry.js';

/**
 * The inspector's tree: the element listing carries no parent links (drivers flatten their
 * hierarchies and drop the layout-only nodes), so nesting is rebuilt from bounds. An element's
 * parent is the smallest listed element that wholly contains it; of two with the same bounds the
 * one listed first is the parent, so the result is always a forest. Pure; O(n²) on a few hundred
 * elements is well under a millisecond.
 */

export interface TreeNode<T> {
  element: T;
  children: TreeNode<T>[];
}

function encloses(outer: Rect, inner: Rect): boolean {
  return outer.x <= inner.x && outer.y <= inner.y && outer.x + outer.width >= inner.x + inner.width && outer.y + outer.height >= inner.y + inner.height;
}

const area = (r: Rect) => r.width * r.height;

/** Roots and their descendants, each level in the order of `elements` (reading order when given in it). */
export function containmentTree<T extends Rect>(elements: readonly T[]): TreeNode<T>[] {
  const nodes = elements.map((element) => ({ element, children: [] as TreeNode<T>[] }));
  // Larger first (list order among equals): a parent is always placed before its children.
  const bySize = nodes.map((node, index) => ({ node, index })).sort((a, b) => area(b.node.element) - area(a.node.element) || a.index - b.index);
  const parentOf = new Map<TreeNode<T>, TreeNode<T>>();
  for (let i = 0; i < bySize.length; i++) {
    const child = bySize[i].node;
    // Walking back from the child, areas only grow: the first enclosing one is the smallest.
    for (let j = i - 1; j >= 0; j--) {
      const candidate = bySize[j].node;
      if (encloses(candidate.element, child.element)) {
        parentOf.set(child, candidate);
        break;
      }
    }
  }
  const roots: TreeNode<T>[] = [];
  for (const node of nodes) (parentOf.get(node)?.children ?? roots).push(node);
  return roots;
}
