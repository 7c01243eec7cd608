import { randomUUID } from 'node:crypto';
import type { CallContext } from '../../../src/engine/driver.js';
import type { VirtualDevice } from '../../../src/engine/drivers/virtual/index.js';
import { WdaFailure } from './wda-failure.js';

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
  /** FBSession isTestedApplicationExpectedToRun: the tested app ran when the session began, or WDA launched it since. */
  private testedAppExpected = false;

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
    // handleCreateSession launches the bundleId's app before FBSession initWithApplication reads app.running.
    if (this.testedApp && this.device.installedApps.some((a) => a.package === this.testedApp)) await this.device.launchApp(this.testedApp, this.ctx());
    this.testedAppExpected = this.testedApp !== undefined && this.running(this.testedApp);
    this.id = randomUUID().toUpperCase();
    return this.id;
  }

  /**
   * FBSession.activeApplication, which every in-session route that looks at the app calls first: the tested
   * app stopped behind WDA's back (simctl, `ios kill`, a crash) while WDA expects it to run fails them all
   * with FBApplicationCrashedException, which FBExceptionHandler answers as 400 "invalid element state".
   */
  checkTestedApp(): void {
    if (this.id && this.testedApp && this.testedAppExpected && !this.running(this.testedApp)) {
      throw new WdaFailure('invalid element state', 400, `The application under test with bundle id '${this.testedApp}' is not running, possibly crashed`);
    }
  }

  /** FBSession launchApplicationWithBundleId / terminateApplicationWithBundleId on the tested app. */
  testedAppLaunched(bundleId: string, launched: boolean): void {
    if (bundleId === this.testedApp) this.testedAppExpected = launched;
  }

  private running(bundleId: string): boolean {
    return bundleId in this.device.snapshot().tasks;
  }

  /** DELETE /session, or a newer session replacing this one. */
  async kill(): Promise<void> {
    const app = this.testedApp;
    this.id = null;
    this.testedApp = undefined;
    if (app && this.shouldTerminateApp) await this.device.terminateApp(app, this.ctx());
  }
}
