import { createEngine } from '../../src/engine/create.js';
import type { DeviceHandle } from '../../src/engine/driver.js';
import { DEMO_PACKAGE } from '../../src/engine/drivers/virtual/index.js';
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

/**
 * The demo app launched and a scrcpy session open on the phone, as while someone watches it: a
 * viewer keeps the session up, and its video packets are read and dropped, as the bridge's hub
 * would read them. `close` ends the session.
 */
export async function withScrcpyViewer(engine: Engine, serial: string): Promise<{ handle: DeviceHandle; close: () => Promise<void> }> {
  await engine.call('mobile_launch_app', { device: serial, packageName: DEMO_PACKAGE });
  const handle = await engine.withDevice(serial, 'bench', async (d) => d);
  const video = await handle.openVideo!({ maxSize: 1200, maxFps: 30 });
  void (async () => {
    for await (const _ of video.packets());
  })().catch(() => undefined);
  return { handle, close: () => video.close() };
}
