import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ToolError } from '../../src/engine/errors.js';
import { handleOf, hasFfmpeg, until } from './scrcpy-support.js';
import { hasAdb, startRig, type AndroidRig } from './setup.js';

/**
 * A wedged adbd answers nothing to an OPEN (neither OKAY nor CLSE), and the adb server keeps our
 * request waiting. Starting scrcpy opens `sync:` (the jar), `shell:` (the server) and
 * `localabstract:` (its sockets): each used to wait for ever, and closing the device waited with it.
 */
const test = suite<{ rig?: AndroidRig }>('a device that stops answering while something starts');

test.before(async (ctx) => {
  if (hasAdb() && hasFfmpeg()) ctx.rig = await startRig();
});
test.after(async (ctx) => {
  await ctx.rig?.stop();
});
test.after.each(({ rig }) => {
  if (rig) rig.phone.adbd.faults = {};
});

async function outcome(work: Promise<unknown>, ms: number): Promise<string> {
  const t0 = performance.now();
  const said = await Promise.race([
    work.then(() => 'resolved', (err: unknown) => (err instanceof ToolError ? `${err.code}: ${err.message}` : `other: ${String(err)}`)),
    new Promise<string>((r) => setTimeout(() => r('pending'), ms).unref()),
  ]);
  return `${said} (${Math.round(performance.now() - t0)} ms)`;
}

for (const [service, fault, reason] of [
  ['shell:', /^shell:.*app_process/, /could not start scrcpy-server on .*: the device did not accept the shell within 1500 ms/],
  ['localabstract:', /^localabstract:scrcpy_/, /never opened localabstract:scrcpy_\w+ \(last attempt: the device did not answer\)/],
] as const) {
  test(`${service} never answered: openVideo fails within its bind timeout and says why`, async ({ rig }) => {
    if (!rig) return;
    const engine = rig.engineWith({ scrcpy: { graceMs: 0, bindTimeoutMs: 1_500 } });
    try {
      const handle = await handleOf(rig, engine);
      rig.phone.adbd.faults = { unanswered: fault };
      const said = await outcome(handle.openVideo!({ maxSize: 800, maxFps: 30 }), 15_000);
      assert.match(said, reason, said);
    } finally {
      rig.phone.adbd.faults = {};
      assert.match(await outcome(engine.close(), 10_000), /^resolved/);
    }
  });
}

test('sync: never answered (the jar push): closing the device ends the waiting start at once', async ({ rig }) => {
  if (!rig) return;
  const engine = rig.engineWith({ scrcpy: { graceMs: 0, bindTimeoutMs: 1_500 } });
  const handle = await handleOf(rig, engine);
  rig.phone.adbd.faults = { unanswered: /^sync:/ };
  const opened = rig.phone.adbd.stats.opened.length;
  const video = handle.openVideo!({ maxSize: 800, maxFps: 30 });
  video.catch(() => undefined);
  await until(() => rig.phone.adbd.stats.opened.slice(opened).some((s) => s === 'sync:'), 'the push to reach the phone');
  const closed = await outcome(engine.close(), 5_000);
  assert.match(closed, /^resolved/, closed);
  const said = await outcome(video, 2_000);
  assert.match(said, /DEVICE_NOT_FOUND: .* was closed while scrcpy-server was starting/, said);
});

test('the monkey channel never opening (its shell unanswered): taps go through input after a few seconds, and not only until the engine restarts', async ({ rig }) => {
  if (!rig) return;
  const engine = rig.engineWith({ input: 'monkey' }, 15_000);
  const tap = (x: number) => engine.call('mobile_click_on_screen_at_coordinates', { device: rig.phone.serial, x, y: 100 }) as Promise<{ status?: string; code?: string }>;
  try {
    rig.phone.adbd.faults = { unanswered: /^shell:.*monkey --port/ };
    rig.phone.stats.reset();
    const first = await tap(100);
    assert.is(first.status, 'success', JSON.stringify(first));
    assert.ok(rig.phone.stats.opened.some((s) => /^exec:input (touchscreen )?tap 100 100/.test(s)), rig.phone.stats.opened.join('\n'));
    rig.phone.adbd.faults = {};
    const second = await tap(101);
    assert.is(second.status, 'success', JSON.stringify(second));
    assert.ok(rig.phone.stats.opened.some((s) => /^exec:input (touchscreen )?tap 101 100/.test(s)), 'input until monkey is tried again');
  } finally {
    rig.phone.adbd.faults = {};
    assert.match(await outcome(engine.close(), 10_000), /^resolved/);
  }
});

test.run();
