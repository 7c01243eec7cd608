import type { BridgeClient } from '../../src/protocol/client.js';

const KEY = 'mobilebridge.viewer.sessions';
/** A tab that reloads all day does not need more: only recent sessions can still have a recording open. */
const KEPT = 20;

/**
 * The bridge sessions this tab has had: its session now and every earlier one (a bridge restart or an
 * expired resume gives the page a new session; a reload does too). A recording one of them left open is
 * the user's own, not "another viewer's". Kept in sessionStorage, which is per tab and survives a reload;
 * where storage is refused only this page load's sessions are known.
 */
export class OwnSessions {
  private readonly ids: string[];

  constructor(client: BridgeClient) {
    this.ids = read();
    if (client.session) this.add(client.session);
    client.onSession((e) => this.add(e.session));
  }

  has(session: string | undefined): boolean {
    return session !== undefined && this.ids.includes(session);
  }

  private add(session: string): void {
    if (this.ids.includes(session)) return;
    this.ids.push(session);
    this.ids.splice(0, Math.max(0, this.ids.length - KEPT));
    try {
      sessionStorage.setItem(KEY, JSON.stringify(this.ids));
    } catch {
      // Storage off or full: known for this page load only.
    }
  }
}

function read(): string[] {
  try {
    const ids = JSON.parse(sessionStorage.getItem(KEY) ?? '[]') as unknown;
    return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}
