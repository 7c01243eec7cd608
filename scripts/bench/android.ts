/**
 * Android driver benchmark against the emulated adbd, through a private real adb server:
 * per-tool latency (median/p95), adb round trips per tool, host overhead beyond the emulated
 * device's own time, raw vs PNG screencap frames/s at 1080×2400, monkey vs input taps.
 * Prints figures; asserts nothing. Run: node dist/scripts/bench/android.js
 */
import type { Engine } from '../../src/engine/engine.js';
import { DEMO_PACKAGE } from '../../src/engine/drivers/virtual/index.js';
import { EmulatedPhone } from '../../test/harness/adbd/emulated-phone.js';
import { withAndroidRig } from './android-rig.js';
import { ms, row, sample } from './stats.js';

const N = Number(process.env.BENCH_N ?? 50);

async function measure(engine: Engine, phone: EmulatedPhone, label: string, tool: string, params: Record<string, unknown>, n = N): Promise<void> {
  const call = async () => {
    const r = (await engine.call(tool, { device: phone.serial, ...params })) as { status?: string; code?: string };
    if (r.status === 'error') throw new Error(`${tool} failed: ${JSON.stringify(r)}`);
  };
  await call();
  phone.stats.reset();
  await call();
  const trips = phone.stats.roundTrips;
  let deviceMs = 0;
  const s = await sample(n, async () => {
    phone.stats.reset();
    await call();
    deviceMs += phone.stats.deviceMs;
  }, 5);
  const perCall = deviceMs / (n + 5);
  console.log(`${row(label, s)}   round trips ${trips}   device ${ms(perCall)}   host+adb ${ms(s.median - perCall)}`);
}

async function main(): Promise<void> {
  await withAndroidRig(async ({ phone, server, engineWith }) => {
    const engine = engineWith({});
    await engine.call('mobile_launch_app', { device: phone.serial, packageName: DEMO_PACKAGE });
    console.log(`Android driver → adbkit → adb server (${server.port}) → emulated adbd (${phone.serial}); n=${N}\n`);
    await measure(engine, phone, 'mobile_list_elements_on_screen', 'mobile_list_elements_on_screen', {});
    await measure(engine, phone, 'mobile_click_on_screen_at_coordinates (monkey)', 'mobile_click_on_screen_at_coordinates', { x: 540, y: 150 });
    await measure(engineWith({ input: 'input' }), phone, 'mobile_click_on_screen_at_coordinates (input)', 'mobile_click_on_screen_at_coordinates', { x: 540, y: 150 });
    await measure(engine, phone, 'mobile_press_button VOLUME_UP (monkey)', 'mobile_press_button', { button: 'VOLUME_UP' });
    await measure(engine, phone, 'mobile_get_screen_size (engine-cached)', 'mobile_get_screen_size', {});
    await measure(engine, phone, 'mobile_get_orientation', 'mobile_get_orientation', {});
    await measure(engine, phone, 'mobile_get_foreground_app', 'mobile_get_foreground_app', {});
    await measure(engine, phone, 'mobile_list_apps', 'mobile_list_apps', {});
    await measure(engine, phone, 'mobile_launch_app', 'mobile_launch_app', { packageName: DEMO_PACKAGE });
    await measure(engine, phone, 'mobile_set_wifi', 'mobile_set_wifi', { enabled: true });
    await measure(engine, phone, 'mobile_take_screenshot (raw + host PNG)', 'mobile_take_screenshot', {}, 20);
    await measure(engineWith({ screencap: 'png' }), phone, 'mobile_take_screenshot (screencap -p)', 'mobile_take_screenshot', {}, 20);

    console.log('\nScreencap frames/s at 1080×2400 (sequential, static screen):');
    for (const screencap of ['raw', 'png'] as const) {
      const e = engineWith({ screencap });
      await e.call('mobile_take_screenshot', { device: phone.serial });
      const frames = 20;
      const t = performance.now();
      for (let i = 0; i < frames; i++) await e.call('mobile_take_screenshot', { device: phone.serial });
      console.log(`  ${screencap.padEnd(4)} ${(frames / ((performance.now() - t) / 1000)).toFixed(1)} frames/s`);
    }
    console.log('\nNote: the emulated phone answers instantly; on phones `input` costs a JVM start (226–400 ms) and');
    console.log('`screencap -p` a device-side PNG encode (0.6–3 s), which these figures do not include.');
  });
}

await main();
