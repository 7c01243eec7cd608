/**
 * How soon a device whose adbd dies is announced offline (issue 16: within 2 s), through a private
 * real adb server and the emulated adbd; also how soon it is back once adbd listens again (the adb
 * server's own reconnect schedule). Prints figures; asserts nothing. Run: node dist/scripts/bench/offline.js
 */
import { createEngine } from '../../src/engine/create.js';
import type { DeviceInfo } from '../../src/engine/types.js';
import { PrivateAdbServer } from '../../test/harness/adb-server.js';
import { EmulatedPhone } from '../../test/harness/adbd/emulated-phone.js';
import { row, summarize } from './stats.js';

const N = Number(process.env.BENCH_N ?? 6);

async function main(): Promise<void> {
  const phone = await EmulatedPhone.start();
  const server = await PrivateAdbServer.start();
  const engine = createEngine({ virtual: false, ios: false, android: { port: server.port } });
  // The tracker's sockets and timers are unref'd; this keeps the process up between events.
  const keepAlive = setInterval(() => undefined, 1000);
  const seen = (state: DeviceInfo['state']) =>
    new Promise<void>((resolve) => {
      const off = engine.onDevicesChanged((c) => {
        if (c.added.some((d) => d.id === phone.serial && d.state === state)) (off(), resolve());
      });
    });
  try {
    const ready = seen('ready');
    await server.connect(phone.serial);
    await ready;
    const offline: number[] = [];
    const back: number[] = [];
    for (let i = 0; i < N; i++) {
      // Spread the kills over the poll period.
      await new Promise((r) => setTimeout(r, 150 + ((i * 373) % 1000)));
      const port = phone.adbd.port;
      const gone = seen('offline');
      let t = performance.now();
      await phone.adbd.close();
      await gone;
      offline.push(performance.now() - t);
      const again = seen('ready');
      t = performance.now();
      await phone.adbd.listen(port);
      await again;
      back.push(performance.now() - t);
    }
    console.log(row('adbd killed → devices.changed offline', summarize(offline)));
    console.log(row('adbd back → devices.changed ready', summarize(back)));
  } finally {
    clearInterval(keepAlive);
    await engine.close();
    await server.stop();
    await phone.close();
  }
}

await main();
