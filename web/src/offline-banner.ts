import type { ViewerConnectionState } from './connection.js';

const TEXT: Partial<Record<ViewerConnectionState, string>> = {
  connecting: 'Connecting to the bridge…',
  reconnecting: 'Bridge unreachable — reconnecting…',
  failed: 'Bridge unreachable — retrying…',
  closed: 'Disconnected from the bridge',
};

/**
 * Honest states: while the bridge is unreachable the screen is greyed out under a banner, so a
 * stale picture is never taken for the live device; input is refused meanwhile (Viewer.call).
 */
export class OfflineBanner {
  constructor(
    private readonly wrap: HTMLElement,
    private readonly banner: HTMLElement,
    private readonly detail: HTMLElement,
  ) {}

  show(state: ViewerConnectionState, why?: string): void {
    const offline = state !== 'open';
    this.wrap.classList.toggle('offline', offline);
    this.banner.hidden = !offline;
    this.banner.dataset.state = state;
    if (!offline) return;
    this.banner.firstElementChild!.textContent = TEXT[state] ?? 'Not connected';
    if (why !== undefined) this.detail.textContent = why;
    else if (state === 'reconnecting') this.detail.textContent = 'What you do on the screen is not sent until the connection is back.';
  }
}
