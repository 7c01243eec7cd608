import type { CallContext, DeviceHandle, Driver } from '../../src/engine/driver.js';
import { ToolError } from '../../src/engine/errors.js';
import type { DeviceInfo } from '../../src/engine/types.js';

/**
 * A driver whose devices record when each call starts and ends, to test what the
 * engine itself promises (serialization, deadlines, error mapping) apart from any device.
 */
export class RecordingDriver implements Driver {
  readonly name = 'recording';
  readonly log: string[] = [];
  delayMs = 20;
  throwOnTap: unknown = undefined;
  private readonly ids: string[];

  constructor(ids: string[]) {
    this.ids = ids;
  }

  async listDevices(): Promise<DeviceInfo[]> {
    return this.ids.map((id) => ({ id, os: 'Android', model: 'Recorder', version: '14' }));
  }

  async open(id: string): Promise<DeviceHandle | undefined> {
    if (!this.ids.includes(id)) return undefined;
    const step = async (what: string, ctx: CallContext) => {
      this.log.push(`start ${id} ${what}`);
      await new Promise<void>((resolve, reject) => {
        const t = setTimeout(resolve, this.delayMs);
        ctx.signal.addEventListener('abort', () => {
          clearTimeout(t);
          reject(ctx.signal.reason);
        });
      });
      this.log.push(`end ${id} ${what}`);
    };
    const unsupported = async () => {
      throw new ToolError('UNSUPPORTED', 'not recorded');
    };
    return {
      info: { id, os: 'Android', model: 'Recorder', version: '14' },
      screenSize: async () => ({ width: 100, height: 200 }),
      tap: async (x, y, ctx) => {
        if (this.throwOnTap !== undefined) throw this.throwOnTap;
        await step(`tap ${x},${y}`, ctx);
      },
      listApps: async () => [],
      launchApp: unsupported,
      terminateApp: unsupported,
      installApp: unsupported,
      uninstallApp: unsupported,
      clearAppData: unsupported,
      foregroundApp: unsupported,
      screenshot: unsupported,
      listElements: async () => [],
      doubleTap: unsupported,
      longPress: unsupported,
      swipe: async (fx, fy, tx, ty, _d, ctx) => step(`swipe ${fx},${fy}->${tx},${ty}`, ctx),
      typeText: unsupported,
      pressButton: async (b, ctx) => step(`press ${b}`, ctx),
      openUrl: unsupported,
      getOrientation: async () => 'portrait',
      setOrientation: unsupported,
      setWifi: unsupported,
    };
  }

  async close(): Promise<void> {}
}
