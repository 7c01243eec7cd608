import type { CallContext } from '../../driver.js';
import { WdaError, type WdaClient } from './wda-client.js';
import type { WdaCall } from './wda-launch-check.js';
import type { LackingRoutes } from './wda-lacking.js';
import { routeMissing } from './wda-refusals.js';

/**
 * The session's appium settings (FBSessionCommands.m handleGetSettings / handleSetSettings). A WebDriverAgent
 * without the route (an old build, or an emulation answering a few routes) is not asked again: listings then
 * assume WDA's default snapshot depth, and its MJPEG server, if it has one, streams at its own defaults
 * (10 fps, full size, quality 25; mjpeg-stream.ts turns portrait-stored pictures).
 */
export class WdaSettings {
  constructor(
    private readonly lacking: LackingRoutes,
    private readonly call: WdaCall,
    private readonly client: () => WdaClient,
  ) {}

  /** POST: WDA's settings after the change, or undefined without the route. */
  post(settings: Record<string, unknown>, ctx: CallContext): Promise<unknown> {
    return this.lacking.unlessLacking('POST /appium/settings', () => this.call('POST', '/appium/settings', { settings }, ctx));
  }

  /**
   * GET for a listing: started beside /source when a session is open (`beside`), and read after it otherwise,
   * since /source may have re-created the session. Undefined when WDA does not tell.
   */
  beside(signal?: AbortSignal): Promise<unknown> | undefined {
    return this.lacking.has('GET /appium/settings') ? undefined : this.client().openSessionCall('GET', '/appium/settings', undefined, signal);
  }

  async read(beside: Promise<unknown> | undefined, signal?: AbortSignal): Promise<unknown> {
    if (this.lacking.has('GET /appium/settings')) return undefined;
    return (await beside) ?? (await this.client().sessionCall('GET', '/appium/settings', undefined, signal).catch((err: unknown) => {
      if (err instanceof WdaError && routeMissing(err)) this.lacking.add('GET /appium/settings');
      return undefined;
    }));
  }
}
