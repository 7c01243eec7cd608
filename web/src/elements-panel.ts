import type { UiElement } from '../../src/engine/types.js';
import { el } from './dom.js';
import { containmentTree, type TreeNode } from './element-tree.js';
import { rowContent } from './element-row.js';
import type { InspectorDetails } from './inspector.js';

export { elementName } from './element-row.js';

export interface ElementsPanelEvents {
  /** Pointer or focus is on an element's row (undefined: it left). */
  hover(element: UiElement | undefined): void;
  /** Enter on a focused row: tap the element's centre. */
  activate(element: UiElement): void;
}

/**
 * The side panel's elements, as a flat list in reading order or as a tree nested by bounds, and the
 * details pane (InspectorDetails). Hovering or focusing a row outlines the element; clicking it
 * selects it for the details pane; Enter taps it.
 */
export class ElementsPanel {
  private rows = new Map<string, HTMLElement[]>();
  private hovered: string | undefined;
  private selectedElement: UiElement | undefined;
  private readonly collapsed = new Set<string>();
  private elements: readonly UiElement[] = [];

  constructor(
    private readonly list: HTMLElement,
    private readonly tree: HTMLElement,
    private readonly details: InspectorDetails,
    private readonly count: HTMLElement,
    private readonly events: ElementsPanelEvents,
  ) {
    details.onClear = () => {
      this.select(undefined);
      events.hover(undefined);
    };
    for (const container of [list, tree]) {
      container.addEventListener('pointerleave', () => events.hover(undefined));
      container.addEventListener('focusout', (e) => {
        if (!container.contains(e.relatedTarget as Node | null)) events.hover(undefined);
      });
    }
  }

  /** The element selected for the details pane, as currently listed. */
  get selected(): UiElement | undefined {
    return this.selectedElement;
  }

  render(elements: readonly UiElement[], fresh: readonly string[] = []): void {
    this.elements = elements;
    this.renderRows(new Set(fresh));
    this.count.textContent = elements.length > 0 ? String(elements.length) : '';
    if (this.selectedElement) this.selectedElement = elements.find((e) => e.id === this.selectedElement!.id) ?? this.selectedElement;
    this.details.screenChanged(elements);
  }

  private renderRows(fresh: Set<string>): void {
    this.rows = new Map();
    this.list.replaceChildren(...this.elements.map((e) => this.row('li', e, fresh, { title: 'Click to inspect · Enter taps this element' })));
    this.tree.replaceChildren(...containmentTree(this.elements).map((node) => this.treeItem(node, 1, fresh)));
  }

  /** Highlight one row and show it in the details pane (undefined: the pointer left). */
  show(element: UiElement | undefined): void {
    if (this.hovered) for (const r of this.rows.get(this.hovered) ?? []) r.classList.remove('hovered');
    this.hovered = element?.id;
    for (const r of this.rows.get(element?.id ?? '') ?? []) {
      r.classList.add('hovered');
      if (r.offsetParent !== null) r.scrollIntoView({ block: 'nearest' });
    }
    this.details.hover(element);
  }

  select(element: UiElement | undefined): void {
    const same = element && element.id === this.selectedElement?.id;
    this.selectedElement = same ? undefined : element;
    for (const rows of this.rows.values()) for (const r of rows) r.classList.toggle('selected', r.dataset.id === this.selectedElement?.id);
    this.details.select(this.selectedElement);
  }

  private row<K extends 'li' | 'div'>(tag: K, e: UiElement, fresh: Set<string>, attrs: Record<string, string | number> = {}): HTMLElementTagNameMap[K] {
    const classes = [attrs.class, fresh.has(e.id) && 'fresh', e.id === this.hovered && 'hovered', e.id === this.selectedElement?.id && 'selected'].filter(Boolean).join(' ');
    const row = el(tag, { tabindex: 0, 'data-id': e.id, ...attrs, class: classes || undefined }, ...rowContent(e));
    row.addEventListener('pointerenter', () => this.events.hover(e));
    row.addEventListener('focus', () => this.events.hover(e));
    row.addEventListener('click', (c) => {
      c.stopPropagation();
      this.select(e);
    });
    row.addEventListener('keydown', (event) => {
      const k = event as KeyboardEvent;
      if (k.key === 'Enter') {
        k.preventDefault();
        this.events.activate(e);
      } else if (k.key === ' ') {
        k.preventDefault();
        this.select(e);
      } else if (k.key === 'ArrowDown' || k.key === 'ArrowUp') {
        k.preventDefault();
        this.focusNext(row, k.key === 'ArrowDown' ? 1 : -1);
      } else if ((k.key === 'ArrowLeft' || k.key === 'ArrowRight') && tag === 'div') {
        // Tree rows: Left collapses, Right expands (WAI-ARIA tree pattern, without type-ahead).
        const collapse = k.key === 'ArrowLeft';
        if (collapse === this.collapsed.has(e.id)) return;
        k.preventDefault();
        if (collapse) this.collapsed.add(e.id);
        else this.collapsed.delete(e.id);
        this.renderRows(new Set());
        this.rows.get(e.id)?.find((r) => this.tree.contains(r))?.focus();
      }
    });
    this.rows.set(e.id, [...(this.rows.get(e.id) ?? []), row]);
    return row;
  }

  /** Up and Down move between the rows of the list or tree the focus is in. */
  private focusNext(row: HTMLElement, step: 1 | -1): void {
    const container = this.tree.contains(row) ? this.tree : this.list;
    const rows = [...container.querySelectorAll<HTMLElement>('[data-id][tabindex="0"]')];
    rows[rows.indexOf(row) + step]?.focus();
  }

  private treeItem(node: TreeNode<UiElement>, level: number, fresh: Set<string>): HTMLLIElement {
    const e = node.element;
    const open = !this.collapsed.has(e.id);
    const item = el('li', { role: 'treeitem', 'aria-level': level, 'aria-expanded': node.children.length ? String(open) : undefined, 'data-id': e.id });
    const row = this.row('div', e, fresh, { class: 'tree-row', title: 'Click to inspect · Enter taps this element' });
    if (node.children.length) {
      const toggle = el('button', { type: 'button', class: 'twisty', tabindex: -1, 'aria-label': open ? 'Collapse' : 'Expand' }, open ? '▾' : '▸');
      toggle.addEventListener('click', (c) => {
        c.stopPropagation();
        if (open) this.collapsed.add(e.id);
        else this.collapsed.delete(e.id);
        this.renderRows(new Set());
      });
      row.prepend(toggle);
    } else row.prepend(el('span', { class: 'twisty' }));
    item.append(row);
    if (node.children.length && open) item.append(el('ul', { role: 'group' }, ...node.children.map((c) => this.treeItem(c, level + 1, fresh))));
    return item;
  }
}
