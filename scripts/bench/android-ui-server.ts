/**
 * Element listings on Android: `uiautomator dump` per call vs the UiAutomator2 server kept running,
 * through a private real adb server to the emulated adbd under its phone timing model (a dump costs
 * the device about 1.8 s, a warm /source about 90 ms). Prints medians, round trips and the ratio;
 * asserts nothing. Run: node dist/scripts/bench/android-ui-server.js
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createEngine } from '../../src/engine/create.js';
import type { AndroidDevice } from '../../src/engine/drivers/android/android-device.js';
import { DEMO_PACKAGE } from '../../src/engine/drivers/virtual/index.js';
import type { Engine } from '../../src/engine/engine.js';
import { PrivateAdbServer } from '../../test/harness/adb-server.js';
import { writeApk } from '../../test/harness/apk-builder.js';
import { EmulatedPhone } from '../../test/harness/adbd/emulated-phone.js';
import { UIA2_PACKAGES } from '../../test/harness/adbd/uia2-service.js';
import { row, sample, type Summary } from './stats.js';

const N = Number(process.env.BENCH_N ?? 10);

async function listing(engine: Engine, phone: EmulatedPhone, label: string): Promise<Summary> {
  const list = async () => {
    const r = (await engine.call('mobile_list_elements_on_screen', { device: phone.serial })) as { elements?: unknown[] };
    if (!r.elements?.length) throw new Error(`listing failed: ${JSON.stringify(r)}`);
  };
  await list();
  phone.stats.reset();
  await list();
  const trips = phone.stats.opened.join(', ');
  const s = await sample(N, list, 2);
  console.log(`${row(label, s)}   services: ${trips}`);
  return s;
}

async function main(): Promise<void> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mb-bench-uia2-'));
  const phone = await EmulatedPhone.start({}, 'phone');
  const server = await PrivateAdbServer.start();
  const engines: Engine[] = [];
  try {
    await server.connect(phone.serial);
    const apks = {
      server: writeApk(tmp, { package: UIA2_PACKAGES[0] }, 'appium-uiautomator2-server-v7.0.0.apk'),
      test: writeApk(tmp, { package: UIA2_PACKAGES[1] }, 'appium-uiautomator2-server-debug-androidTest.apk'),
    };
    const dumpEngine = createEngine({ virtual: false, ios: false, android: { port: server.port, uiServer: 'off' } });
    const serverEngine = createEngine({ virtual: false, ios: false, android: { port: server.port, uiServerApks: apks } });
    engines.push(dumpEngine, serverEngine);
    await dumpEngine.call('mobile_launch_app', { device: phone.serial, packageName: DEMO_PACKAGE });
    console.log(`Element listings, emulated phone timing model (dump ≈ 1.8 s on the device, warm /source ≈ 90 ms); n=${N}\n`);
    const dump = await listing(dumpEngine, phone, 'uiautomator dump per listing');
    const t = performance.now();
    const up = await serverEngine.withDevice(phone.serial, 'warm-up', async (h) => (await (h as AndroidDevice).uiServer?.ready()) ?? false);
    console.log(`UiAutomator2 server start (install + am instrument + session): ${(performance.now() - t).toFixed(0)} ms, ready=${up}`);
    const served = await listing(serverEngine, phone, 'UiAutomator2 server /source');
    console.log(`\nratio dump / server (medians): ${(dump.median / served.median).toFixed(1)}×`);
    console.log('Note: device-side costs come from the timing model, not from a phone; see docs/android.md.');
  } finally {
    await Promise.all(engines.map((e) => e.close()));
    await server.stop();
    await phone.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
