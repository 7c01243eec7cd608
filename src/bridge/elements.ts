import type { ElementListing } from '../engine/driver.js';
import { ToolError } from '../engine/errors.js';
import { listingNote } from '../engine/listing/listing-note.js';
import type { UiElement } from '../engine/types.js';
import type { ElementsChangedParams } from '../protocol/index.js';
import { SharedNotification } from './outgoing.js';
import type { Subscription } from './sessions.js';

export interface ElementDiff {
  added: UiElement[];
  removed: string[];
  changed: UiElement[];
}

/** Differences by element id; an element whose any field differs is `changed`. */
export function diffElements(before: ReadonlyMap<string, string>, after: UiElement[]): { diff: ElementDiff; next: Map<string, string> } {
  const next = new Map<string, string>();
  const diff: ElementDiff = { added: [], removed: [], changed: [] };
  for (const el of after) {
    const json = JSON.stringify(el);
    next.set(el.id, json);
    const old = before.get(el.id);
    if (old === undefined) diff.added.push(el);
    else if (old !== json) diff.changed.push(el);
  }
  for (const id of before.keys()) if (!next.has(id)) diff.removed.push(id);
  return { diff, next };
}

export interface ElementWatcherHooks {
  /** Lists the elements (the bridge runs it in the device's queue). */
  list(): Promise<ElementListing>;
  onGone(reason: string): void;
  log(line: string): void;
}

/**
 * The element list of one device, watched for its subscribers: refreshed after every action and
 * on a poll interval, diffed by id, and pushed as sequence-numbered `elements.changed`. A new
 * subscriber first gets the whole list with `reset: true`. The listing's note (an app error dialog
 * over the app, a tree cut short) travels with them: a change of note alone is a change too.
 */
export class ElementWatcher {
  private readonly subs = new Set<Subscription>();
  private state?: Map<string, string>;
  private elements: UiElement[] = [];
  private note?: string;
  private seq = 0;
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private again = false;
  private failures = 0;

  constructor(
    readonly device: string,
    private readonly pollMs: number,
    private readonly hooks: ElementWatcherHooks,
  ) {}

  get size(): number {
    return this.subs.size;
  }

  add(sub: Subscription): void {
    this.subs.add(sub);
    if (!this.timer) {
      this.timer = setInterval(() => this.refresh(), this.pollMs);
      this.timer.unref();
    }
    this.startOver(sub);
  }

  remove(sub: Subscription): void {
    this.subs.delete(sub);
    if (this.subs.size === 0) this.stop();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.state = undefined;
    this.elements = [];
    this.note = undefined;
    this.failures = 0;
    this.subs.clear();
  }

  /** Schedules a refresh; calls during a running one coalesce into one more. */
  refresh(): void {
    if (this.subs.size === 0) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.hooks
      .list()
      .then(
        (elements) => this.adopt(elements, listingNote(elements)),
        (err: unknown) => {
          if (err instanceof ToolError && err.code === 'DEVICE_NOT_FOUND') return this.hooks.onGone(err.message);
          if (this.failures++ > 0) return;
          this.hooks.log(`elements of ${this.device}: listing failed: ${(err as Error).message}`);
          this.listingFailed(err);
        },
      )
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.refresh();
        }
      });
  }

  /**
   * Takes a fresh list (from a refresh, or from a `mobile_list_elements_on_screen` call someone
   * made) with the note the listing tool gave it.
   */
  adopt(elements: UiElement[], note: string | undefined): void {
    this.failures = 0;
    this.take(elements, note);
  }

  private take(elements: UiElement[], note: string | undefined): void {
    if (this.subs.size === 0) return;
    const { diff, next } = diffElements(this.state ?? new Map(), elements);
    const hadState = this.state !== undefined;
    const noteChanged = hadState && note !== this.note;
    this.state = next;
    this.elements = elements;
    this.note = note;
    const changed = diff.added.length + diff.removed.length + diff.changed.length > 0 || noteChanged;
    if (changed && hadState) this.seq++;
    // One serialisation of the diff for every subscriber; each one's subscription id goes in front of it.
    let message: SharedNotification | undefined;
    for (const sub of this.subs) {
      if (!sub.primed) this.prime(sub);
      else if (changed) sub.session.notifyShared((message ??= this.diffMessage(diff, noteChanged)), sub.id);
    }
  }

  /**
   * Listing stopped working (an Android screen that never stays still, WebDriverAgent not
   * answering): subscribers are told in the note, or a viewer would go on showing the last screen
   * listed (or nothing) as the screen as it is. The next listing that works replaces the note.
   */
  private listingFailed(err: unknown): void {
    const why = err instanceof ToolError ? `${err.code}: ${err.message}` : (err as Error).message;
    const shown = this.state ? ': the list is the screen as last listed, which may have changed since' : '';
    this.take(this.elements, `the elements could not be listed (${why})${shown}; listing is tried again every ${this.pollMs / 1000} s`);
  }

  private diffMessage(diff: ElementDiff, noteChanged: boolean): SharedNotification {
    const params: Omit<ElementsChangedParams, 'subscription'> = { device: this.device, seq: this.seq, ...diff };
    if (noteChanged) params.note = this.note ?? null;
    return new SharedNotification('elements.changed', params, 'subscription');
  }

  /** The subscriber lost what it had (a resumed session, whose diffs were let go): a reset now, or after the next listing. */
  startOver(sub: Subscription): void {
    sub.primed = false;
    if (this.state) this.prime(sub);
    this.refresh();
  }

  private prime(sub: Subscription): void {
    sub.primed = true;
    const params: ElementsChangedParams = { subscription: sub.id, device: this.device, seq: this.seq, reset: true, added: this.elements, removed: [], changed: [] };
    if (this.note !== undefined) params.note = this.note;
    sub.session.notify('elements.changed', params);
  }
}
