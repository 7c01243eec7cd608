import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { CallContext, DeviceHandle } from '../../src/engine/driver.js';
import { Engine } from '../../src/engine/engine.js';
import { ToolError } from '../../src/engine/errors.js';
import { RecordingDriver } from './recording-driver.js';

/** Issue 16: deadlines count from a call's arrival; a hung device is listed not_responding; others go on. */

/** Device `hung` never answers a tap and ignores the abort signal, like a frozen adbd or WDA. */
class HangingDriver extends RecordingDriver {
  hanging = true;
  taps = 0;

  override async open(id: string): Promise<DeviceHandle | undefined> {
    const handle = await super.open(id);
    if (!handle || id !== 'hung') return handle;
    return {
      ...handle,
      tap: async (x: number, y: number, ctx: CallContext) => {
        this.taps++;
        if (this.hanging) return new Promise<void>(() => undefined);
        return handle.tap(x, y, ctx);
      },
    };
  }
}

const tap = (device: string) => ({ device, x: 1, y: 1 });
type Answer = { status?: string; code?: string; message?: string };

test('every caller queued behind a hung device gets TIMEOUT within its own deadline, counted from arrival', async () => {
  const driver = new HangingDriver(['hung', 'fine']);
  driver.delayMs = 1;
  const timeoutMs = 400;
  const engine = new Engine({ drivers: [driver], timeoutMs });
  try {
    const arrivals = Array.from({ length: 6 }, async () => {
      const at = performance.now();
      const r = (await engine.call('mobile_click_on_screen_at_coordinates', tap('hung'))) as Answer;
      return { r, after: performance.now() - at };
    });
    // Another device is not held up meanwhile.
    const other = (await engine.call('mobile_click_on_screen_at_coordinates', tap('fine'))) as Answer;
    assert.is(other.status, 'success');
    const answers = await Promise.all(arrivals);
    for (const { r, after } of answers) {
      assert.is(r.code, 'TIMEOUT', r.message);
      // Queued one after another, the sixth used to wait six deadlines; now each waits about one.
      assert.ok(after < timeoutMs * 2.5, `answered after ${Math.round(after)} ms with a ${timeoutMs} ms deadline`);
    }
    assert.is(driver.taps, 1, 'calls whose time ran out in the queue never touched the device');
    assert.match(answers[5].r.message!, 'did not start within 400 ms: it arrived behind 5 calls on hung (5 of an unnamed caller); mobile_click_on_screen_at_coordinates did not finish within its deadline: the device may be hung');

    const listed = await engine.listDevices();
    assert.is(listed.find((d) => d.id === 'hung')?.state, 'not_responding');
    assert.match(listed.find((d) => d.id === 'hung')?.message ?? '', /mobile_click_on_screen_at_coordinates/);
    assert.is(listed.find((d) => d.id === 'fine')?.state, undefined);

    driver.hanging = false;
    assert.is(((await engine.call('mobile_click_on_screen_at_coordinates', tap('hung'))) as Answer).status, 'success');
    assert.is((await engine.listDevices()).find((d) => d.id === 'hung')?.state, undefined, 'answering again clears the mark');
  } finally {
    await engine.close();
  }
});

