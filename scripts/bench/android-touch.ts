/**
 * Streamed touch on the emulated Android phone (issue 17): host time per input.touch move over scrcpy's
 * control socket versus one `input motionevent` per event, the device processes each path starts, and
 * how many of 120 Hz moves reach the phone on each path (the rest are merged into later ones by the
 * engine). Prints figures; asserts nothing.
 *
 *   npm run build && node dist/scripts/bench/android-touch.js   (BENCH_N moves, default 100)
 */
import type { Engine } from '../../src/engine/engine.js';
import type { EmulatedPhone } from '../../test/harness/adbd/emulated-phone.js';
import { withAndroidRig, withScrcpyViewer } from './android-rig.js';
import { row, sample } from './stats.js';

const N = Number(process.env.BENCH_N ?? 100);
const processServices = (opened: string[]) => opened.filter((s) => /^(shell|exec):/.test(s)).length;

async function figures(label: string, phone: EmulatedPhone, engine: Engine): Promise<void> {
  const device = phone.serial;
  const move = (y: number) => engine.touchEvent(device, 'move', { x: 540, y }, { origin: 'bench' });
  await engine.touchEvent(device, 'down', { x: 540, y: 2000 }, { origin: 'bench' });
  phone.stats.reset();
  const s = await sample(N, (i) => move(2000 - (i % 600)), 5);
  const perMove = processServices(phone.stats.opened) / (N + 5);
  console.log(`${row(`${label}: one move, waited for`, s)}   device processes ${perMove.toFixed(2)}/move`);
  // A pointer at 120 Hz for one second, answers not awaited: what reaches the phone.
  const answers = [];
  for (let i = 0; i < 120; i++) {
    answers.push(move(1500 - i * 5));
    await new Promise((r) => setTimeout(r, 1000 / 120));
  }
  const merged = (await Promise.all(answers)).filter((r) => (r as { coalesced?: boolean }).coalesced).length;
  await engine.touchEvent(device, 'up', { x: 540, y: 900 }, { origin: 'bench' });
  console.log(`${label}: 120 moves at 120 Hz → ${120 - merged} reached the phone (${merged} merged into later ones)`);
}

async function main(): Promise<void> {
  await withAndroidRig(async ({ phone, engineWith }) => {
    console.log(`Android streamed touch: engine → adbkit → adb server → emulated adbd; n=${N}\n`);
    const scrcpy = engineWith({});
    const viewer = await withScrcpyViewer(scrcpy, phone.serial);
    await figures('scrcpy INJECT_TOUCH_EVENT', phone, scrcpy);
    await viewer.close();
    await figures('input motionevent', phone, engineWith({ scrcpy: { graceMs: 0 } }));
    console.log('\ndevice processes: shell/exec services per move the emulated adbd saw (a real phone starts an app_process for each `input`).');
  });
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
