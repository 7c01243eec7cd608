import type { UiElement } from '../../src/engine/types.js';
import type { ElementsChangedParams } from '../../src/protocol/notifications.js';

export type ApplyOutcome =
  /** The diff was applied; `fresh` are ids added or changed by it. */
  | { kind: 'applied'; fresh: string[] }
  /** A diff was missed (sequence gap): the list may be wrong until it is re-listed. */
  | { kind: 'gap'; expected: number; got: number }
  | { kind: 'ignored' };

/**
 * The element list of one device, kept current from `elements.changed` diffs. Pure, so the
 * diff rules (reset, sequence gaps, order) are unit-tested in Node.
 */
export class ElementStore {
  private readonly byId = new Map<string, UiElement>();
  private lastSeq: number | undefined;
  /** What the device says about the listing (an app error dialog over the app, a tree cut short). */
  note: string | undefined;

  constructor(readonly device: string) {}

  /** In reading order (top to bottom, then left to right): diffs add at the end, the panel should not. */
  get elements(): UiElement[] {
    return [...this.byId.values()].sort((a, b) => a.y - b.y || a.x - b.x);
  }

  get(id: string): UiElement | undefined {
    return this.byId.get(id);
  }

  /** Replace everything, e.g. with a fresh mobile_list_elements_on_screen result (and its note). */
  replace(elements: readonly UiElement[], seq?: number, note?: string): void {
    this.note = note;
    this.byId.clear();
    for (const e of elements) this.byId.set(e.id, e);
    if (seq !== undefined) this.lastSeq = seq;
  }

  apply(change: ElementsChangedParams): ApplyOutcome {
    if (change.device !== this.device) return { kind: 'ignored' };
    if (change.reset) {
      this.replace(change.added, change.seq, change.note ?? undefined);
      return { kind: 'applied', fresh: [] };
    }
    if (this.lastSeq !== undefined && change.seq <= this.lastSeq) return { kind: 'ignored' };
    const expected = this.lastSeq === undefined ? change.seq : this.lastSeq + 1;
    this.lastSeq = change.seq;
    if (change.note !== undefined) this.note = change.note ?? undefined;
    for (const id of change.removed) this.byId.delete(id);
    for (const e of change.changed) this.byId.set(e.id, e);
    for (const e of change.added) this.byId.set(e.id, e);
    if (change.seq !== expected) return { kind: 'gap', expected, got: change.seq };
    return { kind: 'applied', fresh: [...change.added, ...change.changed].map((e) => e.id) };
  }
}