test('an install that runs out of time says it may still finish and how to check, other tools do not', async () => {
  class SlowInstall extends RecordingDriver {
    override async open(id: string): Promise<DeviceHandle | undefined> {
      const handle = await super.open(id);
      // What the deadline produces when the phone holds the install behind its confirmation prompt.
      return handle && { ...handle, installApp: async () => Promise.reject(new ToolError('TIMEOUT', `mobile_install_app on ${id} did not finish within 180000 ms`)) };
    }
  }
  const dir = mkdtempSync(join(tmpdir(), 'mb-install-'));
  const apk = join(dir, 'app.apk');
  writeFileSync(apk, 'PK');
  const engine = new Engine({ drivers: [new SlowInstall(['phone'])], allowPaths: [dir] });
  try {
    const r = (await engine.call('mobile_install_app', { device: 'phone', path: apk })) as Answer;
    assert.is(r.code, 'TIMEOUT', JSON.stringify(r));
    assert.match(r.message!, /did not finish within 180000 ms; the install may still finish: .*confirm it on the phone, then check with mobile_list_apps/);
  } finally {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an install TIMEOUT whose message settles what became of it (abandoned on the phone) gets no "may still finish" note', async () => {
  class AbandonedInstall extends RecordingDriver {
    override async open(id: string): Promise<DeviceHandle | undefined> {
      const handle = await super.open(id);
      return handle && { ...handle, installApp: async () => Promise.reject(new ToolError('TIMEOUT', `installing on ${id} did not finish in time; install session 7 was abandoned on the phone`, true)) };
    }
  }
  const dir = mkdtempSync(join(tmpdir(), 'mb-install-'));
  const apk = join(dir, 'app.apk');
  writeFileSync(apk, 'PK');
  const engine = new Engine({ drivers: [new AbandonedInstall(['phone'])], allowPaths: [dir] });
  try {
    const r = (await engine.call('mobile_install_app', { device: 'phone', path: apk })) as Answer;
    assert.is(r.code, 'TIMEOUT', JSON.stringify(r));
    assert.is(r.message, 'installing on phone did not finish in time; install session 7 was abandoned on the phone');
  } finally {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a driver call is told when its deadline falls, so waiting it chooses can end in time to answer', async () => {
  const seen: CallContext[] = [];
  class Launcher extends RecordingDriver {
    override async open(id: string): Promise<DeviceHandle | undefined> {
      const handle = await super.open(id);
      return handle && { ...handle, launchApp: async (_pkg: string, ctx: CallContext) => void seen.push(ctx) };
    }
  }
  const engine = new Engine({ drivers: [new Launcher(['phone'])], timeoutMs: 5_000 });
  try {
    const before = performance.now();
    assert.is(((await engine.call('mobile_launch_app', { device: 'phone', packageName: 'com.app' })) as Answer).status, 'success');
    const deadline = seen[0]?.deadline;
    assert.ok(deadline !== undefined && deadline >= before + 5_000 && deadline <= performance.now() + 5_000, `deadline ${deadline} for a call that arrived at ${before}`);
  } finally {
    await engine.close();
  }
});

test('a call whose deadline passed behind other callers\' backlog names them and does not call the device hung', async () => {
  const driver = new RecordingDriver(['busy']);
  // 40 ms a tap and a 1 s deadline: 40 taps sent at once are a second and a half of work.
  driver.delayMs = 40;
  const engine = new Engine({ drivers: [driver], timeoutMs: 1000 });
  engine.nameCallers((origin) => (origin ? `session ${origin}` : undefined));
  try {
    const flood = Array.from({ length: 40 }, () => engine.call('mobile_click_on_screen_at_coordinates', tap('busy'), { origin: 's-flood' }) as Promise<Answer>);
    const other = (await engine.call('mobile_click_on_screen_at_coordinates', tap('busy'), { origin: 's-other' })) as Answer;
    assert.is(other.code, 'TIMEOUT', other.message);
    assert.is(other.message, 'mobile_click_on_screen_at_coordinates on busy did not start within 1000 ms: it arrived behind 40 calls on busy (40 of session s-flood); the device was answering, but work sent before this call filled the time: try again once it is done');
    const own = (await Promise.all(flood)).filter((r) => r.code === 'TIMEOUT');
    assert.ok(own.length > 0);
    assert.match(own.at(-1)!.message!, /it arrived behind \d+ calls on busy \(\d+ of session s-flood\); they are all your own: wait for their answers before sending more$/);
    assert.is((await engine.listDevices())[0].state, undefined, 'a busy device is not listed as not responding');
  } finally {
    await engine.close();
  }
});

test.run();
