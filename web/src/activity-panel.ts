import type { DeviceActivityParams } from '../../src/protocol/notifications.js';
import { describeActivity } from './activity-format.js';
import { el } from './dom.js';

/** Newest entries first; older ones beyond this are dropped so a long session stays light. */
const MAX_ENTRIES = 200;

/**
 * The pair-debugging feed: every action on the watched device, by whom, with its outcome. One
 * row per entry id: an entry the bridge merged (keys typed in quick succession) replaces its row,
 * and the history a late joiner fetches fills in around what arrived live.
 */
export class ActivityPanel {
  private unread = 0;
  private readonly rows = new Map<number, HTMLLIElement>();

  constructor(
    private readonly feed: HTMLElement,
    private readonly empty: HTMLElement,
    private readonly unreadBadge: HTMLElement,
    private readonly isVisible: () => boolean,
  ) {}

  /** A live entry; unread while the feed is hidden, unless it is this viewer's own action (you know what you did). */
  add(activity: DeviceActivityParams, mySession: string | undefined): void {
    const fresh = this.put(activity, mySession);
    if (fresh && !this.isVisible() && activity.session !== mySession) {
      this.unread++;
      this.unreadBadge.textContent = String(this.unread);
      this.unreadBadge.hidden = false;
    }
  }

  /** Entries from before this page watched the device (activity.recent, oldest first): not unread. */
  history(entries: readonly DeviceActivityParams[], mySession: string | undefined): void {
    for (const a of entries) if (!this.rows.has(a.id)) this.put(a, mySession);
  }

  /** The feed became visible. */
  markRead(): void {
    this.unread = 0;
    this.unreadBadge.hidden = true;
  }

  clear(): void {
    this.feed.replaceChildren();
    this.rows.clear();
    this.empty.hidden = false;
    this.markRead();
  }

  /** Shows the entry in its place by id; true when it is a new row. */
  private put(activity: DeviceActivityParams, mySession: string | undefined): boolean {
    const row = this.row(activity, mySession);
    const existing = this.rows.get(activity.id);
    this.rows.set(activity.id, row);
    this.empty.hidden = true;
    if (existing) {
      existing.replaceWith(row);
      return false;
    }
    // Newest first: before the first row with a smaller id.
    const after = [...this.rows.entries()].filter(([id]) => id < activity.id).sort((a, b) => b[0] - a[0])[0];
    if (after) after[1].before(row);
    else this.feed.append(row);
    while (this.feed.children.length > MAX_ENTRIES) {
      const last = this.feed.lastElementChild as HTMLLIElement;
      this.rows.delete(Number(last.dataset.id));
      last.remove();
    }
    return true;
  }

  private row(activity: DeviceActivityParams, mySession: string | undefined): HTMLLIElement {
    const line = describeActivity(activity, mySession);
    return el(
      'li',
      { class: [line.mine ? 'mine' : '', line.error ? 'error' : '', activity.masked ? 'masked' : ''].filter(Boolean).join(' ') || undefined, 'data-id': activity.id },
      el('span', { class: 'when' }, line.when),
      el('span', { class: 'who' }, line.who),
      ' ',
      el('span', { class: 'what' }, line.what),
      line.detail ? el('div', { class: 'detail' }, line.detail) : null,
      line.error ? el('div', { class: 'error-text' }, line.error) : null,
    );
  }
}
