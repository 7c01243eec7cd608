import type { Participant } from '../../src/protocol/notifications.js';

export interface LockView {
  holder: Participant | null;
  since?: string;
  /** This page's session holds it. */
  mine: boolean;
}

/** How a participant is named to people: its client name and the start of its session id. */
export function who(p: Participant): string {
  return p.client ? `${p.client} ${p.session.slice(0, 6)}` : `session ${p.session.slice(0, 6)}`;
}

function clock(iso: string | undefined): string {
  const at = iso ? new Date(iso) : undefined;
  return at && !Number.isNaN(at.getTime()) ? at.toTimeString().slice(0, 8) : '';
}

/** Who holds the watched device and since when, with Take control and Release (`devices.lock`). */
export class LockBadge {
  private view: LockView | undefined;
  /** False while the bridge is unreachable: the lock may have changed hands unheard. */
  private known = true;

  constructor(
    private readonly root: HTMLElement,
    private readonly text: HTMLElement,
    private readonly take: HTMLButtonElement,
    private readonly release: HTMLButtonElement,
  ) {}

  show(view: LockView | undefined): void {
    this.view = view;
    this.known = true;
    this.root.hidden = view === undefined;
    if (!view) return;
    const state = !view.holder ? 'free' : view.mine ? 'mine' : 'held';
    this.root.dataset.state = state;
    const since = clock(view.since);
    if (!view.holder) this.text.textContent = 'Unlocked: anyone watching may act';
    else if (view.mine) this.text.textContent = `You hold this device${since ? ` since ${since}` : ''}; others’ input is refused`;
    else this.text.textContent = `Locked by ${who(view.holder)}${since ? ` since ${since}` : ''}`;
    this.root.title = view.since ? `since ${view.since}` : '';
    this.take.hidden = state === 'mine';
    this.take.title = state === 'held' ? 'Take the lock over (devices.lock takeover); the holder is told' : 'Lock the device so that only you can act on it';
    this.release.hidden = state !== 'mine';
  }

  /**
   * The bridge is unreachable: what the badge said may no longer be true (a holder's socket going
   * frees its lock, someone may have taken it), so it says it does not know until the page asks again.
   */
  unknown(): void {
    if (!this.view) return;
    this.known = false;
    this.root.dataset.state = 'unknown';
    this.text.textContent = 'Lock state unknown: the bridge is unreachable';
    this.root.title = 'Who holds this device is asked again once the connection is back';
    this.take.hidden = true;
    this.release.hidden = true;
  }

  /** For input the bridge refused while someone else holds the device: who, and the button that gets it. */
  advice(): string | undefined {
    const holder = this.view?.holder;
    if (!holder || this.view?.mine || !this.known) return undefined;
    const since = clock(this.view?.since);
    return `Refused: ${who(holder)} holds this device${since ? ` since ${since}` : ''}. Press Take control to act on it (they are told).`;
  }
}
