/**
 * What a browser sees when the bridge refuses it (issue 17): an HTML page that says whether the
 * token is missing or wrong and what to do, instead of the JSON an API client gets. Plain
 * markup with no assets: the refused browser may not load the viewer's styles either.
 */
export type AccessProblem = 'token_missing' | 'token_wrong' | 'token_throttled' | 'host';

const TITLE: Record<AccessProblem, string> = {
  token_missing: 'This bridge needs a token',
  token_wrong: 'The token in this address is wrong',
  token_throttled: 'Too many wrong tokens from this computer',
  host: 'This bridge does not answer this address',
};

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function advice(problem: AccessProblem): string {
  if (problem === 'token_missing') {
    return `<p>The bridge was started with <code>--token</code> (or <code>MOBILEBRIDGE_TOKEN</code>), and this address carries none.</p>
<p>Open the viewer URL that <code>mobilebridge serve</code> printed when it started: it ends in <code>?token=…</code>. Or add <code>?token=&lt;the token&gt;</code> to this address yourself.</p>`;
  }
  if (problem === 'token_wrong') {
    return `<p>The bridge refused the token this page sent (in the address, or remembered from an earlier visit). The bridge may have been restarted with another token.</p>
<p>Open the viewer URL that <code>mobilebridge serve</code> printed when it last started (it ends in <code>?token=…</code>), or ask whoever runs the bridge for the current token.</p>`;
  }
  if (problem === 'token_throttled') {
    return `<p>The bridge was sent too many wrong tokens from this address within a minute, so it refuses every request from it, right or wrong, until that minute is over.</p>
<p>Wait a minute, then open the viewer URL that <code>mobilebridge serve</code> printed when it last started (it ends in <code>?token=…</code>).</p>`;
  }
  return `<p>Without a token the bridge answers only loopback names (localhost, 127.0.0.1), against DNS rebinding.</p>
<p>Open it as <code>http://127.0.0.1:PORT/</code>, or start it with <code>--token</code> to reach it under other names.</p>`;
}

export function accessPage(problem: AccessProblem, detail: string): string {
  const title = TITLE[problem];
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light dark">
<title>${escapeHtml(title)} — mobilebridge</title></head>
<body data-problem="${problem}">
<main>
<h1>${escapeHtml(title)}</h1>
${advice(problem)}
<p><small>The bridge said: ${escapeHtml(detail)}</small></p>
</main>
</body></html>
`;
}

/** A page load (not an API or WebSocket request) from something that reads HTML. */
export function wantsPage(method: string, path: string, accept: string | undefined): boolean {
  return (method === 'GET' || method === 'HEAD') && !path.startsWith('/api/') && path !== '/ws' && (accept ?? '').includes('text/html');
}
