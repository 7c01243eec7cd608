import type { Driver } from '../../src/engine/driver.js';
import { SourceSet } from '../../src/engine/sources/index.js';
import type { DeviceInfo } from '../../src/engine/types.js';

export const FLAKY_REASON = 'the adb server at 127.0.0.1:1 is not reachable (nothing listens there)';

/** A device source that fails to list until `up` is set, then lists `devices` (none by default). */
export class FlakySource implements Driver {
  readonly name = 'flaky';
  up = false;
  devices: DeviceInfo[] = [];
  async listDevices(): Promise<DeviceInfo[]> {
    if (!this.up) throw new Error(FLAKY_REASON);
    return this.devices;
  }
  async open(): Promise<undefined> {
    return undefined;
  }
  async close(): Promise<void> {}
}

/** The source as source "lab" of a SourceSet that retries it quickly. */
export function flakySet(): { flaky: FlakySource; set: SourceSet } {
  const flaky = new FlakySource();
  const set = new SourceSet([{ name: 'lab', where: 'adb server 127.0.0.1:1', driver: flaky }], { firstRetryMs: 20, maxRetryMs: 40 });
  return { flaky, set };
}
