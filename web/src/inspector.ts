import type { UiElement } from '../../src/engine/types.js';
import { isFailureResult, type ElementDescription } from '../../src/protocol/methods.js';
import { el } from './dom.js';
import { elementName } from './element-row.js';
import { copyables, verdict } from './inspector-copy.js';

type Check = { state: 'checking' } | { state: 'done'; description: ElementDescription } | { state: 'failed'; message: string };

/**
 * Re-checks wait this long after the screen last changed, and come at most once per interval: each
 * one lists the screen on the device (about 2 s of uiautomator on a real Android phone), and a clock
 * or a progress bar changes the listing all the time.
 */
const RECHECK_DELAY_MS = 300;
const RECHECK_INTERVAL_MS = 1500;

function formatValue(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/**
 * The inspector's details pane. It shows the selected element (else the hovered one): its name,
 * the semantic target the bridge's resolver accepts for it (elements.describe, checked again when
 * the screen changes), Copy buttons and the raw attributes. The pane has a fixed height in the
 * stylesheet, so the rows below never move when the selection changes.
 */
export class InspectorDetails {
  private selected: UiElement | undefined;
  private hovered: UiElement | undefined;
  private check: Check | undefined;
  private gone = false;
  private requests = 0;
  private lastCheck = 0;
  private recheck: ReturnType<typeof setTimeout> | undefined;
  /** The × button: whoever owns the selection clears it (and with it the rows' marks and the outline). */
  onClear: () => void = () => this.select(undefined);

  constructor(
    private readonly root: HTMLElement,
    private readonly describe: (element: UiElement) => Promise<unknown>,
    private readonly copy: (text: string) => Promise<void>,
  ) {
    this.render();
  }

  get selectedId(): string | undefined {
    return this.selected?.id;
  }

  hover(element: UiElement | undefined): void {
    this.hovered = element;
    if (!this.selected) this.render();
  }

  select(element: UiElement | undefined): void {
    this.selected = element;
    this.gone = false;
    this.check = undefined;
    clearTimeout(this.recheck);
    this.render();
    if (element) void this.runCheck();
  }

  /** The screen changed: follow the selected element, and check its target again once things settle. */
  screenChanged(elements: readonly UiElement[]): void {
    if (!this.selected) return;
    const now = elements.find((e) => e.id === this.selected!.id);
    this.gone = !now;
    if (now) this.selected = now;
    clearTimeout(this.recheck);
    if (now) this.recheck = setTimeout(() => void this.runCheck(), Math.max(RECHECK_DELAY_MS, this.lastCheck + RECHECK_INTERVAL_MS - performance.now()));
    this.render();
  }

  private async runCheck(): Promise<void> {
    const element = this.selected;
    if (!element) return;
    const n = ++this.requests;
    this.lastCheck = performance.now();
    if (!this.check) this.check = { state: 'checking' };
    this.render();
    let check: Check;
    try {
      const result = await this.describe(element);
      check = isFailureResult(result) ? { state: 'failed', message: `${result.code}: ${result.message}` } : { state: 'done', description: result as ElementDescription };
    } catch (err) {
      check = { state: 'failed', message: `could not ask the bridge: ${err instanceof Error ? err.message : String(err)}` };
    }
    if (n !== this.requests || this.selected?.id !== element.id) return;
    this.check = check;
    this.render();
  }

  private render(): void {
    const element = this.selected ?? this.hovered;
    if (!element) {
      this.root.replaceChildren(el('p', { class: 'hint' }, 'Hover over the screen or the list to see an element; click a row to get the target a scenario uses for it.'));
      return;
    }
    const head = el(
      'div',
      { class: 'inspect-head' },
      el('strong', { class: 'name' }, elementName(element)),
      el('span', { class: 'type' }, element.type),
      el('code', { class: 'rid', title: 'element id (internal; scenarios use the target)' }, element.id),
    );
    if (this.selected) {
      const clear = el('button', { type: 'button', class: 'inspect-clear', title: 'Clear the selection', 'aria-label': 'Clear the selection' }, '×');
      clear.addEventListener('click', () => this.onClear());
      head.append(clear);
    }
    const parts: (Node | null)[] = [head];
    if (this.selected) parts.push(...this.targetParts(element));
    else parts.push(el('p', { class: 'hint' }, 'Click the row to get its scenario target.'));
    const fields = Object.entries(element).flatMap(([key, value]) => [el('dt', {}, key), el('dd', {}, formatValue(value))]);
    parts.push(el('dl', { class: 'attributes', 'aria-label': `Fields of ${elementName(element)}` }, ...fields));
    this.root.replaceChildren(...parts.filter((p): p is Node => p !== null));
  }

  private targetParts(element: UiElement): Node[] {
    const check = this.check;
    const status = el('span', { class: 'copied', role: 'status' });
    if (this.gone) return [el('p', { class: 'target-note bad' }, 'This element is no longer on the screen. Pick another one.')];
    if (!check || check.state === 'checking') return [el('p', { class: 'target-note', 'aria-busy': 'true' }, 'Checking the target on the device…')];
    if (check.state === 'failed') return [el('p', { class: 'target-note bad' }, `Could not check the target: ${check.message}`)];
    const d = check.description;
    const line = el('div', { class: 'target-line' }, 'Target ', el('code', { class: 'target' }, d.target ?? '(none)'), ' ');
    line.append(el('span', { class: `verdict-badge ${d.unique ? 'ok' : 'warn'}` }, verdict(d)));
    const parts: Node[] = [line];
    if (!d.unique && d.alternative) {
      parts.push(el('div', { class: 'target-line alternative' }, 'Use ', el('code', { class: 'target' }, d.alternative.target), d.alternative.target_pattern ? el('span', {}, ' with target_pattern ', el('code', {}, d.alternative.target_pattern)) : null));
    }
    parts.push(el('p', { class: 'target-note' }, d.message));
    const buttons = copyables(element, d).map((c) => {
      const b = el('button', { type: 'button', class: 'copy', 'data-copy': c.label }, c.label);
      b.addEventListener('click', () => {
        this.copy(c.text).then(
          () => (status.textContent = `${c.label.replace(/^Copy /, '')} copied`),
          (err: unknown) => (status.textContent = `Could not copy: ${err instanceof Error ? err.message : String(err)}`),
        );
      });
      return b;
    });
    if (element.password && d.step_examples?.type) parts.push(el('p', { class: 'target-note' }, 'The type step types ${PASSWORD}: declare it under "parameters" with "secret": true (schema 2.2) and give it at run time.'));
    parts.push(el('div', { class: 'copy-row' }, ...buttons, status));
    return parts;
  }
}
