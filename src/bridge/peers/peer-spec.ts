import { checkSourceName } from '../../engine/sources/source-spec.js';

/** One `--peer [name=]ws://host:port[/ws][?token=T]`. */
export interface PeerSpec {
  name: string;
  url: string;
  token?: string;
}

/**
 * Parses a --peer value. The token may ride in the URL (`?token=`, what the peer accepts from
 * browsers too) or come from --peer-token / MOBILEBRIDGE_PEER_TOKEN for every peer without one.
 */
export function parsePeer(value: string, defaultToken?: string): PeerSpec {
  const v = value.trim();
  const eq = v.indexOf('=');
  const named = eq > 0 && !/[:/]/.test(v.slice(0, eq));
  const raw = named ? v.slice(eq + 1) : v;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`--peer ${JSON.stringify(value)}: not a URL; pass e.g. lab1=ws://10.0.0.5:4800 (another mobilebridge serve)`);
  }
  if (url.protocol !== 'ws:' && url.protocol !== 'wss:') throw new Error(`--peer ${value}: use ws:// or wss:// (the peer bridge's WebSocket), got ${url.protocol}//`);
  if (url.pathname === '/' || url.pathname === '') url.pathname = '/ws';
  const token = url.searchParams.get('token') ?? defaultToken;
  url.searchParams.delete('token');
  const name = named ? v.slice(0, eq) : `${url.hostname}-${url.port || (url.protocol === 'wss:' ? 443 : 80)}`.replace(/[^A-Za-z0-9._-]/g, '-');
  return { name: checkSourceName(name, '--peer'), url: url.toString(), ...(token ? { token } : {}) };
}
