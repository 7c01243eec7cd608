import type { CallContext, DeviceHandle, Driver } from '../driver.js';
import { ToolError } from '../errors.js';
import type { DeviceInfo, InstalledApp } from '../types.js';
import type { AppControl } from '../drivers/ios/app-control.js';
import { IosDevice } from '../drivers/ios/ios-device.js';
import { launchRefused } from '../drivers/ios/wda-apps.js';
import { WdaClient, WdaError } from '../drivers/ios/wda-client.js';
import { WdaEndpoint } from '../drivers/ios/wda-endpoint.js';
import { LackingRoutes } from '../drivers/ios/wda-lacking.js';
import { routeMissing } from '../drivers/ios/wda-refusals.js';
import { remoteWdaInfo, type WdaStatus } from './remote-wda-info.js';

const STATE_ROUTE = 'POST /wda/apps/state';

/** How long a launched app may take to be reported in the foreground. */
const LAUNCH_SETTLE_MS = 2000;

/**
 * App lifecycle through WebDriverAgent alone: a phone reached only over the network has no go-ios
 * or simctl next to it, so what WDA cannot do (list, install, uninstall) is refused with the way out.
 */
class WdaAppControl implements AppControl {
  /** A WebDriverAgent lacking POST /wda/apps/state has a launch checked by the device, through /source. */
  private readonly lacking = new LackingRoutes(() => this.client);

  constructor(
    private readonly client: WdaClient,
    private readonly name: string,
  ) {}

  private refuse(what: string): never {
    throw new ToolError('UNSUPPORTED', `${what} is not possible on ${this.name}: it is reached only through WebDriverAgent over the network (--wda), which cannot ${what}; run mobilebridge on the iPhone's USB host and add that bridge with --peer instead`);
  }

  async listApps(): Promise<InstalledApp[]> {
    this.refuse('listing apps');
  }

  async install(): Promise<void> {
    this.refuse('installing apps');
  }

  async uninstall(): Promise<void> {
    this.refuse('uninstalling apps');
  }

  /** A bundle id the phone lacks is APP_NOT_INSTALLED (wda-apps.ts); any other failure is INTERNAL, so the device can still ask WDA whether the phone is locked. */
  async launch(bundleId: string, signal?: AbortSignal): Promise<void> {
    try {
      await this.client.sessionCall('POST', '/wda/apps/launch', { bundleId }, signal);
    } catch (err) {
      if (!(err instanceof WdaError)) throw err;
      const missing = launchRefused(err, bundleId, this.name);
      if (missing) throw missing;
      throw new ToolError('INTERNAL', `could not launch ${bundleId} on ${this.name}: WebDriverAgent said ${err.error}${err.detail ? `: ${err.detail}` : ''}`);
    }
    await this.confirmRunning(bundleId, signal);
  }

  /**
   * WDA answers a launch with success whatever became of it (FBSession launchApplicationWithBundleId checks
   * nothing, and XCTest's launch failures are only logged: FBFailureProofTestCase), so the app's state is
   * asked (XCUIApplicationState: 4 = running in the foreground). A WDA without the route (unknown command) leaves
   * the check to the device, which reads the app in front (unconfirmedLauncher); another refusal lets the launch stand.
   */
  private async confirmRunning(bundleId: string, signal?: AbortSignal): Promise<void> {
    let state: unknown;
    for (const until = Date.now() + LAUNCH_SETTLE_MS; !this.lacking.has(STATE_ROUTE); ) {
      try {
        state = await this.client.sessionCall('POST', '/wda/apps/state', { bundleId }, signal);
      } catch (err) {
        if (err instanceof WdaError && routeMissing(err)) this.lacking.add(STATE_ROUTE);
        if (err instanceof WdaError) return;
        throw err;
      }
      if (state === 4 || typeof state !== 'number' || Date.now() >= until) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    if (typeof state !== 'number' || state === 4) return;
    const where = state <= 1 ? 'is not running' : 'is running in the background';
    throw new ToolError('INTERNAL', `WebDriverAgent said it launched ${bundleId} on ${this.name}, but the app ${where} (XCUIApplicationState ${state}): it may have crashed at start or been sent away; look at the phone, then launch again`);
  }

  /** Set once apps/state is known missing: the device then asks what is in front (wda-launch-check.ts). */
  get unconfirmedLauncher(): string | undefined {
    return this.lacking.has(STATE_ROUTE) ? "WebDriverAgent's POST /wda/apps/launch" : undefined;
  }

  /** WDA answers true when it terminated the app, false when it was not running (FBSession terminateApplicationWithBundleId). */
  async terminate(bundleId: string, signal?: AbortSignal): Promise<boolean | undefined> {
    const value = await this.client.sessionCall('POST', '/wda/apps/terminate', { bundleId }, signal);
    return typeof value === 'boolean' ? value : undefined;
  }
}

/**
 * One iPhone whose WebDriverAgent answers at a URL (`--wda name=url`). WDA does not report the UDID,
 * so the device id is the name the user gave it.
 */
export class RemoteWdaDriver implements Driver {
  readonly name: string;
  private readonly client: WdaClient;
  private device: IosDevice | undefined;

  constructor(
    private readonly id: string,
    readonly url: string,
  ) {
    this.name = `wda:${id}`;
    this.client = new WdaClient(url, {
      deviceLabel: `iPhone ${id} (${url})`,
      startHint: `start WebDriverAgentRunner on that iPhone (e.g. \`ios runwda\` on its USB host) and check that ${url} is reachable from here`,
    });
  }

  /** Throws when WebDriverAgent does not answer: the source set lists the phone offline with the reason. */
  async listDevices(ctx: CallContext): Promise<DeviceInfo[]> {
    const status = (await this.client.status(ctx.signal)) as WdaStatus | null;
    return [this.info(status)];
  }

  async open(id: string, ctx: CallContext): Promise<DeviceHandle | undefined> {
    if (id !== this.id) return undefined;
    if (!this.device) {
      const status = (await this.client.status(ctx.signal)) as WdaStatus | null;
      this.device = new IosDevice(this.info(status), new WdaAppControl(this.client, this.id), new WdaEndpoint(this.client));
    }
    return this.device;
  }

  async close(): Promise<void> {
    this.client.close();
  }

  private info(status: WdaStatus | null): DeviceInfo {
    return remoteWdaInfo(this.id, status);
  }
}
