import { mappedSharedMemory } from './mapped-memory.js';

/**
 * Screen-sized pixel buffers in shared memory, lent out and reused. A moving virtual phone draws
 * ~30 screens a second per device; a fresh 10 MB buffer for each left gigabytes of garbage that
 * V8 collects late and glibc does not give back to the system (issue 16: 2 GB of RSS kept after
 * load). With slots, the same few buffers per device carry every frame, and a renderer or
 * downscaler thread writes into them in place (no copy, no transfer).
 *
 * A slot is reused only after every holder released it. Holders that never release (a caller
 * that keeps a screenshot) just make that one slot ordinary garbage: a buffer someone may still
 * read is never rewritten.
 */

export interface PixelSlot {
  /** Unique in the process: a thread that drew into this slot before remembers what it holds. */
  readonly id: number;
  readonly memory: SharedArrayBuffer;
  /** The whole slot as a Buffer. */
  readonly data: Buffer;
}

export interface PixelSlotStats {
  /** Slots created since start. */
  allocated: number;
  /** Takes served by a spare slot instead of a new one. */
  reused: number;
  /** Slots lent out now (taken, not yet released by every holder, not yet collected). */
  lent: number;
  lentBytes: number;
  /** Spare slots kept for reuse now. */
  spare: number;
  spareBytes: number;
}

export interface PixelSlotOptions {
  /** Spare slots kept for reuse (default 3). */
  spare?: number;
  /** Spare slots unused this long are dropped, so an idle device holds no pixels (default 3000 ms). */
  idleMs?: number;
}

let nextId = 1;

export class PixelSlotPool {
  private readonly free: { slot: PixelSlot; since: number }[] = [];
  /** Holds per lent slot. Weak: a slot whose holder never releases it must stay collectable. */
  private readonly refs = new WeakMap<PixelSlot, number>();
  private lent = { count: 0, bytes: 0 };
  /** Counts lent slots that became garbage without being released. */
  private readonly lost = new FinalizationRegistry<number>((bytes) => {
    this.lent.count--;
    this.lent.bytes -= bytes;
  });
  private readonly maxSpare: number;
  private readonly idleMs: number;
  private counters = { allocated: 0, reused: 0 };
  private trimTimer?: NodeJS.Timeout;

  constructor(options: PixelSlotOptions = {}) {
    this.maxSpare = options.spare ?? 3;
    this.idleMs = options.idleMs ?? 3000;
  }

  /** A slot of exactly `bytes`, lent to the caller (one hold). Its contents are whatever it held last. */
  take(bytes: number): PixelSlot {
    let slot: PixelSlot | undefined;
    for (let i = this.free.length - 1; i >= 0; i--) {
      if (this.free[i].slot.data.length === bytes) {
        slot = this.free.splice(i, 1)[0].slot;
        this.counters.reused++;
        break;
      }
    }
    if (!slot) {
      // Shared memory is zero-filled once; reuse makes that a one-off.
      const memory = mappedSharedMemory(bytes);
      slot = { id: nextId++, memory, data: Buffer.from(memory, 0, bytes) };
      this.counters.allocated++;
    }
    this.refs.set(slot, 1);
    this.lent.count++;
    this.lent.bytes += bytes;
    this.lost.register(slot, bytes, slot);
    return slot;
  }

  /** One more holder. */
  retain(slot: PixelSlot): void {
    const n = this.refs.get(slot);
    if (n === undefined) throw new Error(`pixel slot ${slot.id} is not lent out: a released slot cannot be held again`);
    this.refs.set(slot, n + 1);
  }

  /** A holder is done; the last one gives the slot back for reuse. */
  release(slot: PixelSlot): void {
    const n = this.refs.get(slot);
    if (n === undefined) return;
    if (n > 1) {
      this.refs.set(slot, n - 1);
      return;
    }
    this.refs.delete(slot);
    this.lost.unregister(slot);
    this.lent.count--;
    this.lent.bytes -= slot.data.length;
    this.free.push({ slot, since: performance.now() });
    if (this.free.length > this.maxSpare) this.free.shift();
    this.scheduleTrim();
  }

  /** A release callable once (for handing a hold to code that may call it twice). */
  releaser(slot: PixelSlot): () => void {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.release(slot);
    };
  }

  /** Drops every spare slot now. */
  trim(): void {
    this.free.length = 0;
    clearTimeout(this.trimTimer);
    this.trimTimer = undefined;
  }

  get stats(): PixelSlotStats {
    return {
      ...this.counters,
      lent: this.lent.count,
      lentBytes: this.lent.bytes,
      spare: this.free.length,
      spareBytes: this.free.reduce((a, f) => a + f.slot.data.length, 0),
    };
  }

  private scheduleTrim(): void {
    if (this.trimTimer) return;
    this.trimTimer = setTimeout(() => {
      this.trimTimer = undefined;
      const cutoff = performance.now() - this.idleMs;
      for (let i = this.free.length - 1; i >= 0; i--) if (this.free[i].since <= cutoff) this.free.splice(i, 1);
      if (this.free.length > 0) this.scheduleTrim();
    }, this.idleMs);
    this.trimTimer.unref();
  }
}
