import { createEngine } from '../../src/engine/create.js';
import type { Engine } from '../../src/engine/engine.js';
import type { AndroidDriverOptions } from '../../src/engine/drivers/android/index.js';
import type { DeviceProfile } from '../../src/engine/drivers/virtual/index.js';
import { PrivateAdbServer } from '../harness/adb-server.js';
import type { AdbdFaults } from '../harness/adbd/adbd.js';
import { EmulatedPhone } from '../harness/adbd/emulated-phone.js';
import { systemTool } from '../support/system-tools.js';

/** The whole real chain: engine → AndroidDriver → adbkit → private adb server → emulated adbd → virtual phone. */
export interface AndroidRig {
  server: PrivateAdbServer;
  phone: EmulatedPhone;
  engine: Engine;
  /** Another engine on the same server, e.g. with other driver options; closed by stop(). */
  engineWith(options: Partial<AndroidDriverOptions>, timeoutMs?: number): Engine;
  call(tool: string, params?: object): Promise<Record<string, unknown>>;
  stop(): Promise<void>;
}

export const hasAdb = (): boolean => systemTool('adb', 'the Android driver tests drive the real adb server') !== undefined;

export async function startRig(faults: AdbdFaults = {}, profile?: DeviceProfile): Promise<AndroidRig> {
  const phone = await EmulatedPhone.start(faults, 'instant', profile);
  const engines: Engine[] = [];
  let server: PrivateAdbServer | undefined;
  const stop = async () => {
    await Promise.all(engines.map((e) => e.close()));
    await server?.stop();
    await phone.close();
  };
  try {
    server = await PrivateAdbServer.start();
    await server.connect(phone.serial);
    const port = server.port;
    const engineWith = (options: Partial<AndroidDriverOptions>, timeoutMs?: number) => {
      const engine = createEngine({ virtual: false, ios: false, android: { port, ...options }, timeoutMs });
      engines.push(engine);
      return engine;
    };
    const engine = engineWith({});
    return {
      server, phone, engine, engineWith, stop,
      call: async (tool, params = {}) => (await engine.call(tool, { device: phone.serial, ...params })) as Record<string, unknown>,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

/**
 * Polls until `check` is true, for what the phone or the harness does a moment after a call
 * returns (scrcpy's fire-and-forget control socket, monkey's acknowledging empty line, spares).
 */
export async function until(check: () => boolean, what: string, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
