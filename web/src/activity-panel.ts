import type { DeviceActivityParams } from '../../src/protocol/methods.js';
import { describeActivity } from './activity-format.js';
import { el } from './dom.js';

/** Newest entries first; older ones beyond this are dropped so a long session stays light. */
const MAX_ENTRIES = 200;

/** The pair-debugging feed: every action on the watched device, by whom, with its outcome. */
export class ActivityPanel {
  private unread = 0;

  constructor(
    private readonly feed: HTMLElement,
    private readonly empty: HTMLElement,
    private readonly unreadBadge: HTMLElement,
    private readonly isVisible: () => boolean,
  ) {}

  add(activity: DeviceActivityParams, mySession: string | undefined): void {
    const line = describeActivity(activity, mySession);
    const item = el(
      'li',
      { class: [line.mine ? 'mine' : '', line.error ? 'error' : ''].filter(Boolean).join(' ') || undefined },
      el('span', { class: 'when' }, line.when),
      el('span', { class: 'who' }, line.who),
      ' ',
      el('span', { class: 'what' }, line.what),
      line.error ? el('div', { class: 'error-text' }, line.error) : null,
    );
    this.feed.prepend(item);
    while (this.feed.children.length > MAX_ENTRIES) this.feed.lastElementChild?.remove();
    this.empty.hidden = true;
    if (!this.isVisible()) {
      this.unread++;
      this.unreadBadge.textContent = String(this.unread);
      this.unreadBadge.hidden = false;
    }
  }

  /** The feed became visible. */
  markRead(): void {
    this.unread = 0;
    this.unreadBadge.hidden = true;
  }

  clear(): void {
    this.feed.replaceChildren();
    this.empty.hidden = false;
    this.markRead();
  }
}
