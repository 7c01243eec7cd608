/**
 * The server side of scripts/bench/bridge.ts, run in its own process so that its RSS and CPU are
 * its own. Besides the virtual phone it serves `replay-1`: a device whose every screenshot is the
 * next of 40 real virtual-phone screens (the list at different scroll offsets), rendered up front.
 * It changes on every capture at no cost, so it measures the bridge itself: hash, decode, encode,
 * fan-out. Prints the WebSocket URL on stdout.
 */
import { startBridge } from '../../src/bridge/index.js';
import type { DeviceHandle, Driver, PngImage } from '../../src/engine/driver.js';
import { createEngine } from '../../src/engine/create.js';
import { VirtualDriver } from '../../src/engine/drivers/virtual/index.js';

async function renderScreens(count: number): Promise<PngImage[]> {
  const driver = new VirtualDriver({ devices: ['android'] });
  const phone = driver.devices[0];
  const ctx = { signal: new AbortController().signal };
  await phone.openUrl('mbdemo://screen/home', ctx);
  const out: PngImage[] = [];
  for (let i = 0; i < count; i++) {
    await phone.swipe(540, 1600, 540, 1520, 100, ctx);
    out.push(await phone.screenshot(ctx));
  }
  await driver.close();
  return out;
}

class ReplayDriver implements Driver {
  readonly name = 'replay';
  private next = 0;
  constructor(private readonly screens: PngImage[]) {}
  async listDevices() {
    return [{ id: 'replay-1', os: 'Android' as const, model: 'Replay of virtual screens', version: '14' }];
  }
  async open(id: string) {
    if (id !== 'replay-1') return undefined;
    const first = this.screens[0];
    return {
      info: { id, os: 'Android', model: 'Replay', version: '14' },
      screenshot: async () => this.screens[this.next++ % this.screens.length],
      screenSize: async () => ({ width: first.width, height: first.height }),
      listElements: async () => [],
    } as unknown as DeviceHandle;
  }
  async close() {}
}

const screens = await renderScreens(40);
const engine = createEngine({ virtual: { devices: ['android'] }, extraDrivers: [new ReplayDriver(screens)] });
const bridge = await startBridge({ engine, port: 0, log: () => undefined, rateLimit: { perSecond: 100_000, burst: 100_000 } });
process.stdout.write(`${bridge.wsUrl}\n`);
process.on('SIGTERM', () => void bridge.close().then(() => process.exit(0)));
