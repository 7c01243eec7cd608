import type { WdaClient } from './wda-client.js';
import { WdaRouteMissing } from './wda-refusals.js';

/**
 * Routes one WebDriverAgent answered "unknown command" for, so that their stand-ins are used straight away. Forgotten
 * once the WDA may have changed: a new client (a replugged iPhone's relay) or a session opened again (WDA restarted, as
 * after the update the "lacks …" answers advise, or another client took the session), after which each is asked once more.
 */
export class LackingRoutes {
  private readonly routes = new Set<string>();
  private seen: { client: WdaClient; sessions: number } | undefined;

  constructor(private readonly client: () => WdaClient) {}

  /** "GET /wda/locked": as wda-refusals.ts routeName writes it. */
  has(route: string): boolean {
    this.sync();
    return this.routes.has(route);
  }

  add(route: string): void {
    this.sync();
    this.routes.add(route);
  }

  /** What `ask` answers, or undefined where the WDA lacks `route`: found so once, it is not asked again. */
  async unlessLacking<T>(route: string, ask: () => Promise<T>): Promise<T | undefined> {
    if (this.has(route)) return undefined;
    try {
      return await ask();
    } catch (err) {
      if (!(err instanceof WdaRouteMissing)) throw err;
      this.add(err.route);
      return undefined;
    }
  }

  private sync(): void {
    const client = this.client();
    const sessions = client.sessionsOpened;
    // The first session opened is no change of WDA: routes found missing before it stay so.
    if (this.seen?.client === client && (this.seen.sessions === sessions || this.seen.sessions === 0)) {
      this.seen.sessions = sessions;
      return;
    }
    this.routes.clear();
    this.seen = { client, sessions };
  }
}
