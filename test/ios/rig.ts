import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import { createEngine } from '../../src/engine/create.js';
import type { IosDriverOptions } from '../../src/engine/drivers/ios/index.js';
import { ManualClock, VirtualDriver, type VirtualDevice } from '../../src/engine/drivers/virtual/index.js';
import type { Engine } from '../../src/engine/engine.js';
import { EmulatedWda, type EmulatedWdaOptions } from '../harness/wda/emulated-wda.js';
import { FAKE_BIN, FakeIosTools } from '../harness/wda/fake-tools.js';
import type { FakeToolsConfig, SimLaunch } from '../harness/wda/fake-tools-config.js';

export const SIM_UDID = '5A1C2F0E-8D3B-4C61-9E2A-7B4D1F6C3A90';
export const PHONE_UDID = '00008110-001A2B3C4D5E801E';

export interface Rig {
  engine: Engine;
  device: VirtualDevice;
  /** The virtual iPhones of `moreSimulators`, in order. */
  others: VirtualDevice[];
  clock: ManualClock;
  wda: EmulatedWda;
  tools: FakeIosTools;
  dir: string;
  call(tool: string, params?: Record<string, unknown>): Promise<any>;
  close(): Promise<void>;
}

export interface RigOptions {
  /** Serve the virtual iPad instead of the virtual iPhone (as a simulator). */
  ipad?: boolean;
  /** Scale WDA reports (default 3, the virtual iPhone's). */
  scale?: number;
  /** Serve the virtual phone as a real iPhone (through go-ios) instead of a simulator. */
  phone?: { version: string; tunnel: boolean };
  /** Which fake executables are on PATH (default both). */
  bins?: ('xcrun' | 'ios')[];
  xcodeSelected?: boolean;
  /** Which WebDriverAgent release the emulation answers as (emulated-wda.ts options). */
  wda?: Pick<EmulatedWdaOptions, 'before5_15' | 'before2024' | 'legacy' | 'osVersion' | 'sdkVersion'>;
  /** WebDriverAgent reached through a reverse proxy at this path (its fault pathPrefix), and the driver given that URL. */
  wdaPath?: string;
  /** Start with WebDriverAgent absent. */
  wdaDown?: boolean;
  driver?: Partial<IosDriverOptions>;
  /** The engine's deadline per device call (default its own). */
  timeoutMs?: number;
  /** `simctl launch` of these bundle ids runs the hook instead of launching an app. */
  onLaunch?: (wda: EmulatedWda) => Record<string, (launch: SimLaunch) => Promise<void>>;
  /** Apps that die right after `simctl launch` / `ios launch` started them (fake-tools.ts crashOnLaunch). */
  crashOnLaunch?: string[];
  /** More booted simulators, each a virtual iPhone of its own (no WebDriverAgent unless a test starts one). */
  moreSimulators?: { udid: string; name: string; runtime?: string }[];
}

/**
 * A virtual iPhone behind an emulated WebDriverAgent and the fake simctl / go-ios, with an engine
 * using only the iOS driver. PATH holds the fakes and node only, so real Xcode or go-ios never run.
 */
export async function makeRig(options: RigOptions = {}): Promise<Rig> {
  const clock = new ManualClock(1_000_000);
  const more = options.moreSimulators ?? [];
  const virtual = new VirtualDriver({ devices: [options.ipad ? 'ipad' : 'ios', ...more.map(() => 'ios' as const)], clock });
  const [device, ...others] = virtual.devices;
  // A real WebDriverAgent answers its first screenshot at once; the virtual phone's renderer thread
  // starts cold (seconds on a loaded machine). Warm it, so deadlines measure the code under test.
  await device.screenPng();
  // UIDevice.name of a simulator is its name in Xcode; of an iPhone, "iPhone" on iOS 16+.
  const simName = options.ipad ? 'iPad Pro 13-inch (M4)' : 'iPhone 15';
  const wda = new EmulatedWda(device, { clock, ...options.wda, scale: options.scale, simulator: !options.phone, name: options.phone ? 'iPhone' : simName });
  await wda.start();
  if (options.wdaPath) wda.faults.pathPrefix = options.wdaPath;
  if (options.wdaDown) await wda.stop();
  const config: FakeToolsConfig = options.phone
    ? { simulators: [], phones: [{ udid: PHONE_UDID, productType: 'iPhone14,5', version: options.phone.version, device, tunnel: options.phone.tunnel, wda }], crashOnLaunch: options.crashOnLaunch }
    : {
        simulators: [
          { udid: SIM_UDID, name: simName, runtime: 'iOS-17-5', state: 'Booted', device },
          ...more.map((m, i) => ({ udid: m.udid, name: m.name, runtime: m.runtime ?? 'iOS-17-5', state: 'Booted' as const, device: others[i] })),
        ],
        phones: [],
        xcodeSelected: options.xcodeSelected,
        onLaunch: options.onLaunch?.(wda),
        crashOnLaunch: options.crashOnLaunch,
      };
  const tools = new FakeIosTools(config);
  await tools.start();

  const dir = mkdtempSync(join(tmpdir(), 'mb-ios-'));
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  for (const name of options.bins ?? ['xcrun', 'ios']) symlinkSync(join(FAKE_BIN, name), join(bin, name));
  const saved = { PATH: process.env.PATH, MB_IOS_HARNESS: process.env.MB_IOS_HARNESS };
  process.env.PATH = `${bin}:${dirname(process.execPath)}`;
  process.env.MB_IOS_HARNESS = tools.url;

  const engine = createEngine({ virtual: false, ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}), ios: { wdaUrl: `${wda.url}${options.wdaPath ?? ''}`, mjpegUrl: wda.mjpeg.url, forwardWaitMs: 10_000, usbmuxd: tools.usbmuxd.address, ...options.driver }, allowPaths: [dir] });
  return {
    engine,
    device,
    others,
    clock,
    wda,
    tools,
    dir,
    call: (tool, params = {}) => engine.call(tool, { device: options.phone ? PHONE_UDID : SIM_UDID, ...params }),
    async close() {
      await engine.close();
      await wda.stop();
      await tools.stop();
      process.env.PATH = saved.PATH;
      if (saved.MB_IOS_HARNESS === undefined) delete process.env.MB_IOS_HARNESS;
      else process.env.MB_IOS_HARNESS = saved.MB_IOS_HARNESS;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The element whose text or label is `name` (or, for an empty field, whose placeholder is), from a listing. */
export function find(elements: { text: string; accessibility_label: string | null; hint?: string | null }[], name: string) {
  const hit = elements.find((e) => e.text === name || e.accessibility_label === name) ?? elements.find((e) => !e.text && e.hint === name);
  if (!hit) throw new Error(`no element "${name}" in ${JSON.stringify(elements.map((e) => e.text || e.accessibility_label))}`);
  return hit as any;
}
