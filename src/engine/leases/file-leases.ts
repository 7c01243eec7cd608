import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { createExclusive, createRecord, holderAlive, ownRecord, readOwner, reap, rm, type Owner, type Wants } from './lock-records.js';

export interface Lease {
  /** The device as the caller named it (the run uses this id). */
  device: string;
  /** What the lock is kept under: one key per phone, however it was named (DeviceLookup.key). */
  key: string;
  release(): void;
}

/** A device worth trying and the key its lock is kept under (`x` and `x@lab` are one phone, one lock). */
export interface LeaseCandidate {
  device: string;
  key: string;
  /** Its platform, so that waiters ahead of another kind can be told apart (unknown: every platform waiter wants it). */
  platform?: 'android' | 'ios';
}

/** Whether a waiter that wants `w` would take `c`. */
const wantsDevice = (w: Wants, c: LeaseCandidate): boolean =>
  w.key !== undefined ? w.key === c.key : w.platform === 'cross-platform' || c.platform === undefined || w.platform === c.platform;

export interface WaitOptions {
  /** Devices worth trying now, in preference order (ready ones of the wanted platform). */
  candidates(): Promise<LeaseCandidate[]>;
  /** The queue the ticket stands in, e.g. "android" or "device R58M123", for messages. */
  queue: string;
  /**
   * What this waiter takes. Earlier waiters keep their turn across queues: a later `any` job leaves
   * alone the phone an earlier `android` or named-device job waits for. Without it (a previous
   * version's caller), only tickets of the same queue come first.
   */
  wants?: Wants;
  timeoutMs: number;
  pollMs?: number;
  signal?: AbortSignal;
  /** Called once when the first try found nothing free (to tell the user why it waits). */
  onWaiting?(): void | Promise<void>;
}

export class LeaseTimeout extends Error {}

/**
 * Test seams: called between the steps of a takeover of a dead holder's lock, so that a test can
 * put a second taker exactly there (two takers in one process never interleave otherwise).
 */
export interface TakeoverSteps {
  /** The holder was judged dead; nothing is removed yet. */
  judged?(key: string): void;
  /** This taker holds the takeover marker. */
  marked?(key: string): void;
}

const safeName = (id: string) => encodeURIComponent(id).replace(/\./g, '%2E');

/**
 * Lock files this process holds, removed when it exits however it ends. One listener for the
 * process rather than one per FileLeases: several of them in one process (runs in a bridge,
 * tests) each added their own and Node warned of a listener leak past ten.
 */
const heldFiles = new Set<string>();
const removeHeld = () => {
  for (const file of heldFiles) rm(file);
};
function hold(file: string): void {
  if (heldFiles.size === 0) process.on('exit', removeHeld);
  heldFiles.add(file);
}
function unhold(file: string): void {
  heldFiles.delete(file);
  if (heldFiles.size === 0) process.off('exit', removeHeld);
}

/**
 * Device leases between processes on one machine that share a state folder (no bridge): a lock
 * file per device created exclusively, holding the owner's pid and start time. A lock whose process
 * is gone (killed CI job; a pid now reused by another process counts as gone) is taken over by one
 * taker only (lock-records.ts reap). Waiters stand in a first-come, first-served queue of ticket
 * files named by arrival time; a waiter takes no device that a live waiter ahead of it wants.
 */
export class FileLeases {
  private readonly locks: string;
  private readonly queueDir: string;
  private readonly held = new Map<string, string>();

  constructor(
    stateDir: string,
    private readonly steps: TakeoverSteps = {},
  ) {
    this.locks = join(stateDir, 'leases');
    this.queueDir = join(this.locks, 'queue');
    mkdirSync(this.queueDir, { recursive: true });
  }

  /** Takes `device` now if nobody (alive) holds its lock, kept under `key` (by default its id). */
  tryAcquire(device: string, key = device): Lease | undefined {
    const file = join(this.locks, `${safeName(key)}.lock`);
    for (let attempt = 0; attempt < 2; attempt++) {
      if (createRecord(file, ownRecord(device))) {
        this.held.set(key, file);
        hold(file);
        return { device, key, release: () => this.release(key) };
      }
      const owner = readOwner(file);
      // Unreadable or alive: someone has it. Only a dead holder on this host is cleared.
      if (!owner || holderAlive(owner)) return undefined;
      this.steps.judged?.(key);
      reap(file, owner, this.steps.marked && (() => this.steps.marked!(key)));
    }
    return undefined;
  }

  /** Who holds the lock kept under `key`, for messages. */
  holder(key: string): Owner | undefined {
    return readOwner(join(this.locks, `${safeName(key)}.lock`));
  }

  /** Waits in the queue for a free device among the candidates; throws LeaseTimeout after timeoutMs. */
  async wait(options: WaitOptions): Promise<Lease> {
    const ticket = join(this.queueDir, `${Date.now().toString().padStart(15, '0')}-${process.pid}-${randomBytes(4).toString('hex')}`);
    createExclusive(ticket, { ...ownRecord(options.queue), ...(options.wants ? { wants: options.wants } : {}) });
    const until = Date.now() + options.timeoutMs;
    let waiting = false;
    try {
      for (;;) {
        if (options.signal?.aborted) throw options.signal.reason;
        const ahead = this.ahead(ticket, options.queue, options.wants);
        if (ahead !== 'blocked') {
          for (const c of await options.candidates()) {
            if (ahead.some((w) => wantsDevice(w, c))) continue;
            const lease = this.tryAcquire(c.device, c.key);
            if (lease) return lease;
          }
        }
        if (Date.now() >= until) throw new LeaseTimeout(`no ${options.queue} device became free within ${Math.round(options.timeoutMs / 1000)} s`);
        if (!waiting) {
          waiting = true;
          await options.onWaiting?.();
        }
        await new Promise((r) => setTimeout(r, options.pollMs ?? 100));
      }
    } finally {
      rm(ticket);
    }
  }

  private release(key: string): void {
    const file = this.held.get(key);
    if (!file) return;
    this.held.delete(key);
    unhold(file);
    rm(file);
  }

  /**
   * What the live waiters ahead of `ticket` want, or 'blocked' when one of them takes whatever this
   * one could: it wants the same, or it is a previous version's ticket of the same queue (it says
   * only its queue: it comes first, as it did then). Blocked, this one need not even list the
   * devices. Tickets of dead processes are removed on the way.
   */
  private ahead(ticket: string, queue: string, mine: Wants | undefined): Wants[] | 'blocked' {
    const own = ticket.slice(this.queueDir.length + 1);
    const wants: Wants[] = [];
    for (const name of readdirSync(this.queueDir).sort()) {
      if (name === own) break;
      const owner = readOwner(join(this.queueDir, name));
      if (!owner) continue;
      if (!holderAlive(owner)) {
        rm(join(this.queueDir, name));
        continue;
      }
      const same = owner.wants ? mine !== undefined && owner.wants.platform === mine.platform && owner.wants.key === mine.key : owner.what === queue;
      if (same) return 'blocked';
      if (owner.wants) wants.push(owner.wants);
    }
    return wants;
  }
}
