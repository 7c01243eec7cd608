/**
 * The server side of scripts/bench/bridge.ts, run in its own process so that its RSS and CPU are
 * its own. Besides the virtual phone it serves `replay-png-1` and `replay-raw-1`: devices whose
 * every capture is the next of 12 real virtual-phone screens (the list at different scroll offsets),
 * rendered up front, as PNG or as raw RGBA. They change on every capture at no cost, so they measure
 * the bridge itself: compare, decode, encode, fan-out. Prints the WebSocket URL on stdout.
 */
import sharp from 'sharp';
import { startBridge } from '../../src/bridge/index.js';
import type { DeviceHandle, Driver, PngImage } from '../../src/engine/driver.js';
import { createEngine } from '../../src/engine/create.js';
import { VirtualDriver } from '../../src/engine/drivers/virtual/index.js';
import { serveLoopDelay } from './server-process.js';

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

interface Replayed {
  png: PngImage;
  rgba: Buffer;
}

/** `replay-png-1` hands out PNGs (like most drivers); `replay-raw-1` raw RGBA (like the virtual phone). */
class ReplayDriver implements Driver {
  readonly name = 'replay';
  private next = 0;
  constructor(private readonly screens: Replayed[]) {}
  async listDevices() {
    return ['replay-png-1', 'replay-raw-1'].map((id) => ({ id, os: 'Android' as const, model: 'Replay of virtual screens', version: '14' }));
  }
  async open(id: string) {
    if (id !== 'replay-png-1' && id !== 'replay-raw-1') return undefined;
    const { width, height } = this.screens[0].png;
    const nextScreen = () => this.screens[this.next++ % this.screens.length];
    const handle = {
      info: { id, os: 'Android', model: 'Replay', version: '14' },
      screenshot: async () => nextScreen().png,
      screenSize: async () => ({ width, height }),
      listElements: async () => [],
      ...(id === 'replay-raw-1' ? { screenshotRaw: async () => ({ data: nextScreen().rgba, width, height, channels: 4 as const }) } : {}),
    };
    return handle as unknown as DeviceHandle;
  }
  async close() {}
}

// BENCH_REPLAY=0: the virtual phone only, so RSS is the bridge's own (the 12 raw replay screens hold ~125 MB).
const replay = process.env.BENCH_REPLAY !== '0';
const screens = replay ? await Promise.all((await renderScreens(12)).map(async (png) => ({ png, rgba: await sharp(png.png).ensureAlpha().raw().toBuffer() }))) : [];
// Without replay devices, the probe calls the virtual iPhone (never rendered: it has no subscriber).
const engine = createEngine({ virtual: { devices: replay ? ['android'] : ['android', 'ios'] }, extraDrivers: replay ? [new ReplayDriver(screens)] : [] });
const bridge = await startBridge({ engine, port: 0, log: () => undefined, rateLimit: { perSecond: 100_000, burst: 100_000 } });
serveLoopDelay();
process.stdout.write(`${bridge.wsUrl}\n`);
process.on('SIGTERM', () => void bridge.close().then(() => process.exit(0)));
