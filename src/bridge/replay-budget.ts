import type { OutgoingText } from './outgoing.js';

/** What the budget needs of a session: whether it waits for a resume, and a way to forget its oldest notification. */
export interface ReplayHolder {
  /** When its connection dropped (undefined while connected). */
  readonly detachedAt?: number;
  /** Bytes its ring holds (shared bodies counted in full). */
  readonly ringBytes: number;
  /** Forgets its oldest remembered notification; false when it has none left to give. */
  forgetOldest(): boolean;
}

/**
 * The memory of every session's replay ring together (issue 16). Each ring is bounded on its own
 * (500 messages / 2 MiB), but with a thousand sessions allowed to wait for a resume that bound
 * alone allowed gigabytes. Counted as memory held: a body shared by many rings counts once, so
 * 50 viewers of four phones cost what four phones' diffs cost. Over the limit, the rings of
 * sessions waiting for a resume give up their oldest notifications first (oldest detached first),
 * then the largest ring of a connected session; a later resume reports them as `dropped`.
 */
export class ReplayBudget {
  private held = 0;

  constructor(
    readonly limitBytes: number,
    private readonly holders: () => Iterable<ReplayHolder>,
  ) {}

  get bytes(): number {
    return this.held;
  }

  remembered(message: OutgoingText): void {
    const shared = message.shared;
    if (!shared) this.held += message.size;
    else {
      this.held += message.size - shared.bodySize;
      if (shared.holders++ === 0) this.held += shared.bodySize;
    }
  }

  forgotten(message: OutgoingText): void {
    const shared = message.shared;
    if (!shared) this.held -= message.size;
    else {
      this.held -= message.size - shared.bodySize;
      if (--shared.holders === 0) this.held -= shared.bodySize;
    }
  }

  /** Trims rings until the total is within the limit (called after a ring grew). */
  enforce(): void {
    while (this.held > this.limitBytes) {
      const victim = this.victim();
      if (!victim) return;
      // Drained as far as needed before looking again: one scan of the sessions per victim, not per message.
      while (this.held > this.limitBytes && victim.forgetOldest());
    }
  }

  private victim(): ReplayHolder | undefined {
    let detached: ReplayHolder | undefined;
    let largest: ReplayHolder | undefined;
    for (const h of this.holders()) {
      if (h.ringBytes === 0) continue;
      if (h.detachedAt !== undefined && (!detached || h.detachedAt < detached.detachedAt!)) detached = h;
      if (!largest || h.ringBytes > largest.ringBytes) largest = h;
    }
    return detached ?? largest;
  }
}
