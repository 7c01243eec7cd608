import type { LockPurpose, Participant } from '../../src/protocol/notifications.js';

export interface LockView {
  holder: Participant | null;
  since?: string;
  /** A scenario run or a lease: a takeover cancels the run, or takes the device from under the job. */
  purpose?: LockPurpose;
  /** This page's session holds it. */
  mine: boolean;
}

/** How a participant is named to people: its client name and the start of its session id. */
export function who(p: Participant): string {
  return p.client ? `${p.client} ${p.session.slice(0, 6)}` : `session ${p.session.slice(0, 6)}`;
}

/** “the scenario “Slow run”” — by name, else id, else just a scenario. */
function scenarioOf(purpose: LockPurpose & { kind: 'run' }): string {
  const named = purpose.name ?? purpose.scenario_id;
  return named ? `the scenario “${named}”` : 'a scenario';
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
    const at = since ? ` since ${since}` : '';
    const purpose = view.purpose;
    this.root.dataset.purpose = purpose?.kind ?? '';
    if (!view.holder) this.text.textContent = 'Unlocked: anyone watching may act';
    else if (view.mine) this.text.textContent = `${purpose?.kind === 'run' ? `Your run of ${scenarioOf(purpose)}` : 'You'} hold${purpose?.kind === 'run' ? 's' : ''} this device${at}; others’ input is refused`;
    else if (purpose?.kind === 'run') this.text.textContent = `Running ${scenarioOf(purpose)} for ${who(view.holder)}${at}`;
    else if (purpose?.kind === 'lease') this.text.textContent = `Leased by ${who(view.holder)} (a job holds it)${at}`;
    else this.text.textContent = `Locked by ${who(view.holder)}${at}`;
    this.root.title = view.since ? `since ${view.since}` : '';
    this.take.hidden = state === 'mine';
    this.take.title =
      state !== 'held'
        ? 'Lock the device so that only you can act on it'
        : purpose?.kind === 'run'
          ? 'Take the lock over: this cancels their scenario run (you are asked first; they are told)'
          : purpose?.kind === 'lease'
            ? 'Take the lock over from their lease (you are asked first; they are told)'
            : 'Take the lock over (devices.lock takeover); the holder is told';
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

  /**
   * The question to ask before Take control when it would cancel someone's scenario run or take a device
   * from under a leasing job; undefined when a takeover costs nobody more than the lock.
   */
  takeoverWarning(): string | undefined {
    const view = this.view;
    if (!view?.holder || view.mine || !view.purpose) return undefined;
    if (view.purpose.kind === 'run') return `${who(view.holder)} is running ${scenarioOf(view.purpose)} on this device. Taking control cancels that run. Take control anyway?`;
    return `${who(view.holder)} holds this device on a lease (devices.lease: a CI job or script using it). Taking control takes the device from under that job. Take control anyway?`;
  }

  /** For input the bridge refused while someone else holds the device: who, and the button that gets it. */
  advice(): string | undefined {
    const holder = this.view?.holder;
    if (!holder || this.view?.mine || !this.known) return undefined;
    const since = clock(this.view?.since);
    const purpose = this.view?.purpose;
    if (purpose?.kind === 'run') return `Refused: ${who(holder)} is running ${scenarioOf(purpose)} on this device${since ? ` since ${since}` : ''}. Wait for the run to end, or press Take control, which cancels the run.`;
    return `Refused: ${who(holder)} holds this device${since ? ` since ${since}` : ''}. Press Take control to act on it (they are told).`;
  }
}
