/**
 * Where an Android MCP screenshot's time goes, stage by stage, on the emulated phone behind a
 * private real adb server: the device's own work (harness side), the adb transfer, parsing,
 * scaling + encoding, base64. Raw `screencap` and `screencap -p` are timed side by side, calls
 * interleaved. Prints medians; asserts nothing.
 *
 *   node dist/scripts/bench/screenshot-stages.js        (BENCH_N rounds, default 30)
 */
import { createAdbClient, execOnDevice, execStreaming } from '../../src/engine/drivers/android/adb-client.js';
import { ScreencapStream } from '../../src/engine/drivers/android/screencap-stream.js';
import { parseRawScreencap, pngFromScreencap, rgbaFromRawFrame } from '../../src/engine/drivers/android/screencap.js';
import type { FittedCapture } from '../../src/engine/screen/capture.js';
import { fitFor, scaleCapture } from '../../src/engine/screen/scale.js';
import { loadavg } from 'node:os';
import type { AndroidDevice } from '../../src/engine/drivers/android/android-device.js';
import { LocalBackend } from '../../src/mcp/backend.js';
import { withAndroidRig } from './android-rig.js';
import { summarize } from './stats.js';

const N = Number(process.env.BENCH_N ?? 30);

type Stages = Record<string, number>;

async function main(): Promise<void> {
  await withAndroidRig(async ({ phone, server, engineWith }) => {
    const client = createAdbClient({ host: '127.0.0.1', port: server.port, source: 'bench' }, undefined);
    const device = client.getDevice(phone.serial);
    const signal = new AbortController().signal;
    const samples = new Map<string, Stages[]>();
    const record = (path: string, s: Stages) => (samples.get(path) ?? samples.set(path, []).get(path)!).push(s);

    const finish = async (cap: FittedCapture, t: Stages, t0: number) => {
      let at = performance.now();
      const shot = await scaleCapture(cap);
      t['scale+encode'] = performance.now() - at;
      at = performance.now();
      // The MCP layer writes the base64 into a JSON line; measure that framing too.
      JSON.stringify({ content: [{ type: 'image', data: shot.data, mimeType: shot.mimeType }] });
      t['json framing'] = performance.now() - at;
      t.total = performance.now() - t0;
      t.kb = shot.bytes / 1024;
    };

    const raw = async () => {
      const t: Stages = {};
      const t0 = performance.now();
      const out = await execOnDevice(device, 'screencap 2>/dev/null', signal);
      t['device + adb transfer'] = performance.now() - t0;
      let at = performance.now();
      await phone.shell.run('screencap');
      t['(device work alone)'] = performance.now() - at;
      at = performance.now();
      const image = rgbaFromRawFrame(parseRawScreencap(out));
      t.parse = performance.now() - at;
      at = performance.now();
      await finish({ raw: image, width: image.width, height: image.height }, t, t0);
      t.total -= t['(device work alone)'];
      record('raw screencap', t);
    };
    const streamed = async () => {
      const t: Stages = {};
      const t0 = performance.now();
      const stream = new ScreencapStream(16, { width: 1080, height: 2400 }, fitFor());
      await execStreaming(device, 'screencap 2>/dev/null', signal, (chunk) => stream.push(chunk));
      t['device + adb transfer'] = performance.now() - t0;
      let at = performance.now();
      await phone.shell.run('screencap');
      t['(device work alone)'] = performance.now() - at;
      at = performance.now();
      const s = stream.finish();
      t.parse = performance.now() - at;
      await finish({ shrunk: s.shrunk, width: s.screenWidth, height: s.screenHeight }, t, t0);
      t.total -= t['(device work alone)'];
      record('raw, shrunk on the way', t);
    };
    const png = async () => {
      const t: Stages = {};
      const t0 = performance.now();
      const out = await execOnDevice(device, 'screencap -p 2>/dev/null', signal);
      t['device + adb transfer'] = performance.now() - t0;
      let at = performance.now();
      await phone.shell.run('screencap -p');
      t['(device work alone)'] = performance.now() - at;
      at = performance.now();
      const p = pngFromScreencap(out);
      t.parse = performance.now() - at;
      await finish({ encoded: p.png, width: p.width, height: p.height }, t, t0);
      t.total -= t['(device work alone)'];
      record('screencap -p', t);
    };

    const ways = [raw, png, streamed];
    for (let i = 0; i < 3; i++) for (const way of ways) await way();
    samples.clear();
    for (let i = 0; i < N; i++) for (const way of i % 2 ? [...ways].reverse() : ways) await way();

    // What screencap: 'auto' settles on for this device, as the MCP server would.
    const engine = engineWith({ screencap: 'auto' });
    const backend = new LocalBackend(engine);
    for (let i = 0; i < 6; i++) await backend.screenshot(phone.serial, {});
    const choice = await engine.withDevice(phone.serial, 'inspect', async (d) => (d as AndroidDevice).captureChoice);
    const ms = (xs: number[]) => xs.map((x) => x.toFixed(1)).join(', ');
    console.log(`screencap 'auto' chose ${choice.decided}: raw shrunk on the way ${ms(choice.measured.raw)} ms, screencap -p ${ms(choice.measured.png)} ms (capture + host decode)\n`);

    console.log(`load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
    console.log(`Android screenshot stages, emulated 1080×2400 phone via a private adb server; ${N} interleaved rounds; medians in ms\n`);
    const paths = [...samples.keys()];
    console.log(['stage'.padEnd(26), ...paths.map((p) => p.padStart(24))].join(''));
    for (const stage of Object.keys(samples.get(paths[0])![0])) {
      const cells = paths.map((p) => summarize(samples.get(p)!.map((s) => s[stage] ?? 0)).median.toFixed(1).padStart(24));
      console.log([stage.padEnd(26), ...cells].join(''));
    }
  });
}

await main();
