import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startBridge, type Bridge, type BridgeOptions } from '../../../src/bridge/index.js';
import { createEngine, type EngineSetup } from '../../../src/engine/create.js';
import { buildWeb } from '../../../scripts/build-web.js';
import type { Browser } from 'playwright-core';
import type { Test } from 'uvu';
import { launchChromium } from './browser.js';

/** web/dist of this checkout: from dist/test/web/support/ four folders up. */
export const WEB_DIST = fileURLToPath(new URL('../../../../web/dist/', import.meta.url));

/**
 * A bridge on a free loopback port with fresh virtual devices, serving the built viewer.
 * `npm test` builds the viewer first; a bare uvu run after tsc builds it here.
 */
export async function startViewerBridge(
  options: { token?: string; port?: number; setup?: EngineSetup } & Pick<BridgeOptions, 'recordingsDir' | 'resumeGraceMs'> = {},
): Promise<{ bridge: Bridge; url: string }> {
  if (!existsSync(join(WEB_DIST, 'index.html'))) await buildWeb({ check: false });
  const bridge = await startBridge({
    engine: createEngine({ virtual: {}, ...options.setup }),
    port: options.port ?? 0,
    webRoot: WEB_DIST,
    token: options.token,
    recordingsDir: options.recordingsDir,
    resumeGraceMs: options.resumeGraceMs,
  });
  const query = options.token ? `?token=${encodeURIComponent(options.token)}` : '';
  return { bridge, url: `http://127.0.0.1:${bridge.port}/${query}` };
}

export interface ViewerSuiteContext {
  bridge?: Bridge;
  url: string;
  browser?: Browser;
}

/**
 * The set-up most viewer suites share: before the suite a viewer bridge and Chromium, after it both
 * stopped (the bridge also when closing the browser failed). Hooks a suite registers after this call
 * run after these. Does nothing without chromium (the suite then skips itself).
 */
export function withViewerAndChromium<C extends ViewerSuiteContext>(s: Test<C>, chromiumPath: string | undefined): void {
  s.before(async (ctx) => {
    if (!chromiumPath) return;
    const started = await startViewerBridge();
    ctx.bridge = started.bridge;
    ctx.url = started.url;
    ctx.browser = await launchChromium(chromiumPath);
  });
  s.after(async (ctx) => {
    try {
      await ctx.browser?.close();
    } finally {
      await ctx.bridge?.close();
    }
  });
}
