import type { DeviceHandle, Driver } from './driver.js';
import { deviceNotFoundMessage, ToolError } from './errors.js';
import type { ScreenSize } from './ui-tree.js';

/** How long a read screen size is trusted: taps check against it, and a rotation must show soon. */
const SCREEN_SIZE_TTL_MS = 2000;

/**
 * The open handle of each device id, found by asking the drivers in turn, and its recently read
 * screen size. Forgotten when the device goes away, so the next call opens it afresh.
 */
export class DeviceHandles {
  private readonly handles = new Map<string, DeviceHandle>();
  private readonly sizes = new Map<string, { size: ScreenSize; at: number }>();

  constructor(
    private readonly drivers: readonly Driver[],
    /** The ids listed now and the device sources that did not answer that listing, for the "not found" message. */
    private readonly listed: () => Promise<{ ids: string[]; problems: string[] }>,
  ) {}

  async open(id: string, signal: AbortSignal): Promise<DeviceHandle> {
    const cached = this.handles.get(id);
    if (cached) return cached;
    // A driver that knows the device but cannot reach it says why (its source is down); that
    // reason beats the generic "not found" when no other driver has the device.
    let unreachable: ToolError | undefined;
    for (const driver of this.drivers) {
      const handle = await driver.open(id, { signal }).catch((err: unknown) => {
        if (err instanceof ToolError && err.code !== 'DEVICE_NOT_FOUND') throw err;
        if (err instanceof ToolError) unreachable ??= err;
        return undefined;
      });
      if (handle) {
        this.handles.set(id, handle);
        return handle;
      }
    }
    if (unreachable) throw unreachable;
    // A source that did not answer may be where the device is (a peer bridge down, no adb server): say so.
    const { ids, problems } = await this.listed();
    throw new ToolError('DEVICE_NOT_FOUND', `${deviceNotFoundMessage(id, ids, problems)} (call mobile_list_available_devices)`);
  }

  async screenSize(id: string, device: DeviceHandle, signal: AbortSignal): Promise<ScreenSize> {
    const hit = this.sizes.get(id);
    if (hit && performance.now() - hit.at < SCREEN_SIZE_TTL_MS) return hit.size;
    const size = await device.screenSize({ signal });
    this.sizes.set(id, { size, at: performance.now() });
    return size;
  }

  forgetScreenSize(id: string): void {
    this.sizes.delete(id);
  }

  forget(id: string): void {
    this.handles.delete(id);
    this.sizes.delete(id);
  }
}
