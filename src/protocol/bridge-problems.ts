/**
 * Words for why `--bridge URL` did not attach, saying what to do: a wrong or missing token and a
 * bridge that is not running both surface from `ws` as terse errors ("Unexpected server
 * response: 401", "connect ECONNREFUSED"), which tell a user neither.
 */

/** A problem with the URL itself (before any connection is tried), else undefined. */
export function bridgeUrlProblem(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `--bridge ${JSON.stringify(url)} is not a URL; give the bridge's WebSocket URL, e.g. --bridge ws://127.0.0.1:4800/ws`;
  }
  if (parsed.protocol === 'http:' || parsed.protocol === 'https:') {
    const ws = new URL(parsed.href);
    ws.protocol = parsed.protocol === 'https:' ? 'wss:' : 'ws:';
    ws.pathname = '/ws';
    ws.search = '';
    ws.hash = '';
    return `--bridge ${url} is the web address of the viewer; the CLI needs the bridge's WebSocket URL, which 'mobilebridge serve' prints as "websocket": --bridge ${ws.href} (pass the token with --token, not in the URL)`;
  }
  if (parsed.protocol !== 'ws:' && parsed.protocol !== 'wss:') {
    return `--bridge ${url} must start with ws:// (or wss://), e.g. --bridge ws://127.0.0.1:4800/ws`;
  }
  return undefined;
}

/** Explains a failed connection to `url`; `tokenGiven` tells a refused token from a missing one. */
export function bridgeFailureMessage(url: string, err: unknown, tokenGiven: boolean): string {
  const e = err as { code?: string; message?: string };
  const message = e?.message ?? String(err);
  const status = /Unexpected server response: (\d+)/.exec(message)?.[1];
  if (status === '401' || status === '403') {
    return tokenGiven
      ? `the bridge at ${url} refused the token (HTTP ${status}): wrong token; pass the one the bridge was started with (--token T or MOBILEBRIDGE_TOKEN)`
      : `the bridge at ${url} needs a token (HTTP ${status}); pass the one it was started with: --token T or MOBILEBRIDGE_TOKEN=T`;
  }
  if (status === '429') {
    return `the bridge at ${url} refuses this computer for up to a minute (HTTP 429): too many wrong tokens came from it; wait, then pass the one the bridge was started with (--token T or MOBILEBRIDGE_TOKEN)`;
  }
  if (status === '404') {
    return `${url} answered, but not as a bridge WebSocket (HTTP 404); the bridge listens on the path /ws, e.g. ${url.replace(/\/*$/, '').replace(/\/ws$/, '')}/ws`;
  }
  if (e?.code === 'ECONNREFUSED' || /ECONNREFUSED/.test(message)) {
    return `no bridge is running at ${url} (connection refused); start one with 'mobilebridge serve' (it prints its websocket URL), or fix the host and port`;
  }
  if (e?.code === 'ENOTFOUND' || /ENOTFOUND|EAI_AGAIN/.test(message)) {
    return `cannot find the host of ${url} (${message}); check the bridge's address`;
  }
  return `cannot reach the bridge at ${url} (${message}); check that 'mobilebridge serve' runs there and that --token matches`;
}
