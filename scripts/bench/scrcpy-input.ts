/**
 * Input benchmark on the emulated phone: host time per tap through scrcpy's control socket versus the
 * monkey channel and one `input` process per tap, plus the device-side processes each path starts
 * (shell/exec services the emulated adbd saw). Also a Unicode paste. Prints medians; asserts nothing.
 * Run: npm run build && node dist/scripts/bench/scrcpy-input.js
 */
import type { CallContext, DeviceHandle } from '../../src/engine/driver.js';
import type { Engine } from '../../src/engine/engine.js';
import { EmulatedPhone } from '../../test/harness/adbd/emulated-phone.js';
import { withAndroidRig, withScrcpyViewer } from './android-rig.js';
import { ms, row, sample } from './stats.js';

const N = Number(process.env.BENCH_N ?? 200);
const ctx = (): CallContext => ({ signal: new AbortController().signal });
const processServices = (opened: string[]) => opened.filter((s) => /^(shell|exec):/.test(s)).length;

async function tapFigures(label: string, phone: EmulatedPhone, engine: Engine, handle: DeviceHandle, n: number): Promise<void> {
  const tap = (i: number) => handle.tap(500 + (i % 40), 1500, ctx());
  phone.stats.reset();
  const cpu = process.cpuUsage();
  const s = await sample(n, tap, 10);
  const used = process.cpuUsage(cpu);
  const perTapCpu = (used.user + used.system) / 1000 / (n + 10);
  const spawned = processServices(phone.stats.opened) / (n + 10);
  console.log(`${row(`${label}: driver tap`, s)}   bench process CPU ${ms(perTapCpu)}/tap (host + emulated phone)   device processes ${spawned.toFixed(2)}/tap`);
  const viaTool = await sample(Math.min(n, 100), async (i) => {
    const r = (await engine.call('mobile_click_on_screen_at_coordinates', { device: phone.serial, x: 500 + (i % 40), y: 1500 })) as { status?: string; message?: string };
    if (r.status !== 'success') throw new Error(`tap failed: ${r.message}`);
  }, 5);
  console.log(row(`${label}: mobile_click_on_screen_at_coordinates`, viaTool));
}

async function main(): Promise<void> {
  await withAndroidRig(async ({ phone, engineWith }) => {
    console.log(`scrcpy input benchmark: engine → adbkit → adb server → emulated adbd + scrcpy-server 3.3.1; n=${N}\n`);
    const scrcpy = engineWith({});
    const { handle, close } = await withScrcpyViewer(scrcpy, phone.serial);
    await tapFigures('scrcpy control socket', phone, scrcpy, handle, N);
    const typed = await sample(20, () => handle.typeText('日本 ß 😀', ctx()), 2);
    console.log(row('scrcpy: typeText "日本 ß 😀" (clipboard + paste, ACKed)', typed));
    await close();

    for (const input of ['monkey', 'input'] as const) {
      const engine = engineWith({ input, scrcpy: { graceMs: 0 } });
      const h = await engine.withDevice(phone.serial, 'bench', async (d) => d);
      await tapFigures(input === 'monkey' ? 'monkey --port channel' : 'input tap (one process per tap)', phone, engine, h, input === 'input' ? Math.min(N, 100) : N);
    }
    console.log('\ndevice processes: shell/exec services per tap the emulated adbd saw (a real phone starts a process for each).');
  });
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
