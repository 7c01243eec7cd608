import { BridgeClient, type ConnectionState } from '../../src/protocol/client.js';
import { bridgeEndpoint, type PageAddress } from './endpoint.js';

export type ViewerConnectionState = ConnectionState | 'failed';

/**
 * Why the first connection failed, in words a user can act on. A refused WebSocket upgrade
 * looks the same as a dead server from the page, so ask the health endpoint what is wrong.
 */
async function diagnose(token: string | undefined): Promise<string> {
  try {
    const response = await fetch('/api/health', { headers: token ? { authorization: `Bearer ${token}` } : {} });
    if (response.status === 401 || response.status === 403) {
      return token
        ? 'the bridge refused the token in this page’s address; open the URL the bridge printed'
        : 'the bridge needs a token; open the URL it printed (it ends in ?token=…)';
    }
    return `the bridge answers HTTP (${response.status}) but refused the WebSocket; check --allow-origin if this page comes from another address`;
  } catch {
    return 'the bridge is not reachable; is `mobilebridge serve` still running?';
  }
}

/**
 * Connects, retrying until the bridge answers: BridgeClient reconnects by itself once it has
 * a session, but its first connection fails for good, so the viewer starts a new client then.
 */
export async function connectWithRetry(
  page: PageAddress,
  onState: (state: ViewerConnectionState, detail?: string) => void,
): Promise<BridgeClient> {
  const { url, token } = bridgeEndpoint(page);
  for (let attempt = 0; ; attempt++) {
    const client = new BridgeClient({ url, createSocket: (u) => new WebSocket(u), client: 'viewer' });
    const off = client.onState((s) => onState(s));
    try {
      await client.start();
      return client;
    } catch {
      off();
      const delay = Math.min(5000, 500 * 2 ** attempt);
      onState('failed', `${await diagnose(token)} (retrying in ${Math.round(delay / 1000)} s)`);
      await new Promise((r) => setTimeout(r, delay));
    }
  }
}
