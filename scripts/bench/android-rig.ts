import { createEngine } from '../../src/engine/create.js';
import type { AndroidDriverOptions } from '../../src/engine/drivers/android/index.js';
import type { Engine } from '../../src/engine/engine.js';
import { PrivateAdbServer } from '../../test/harness/adb-server.js';
import { EmulatedPhone } from '../../test/harness/adbd/emulated-phone.js';

export interface AndroidRig {
  phone: EmulatedPhone;
  server: PrivateAdbServer;
  /** An engine with only the Android driver, on the rig's adb server; closed with the rig. */
  engineWith(options?: Partial<AndroidDriverOptions>): Engine;
}

/**
 * Runs `work` against an emulated phone connected to a private adb server (never the user's own),
 * and stops the engines, the server and the phone afterwards, also when `work` throws.
 */
export async function withAndroidRig<T>(work: (rig: AndroidRig) => Promise<T>, phone?: Promise<EmulatedPhone>): Promise<T> {
  const device = await (phone ?? EmulatedPhone.start());
  const server = await PrivateAdbServer.start();
  const engines: Engine[] = [];
  try {
    await server.connect(device.serial);
    return await work({
      phone: device,
      server,
      engineWith: (options = {}) => {
        const e = createEngine({ virtual: false, ios: false, android: { port: server.port, ...options } });
        engines.push(e);
        return e;
      },
    });
  } finally {
    await Promise.all(engines.map((e) => e.close()));
    await server.stop();
    await device.close();
  }
}
