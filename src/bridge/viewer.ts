import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveStatic } from '@hono/node-server/serve-static';
import type { MiddlewareHandler } from 'hono';

/** `web/dist/` of the package: from dist/src/bridge/viewer.js that is three folders up. */
export const DEFAULT_WEB_ROOT = fileURLToPath(new URL('../../../web/dist/', import.meta.url));

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function notBuiltPage(version: string, webRoot: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>mobilebridge</title>
</head>
<body>
<h1>mobilebridge ${escapeHtml(version)}</h1>
<p>The bridge is running, but the web viewer is not built: <code>${escapeHtml(webRoot)}</code> has no <code>index.html</code>.</p>
<p>Build it, then reload this page. Meanwhile the API works:</p>
<ul>
<li>WebSocket (JSON-RPC 2.0): <code>/ws</code> — see <code>docs/protocol.md</code></li>
<li><a href="/api/health"><code>GET /api/health</code></a></li>
<li><a href="/api/devices"><code>GET /api/devices</code></a></li>
<li><code>POST /api/validate</code> with a scenario as the body</li>
</ul>
</body></html>
`;
}

/**
 * Serves the built viewer from `webRoot` when it exists (checked per request, so a viewer built
 * while the bridge runs shows up on reload), else a page that says it is not built.
 */
export function viewer(webRoot: string, version: string): MiddlewareHandler {
  let statics: MiddlewareHandler | undefined;
  return async (c, next) => {
    if (existsSync(join(webRoot, 'index.html'))) {
      statics ??= serveStatic({ root: webRoot });
      return statics(c, next);
    }
    if (c.req.method === 'GET' && (c.req.path === '/' || c.req.path === '/index.html')) return c.html(notBuiltPage(version, webRoot));
    return next();
  };
}
