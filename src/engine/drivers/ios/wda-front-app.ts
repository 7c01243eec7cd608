import type { CallContext } from '../../driver.js';
import type { InstalledApp } from '../../types.js';
import type { FrontApp, LaunchProbe, WdaCall } from './wda-launch-check.js';
import type { LackingRoutes } from './wda-lacking.js';
import { WdaRouteMissing } from './wda-refusals.js';
import type { WdaNode } from './wda-source.js';

const ACTIVE_APP_INFO = 'GET /wda/activeAppInfo';

const text = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);

/**
 * Which app is in front, and whether one runs: GET /wda/activeAppInfo and POST /wda/apps/state. A WebDriverAgent
 * without them (an old build, or an emulation answering a few routes) is read through /source instead, from the
 * first "unknown command" on: its application element is the app in front (fb_activeApplication), carrying
 * its bundleId in XML trees of builds since September 2025 (FBXPath.m, #1055) and its display name as label in
 * every tree; a name is matched against the installed apps. apps/state has no such stand-in.
 */
export class WdaFrontApp implements LaunchProbe {
  constructor(
    private readonly lacking: LackingRoutes,
    private readonly call: WdaCall,
    private readonly source: (ctx: CallContext) => Promise<WdaNode & { bundleId?: unknown }>,
    private readonly installed: (signal?: AbortSignal) => Promise<InstalledApp[]>,
  ) {}

  /** The app in front; `expected` wins among installed apps sharing the name /source shows. */
  async front(expected: string | undefined, ctx: CallContext): Promise<FrontApp> {
    const remembered = this.lacking.has(ACTIVE_APP_INFO);
    if (!remembered) {
      const asked = await this.activeAppInfo(ctx);
      if (asked) return asked;
    }
    const shown = await this.shownInSource(expected, ctx);
    // Without a bundle id the caller will say the route is missing: a WDA updated since it was found so answers it now.
    if (remembered && !shown.bundleId) return (await this.activeAppInfo(ctx)) ?? shown;
    return shown;
  }

  /** GET /wda/activeAppInfo, or undefined on a WDA without it. */
  private async activeAppInfo(ctx: CallContext): Promise<FrontApp | undefined> {
    try {
      const info = (await this.call('GET', '/wda/activeAppInfo', undefined, ctx, false)) as { bundleId?: unknown; name?: unknown } | null;
      return { bundleId: text(info?.bundleId), name: text(info?.name) };
    } catch (err) {
      if (!(err instanceof WdaRouteMissing)) throw err;
      this.lacking.add(err.route);
      return undefined;
    }
  }

  private async shownInSource(expected: string | undefined, ctx: CallContext): Promise<FrontApp> {
    const root = await this.source(ctx);
    const name = text(root.label) ?? text(root.name);
    const bundleId = text(root.bundleId);
    if (bundleId || !name) return { bundleId, name, fromSource: true };
    // A phone reached only through WDA (--wda) cannot list its apps: then the name is all there is.
    const apps = await this.installed(ctx.signal).catch((err: unknown) => {
      if (ctx.signal.aborted) throw err;
      return undefined;
    });
    if (!apps) return { name, fromSource: true };
    const named = apps.filter((app) => app.name === name);
    const match = named.find((app) => app.package === expected) ?? (named.length === 1 ? named[0] : undefined);
    return { bundleId: match?.package, name, nameChecked: true, fromSource: true };
  }

  /** XCUIApplicationState of `pkg` (4: running in front), or undefined on a WDA without the route. */
  state(pkg: string, ctx: CallContext): Promise<unknown> {
    return this.lacking.unlessLacking('POST /wda/apps/state', () => this.call('POST', '/wda/apps/state', { bundleId: pkg }, ctx));
  }
}
