import { BridgeClient, type ConnectionState } from '../../src/protocol/client.js';
import { bridgeEndpoint, type PageAddress } from './endpoint.js';

export type ViewerConnectionState = ConnectionState | 'failed';

export interface Diagnosis {
  kind: 'token_missing' | 'token_wrong' | 'refused' | 'unreachable';
  message: string;
}

/**
 * Why a connection fails, in words a user can act on. A refused WebSocket upgrade looks the
 * same as a dead server from the page, so ask the health endpoint what is wrong.
 */
export async function diagnose(token: string | undefined): Promise<Diagnosis> {
  let response: Response;
  try {
    response = await fetch('/api/health', { headers: token ? { authorization: `Bearer ${token}` } : {}, cache: 'no-store' });
  } catch {
    return { kind: 'unreachable', message: 'the bridge is not reachable; is `mobilebridge serve` still running?' };
  }
  if (response.status === 401 || response.status === 403) {
    const body = (await response.json().catch(() => undefined)) as { error?: { reason?: string } } | undefined;
    const wrong = body?.error?.reason === 'token_wrong' || (body?.error?.reason === undefined && token !== undefined);
    return wrong
      ? { kind: 'token_wrong', message: 'the bridge refused the token this page sent; open the URL the bridge printed' }
      : { kind: 'token_missing', message: 'the bridge needs a token; open the URL it printed (it ends in ?token=…)' };
  }
  if (response.ok) return { kind: 'refused', message: `the bridge answers HTTP (${response.status}) but refused the WebSocket; check --allow-origin if this page comes from another address` };
  return { kind: 'unreachable', message: `the bridge answered HTTP ${response.status}` };
}

/**
 * Connects, retrying until the bridge answers: BridgeClient reconnects by itself once it has
 * a session, but its first connection fails for good, so the viewer starts a new client then.
 */
export async function connectWithRetry(
  page: PageAddress,
  onState: (state: ViewerConnectionState, detail?: string) => void,
  onDiagnosis: (d: Diagnosis) => void = () => undefined,
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
      const why = await diagnose(token);
      onDiagnosis(why);
      onState('failed', `${why.message} (retrying in ${Math.round(delay / 1000)} s)`);
      await new Promise((r) => setTimeout(r, delay));
    }
  }
}
