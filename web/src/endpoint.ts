export interface PageAddress {
  protocol: string;
  host: string;
  search: string;
}

/** The bridge's WebSocket endpoint for the page it served, carrying `?token=` on (SPEC §7: browsers cannot set headers). */
export function bridgeEndpoint(page: PageAddress): { url: string; token: string | undefined } {
  const token = new URLSearchParams(page.search).get('token') || undefined;
  const scheme = page.protocol === 'https:' ? 'wss:' : 'ws:';
  const query = token ? `?token=${encodeURIComponent(token)}` : '';
  return { url: `${scheme}//${page.host}/ws${query}`, token };
}
