import type { CallContext, DeviceHandle, Driver, DevicesChange, SourceNote } from '../driver.js';
import type { DeviceInfo } from '../types.js';

/**
 * A driver whose module is imported when it is first used. The Android and iOS drivers are ~150
 * modules; a command that only drives virtual phones (or answers `--help`, or an MCP client's
 * handshake) should not compile them at start. Its hot-plug feed starts once the module is in.
 */
export class LazyDriver implements Driver {
  private loading: Promise<Driver> | undefined;
  private loaded: Driver | undefined;

  constructor(
    readonly name: string,
    private readonly load: () => Promise<Driver>,
  ) {}

  private driver(): Promise<Driver> {
    return (this.loading ??= this.load().then((driver) => (this.loaded = driver)));
  }

  async listDevices(ctx: CallContext): Promise<DeviceInfo[]> {
    return (await this.driver()).listDevices(ctx);
  }

  async open(id: string, ctx: CallContext): Promise<DeviceHandle | undefined> {
    return (await this.driver()).open(id, ctx);
  }

  watch(listener: (change: DevicesChange) => void): () => void {
    let off: (() => void) | undefined;
    let stopped = false;
    void this.driver().then(
      (driver) => {
        if (!stopped) off = driver.watch?.(listener);
      },
      // A module that cannot load fails every call with its reason; the feed has nobody to tell.
      () => undefined,
    );
    return () => {
      stopped = true;
      off?.();
    };
  }

  problems(): SourceNote[] {
    return this.loaded?.problems?.() ?? [];
  }

  async close(): Promise<void> {
    if (this.loading) await (await this.loading.catch(() => undefined))?.close();
  }
}
