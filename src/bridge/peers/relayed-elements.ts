import type { UiElement } from '../../engine/types.js';
import type { ElementsChangedParams } from '../../protocol/index.js';

/**
 * A peer's element list for one shared subscription, kept from its `elements.changed` messages so
 * that a viewer joining (or starting over) here gets a reset without asking the peer again.
 */
export class RelayedElements {
  private readonly byId = new Map<string, UiElement>();
  private note?: string;
  private seq = 0;
  /** The peer's first (reset) message has come: the snapshot can start a new viewer. */
  primed = false;

  apply(p: ElementsChangedParams): void {
    if (p.reset) this.byId.clear();
    // A diff without `note` leaves it as it was; null clears it.
    if (p.reset || p.note !== undefined) this.note = p.note ?? undefined;
    this.primed = true;
    for (const id of p.removed) this.byId.delete(id);
    for (const e of [...p.added, ...p.changed]) this.byId.set(e.id, e);
    this.seq = p.seq;
  }

  /** The whole list as a reset for one viewer's subscription, or undefined before the peer's first message. */
  reset(subscription: string, device: string): ElementsChangedParams | undefined {
    if (!this.primed) return undefined;
    const params: ElementsChangedParams = { subscription, device, seq: this.seq, reset: true, added: [...this.byId.values()], removed: [], changed: [] };
    if (this.note !== undefined) params.note = this.note;
    return params;
  }
}
