import { randomUUID } from 'node:crypto';
import type { CallContext } from '../../../src/engine/driver.js';
import type { VirtualDevice } from '../../../src/engine/drivers/virtual/index.js';

/**
 * WebDriverAgent's one session, as FBSession.m and FBSessionCommands.m keep it: POST /session first
 * kills the open session (handleCreateSession), and `kill` terminates that session's tested
 * application (its `bundleId`) when it runs and FBConfiguration.shouldTerminateApp, as the killed
 * session's client left it, says so. Only then are the new capabilities applied
 * (applyConfigurationFromCapabilities), after resetSessionSettings put shouldTerminateApp back to YES.
 * A session opened without a bundleId tests no application, so ending it terminates nothing.
 */
export class WdaSessions {
  id: string | null = null;
  shouldTerminateApp = true;
  private testedApp: string | undefined;

  constructor(
    private readonly device: VirtualDevice,
    private readonly ctx: () => CallContext,
  ) {}

  /** FBParseCapabilities: alwaysMatch merged with the first firstMatch entry. */
  async create(capabilities: Record<string, unknown>): Promise<string> {
    const first = Array.isArray(capabilities.firstMatch) ? (capabilities.firstMatch[0] as Record<string, unknown> | undefined) : undefined;
    const caps = { ...(capabilities.alwaysMatch as Record<string, unknown> | undefined), ...first };
    await this.kill();
    this.shouldTerminateApp = caps.shouldTerminateApp === undefined ? true : Boolean(caps.shouldTerminateApp);
    this.testedApp = typeof caps.bundleId === 'string' ? caps.bundleId : undefined;
    this.id = randomUUID().toUpperCase();
    return this.id;
  }

  /** DELETE /session, or a newer session replacing this one. */
  async kill(): Promise<void> {
    const app = this.testedApp;
    this.id = null;
    this.testedApp = undefined;
    if (app && this.shouldTerminateApp) await this.device.terminateApp(app, this.ctx());
  }
}
