import type { UiElement } from '../../src/engine/types.js';
import { el } from './dom.js';

export interface ElementsPanelEvents {
  /** Pointer or focus is on an element's row (undefined: it left). */
  hover(element: UiElement | undefined): void;
  /** Enter on a focused row: tap the element's centre. */
  activate(element: UiElement): void;
}

/** What a row calls an element: its text, else its label, else its hint or id. */
export function elementName(e: UiElement): string {
  return e.text || e.accessibility_label || e.hint || e.resource_id || e.id;
}

function formatValue(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/**
 * The side panel's element list and the details card. The card shows every field exactly as
 * mobile_list_elements_on_screen reports it, so what people see here is what agents get.
 */
export class ElementsPanel {
  private rows = new Map<string, HTMLLIElement>();
  private hovered: string | undefined;

  constructor(
    private readonly list: HTMLElement,
    private readonly details: HTMLElement,
    private readonly count: HTMLElement,
    private readonly events: ElementsPanelEvents,
  ) {
    list.addEventListener('pointerleave', () => events.hover(undefined));
    list.addEventListener('focusout', (e) => {
      if (!list.contains(e.relatedTarget as Node | null)) events.hover(undefined);
    });
  }

  render(elements: readonly UiElement[], fresh: readonly string[] = []): void {
    const freshSet = new Set(fresh);
    const rows = new Map<string, HTMLLIElement>();
    const items = elements.map((e) => {
      const row = el(
        'li',
        { tabindex: 0, 'data-id': e.id, class: freshSet.has(e.id) ? 'fresh' : undefined, title: 'Enter taps this element' },
        el('span', { class: 'type' }, e.type),
        el('span', { class: 'label' }, elementName(e)),
      );
      row.addEventListener('pointerenter', () => this.events.hover(e));
      row.addEventListener('focus', () => this.events.hover(e));
      row.addEventListener('keydown', (k) => {
        if (k.key !== 'Enter') return;
        k.preventDefault();
        this.events.activate(e);
      });
      if (e.id === this.hovered) row.classList.add('hovered');
      rows.set(e.id, row);
      return row;
    });
    this.list.replaceChildren(...items);
    this.rows = rows;
    this.count.textContent = elements.length > 0 ? String(elements.length) : '';
  }

  /** Highlight one row and show its fields (undefined clears both). */
  show(element: UiElement | undefined): void {
    if (this.hovered) this.rows.get(this.hovered)?.classList.remove('hovered');
    this.hovered = element?.id;
    if (!element) {
      this.details.replaceChildren(el('p', { class: 'hint' }, 'Hover over the screen or an element in the list to see its fields.'));
      return;
    }
    const row = this.rows.get(element.id);
    if (row) {
      row.classList.add('hovered');
      row.scrollIntoView({ block: 'nearest' });
    }
    const fields = Object.entries(element).flatMap(([key, value]) => [el('dt', {}, key), el('dd', {}, formatValue(value))]);
    this.details.replaceChildren(el('dl', { 'aria-label': `Fields of ${elementName(element)}` }, ...fields));
  }
}
