import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { FileLeases, LeaseTimeout, parseDuration, type Lease } from '../../src/engine/leases/index.js';
import { processStartTime } from '../../src/engine/process-alive.js';
import { hasAdb } from '../android/setup.js';
import { PrivateAdbServer } from '../harness/adb-server.js';
import { EmulatedPhone } from '../harness/adbd/emulated-phone.js';
import { launchScenario } from './launch-scenario.js';

const MAIN = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

const units = suite<{ dir: string }>('file leases', { dir: '' });
units.before.each((ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'mb-leases-'));
});
units.after.each((ctx) => rmSync(ctx.dir, { recursive: true, force: true }));

/** The pid of a process that has exited: a CI job killed while holding a phone. */
const deadPid = () => spawnSync(process.execPath, ['-e', '0']).pid!;

units('a held device is refused; a lock whose process died is taken over', ({ dir }) => {
  const one = new FileLeases(dir);
  const two = new FileLeases(dir);
  const lease = one.tryAcquire('phone-1')!;
  assert.ok(lease);
  assert.is(two.tryAcquire('phone-1'), undefined);
  assert.is(two.holder('phone-1')?.pid, process.pid);
  lease.release();
  assert.ok(two.tryAcquire('phone-1'));

  writeFileSync(join(dir, 'leases', 'phone-2.lock'), JSON.stringify({ pid: deadPid(), host: hostname(), since: new Date().toISOString(), what: 'phone-2' }));
  assert.ok(one.tryAcquire('phone-2'), 'a dead holder does not keep the phone');
});

units('many lease holders in one process share one exit listener, gone when the last lock is released', ({ dir }) => {
  const before = process.listenerCount('exit');
  const leases = Array.from({ length: 12 }, (_, i) => new FileLeases(dir).tryAcquire(`phone-many-${i}`)!);
  assert.ok(leases.every(Boolean));
  // Zero more when an earlier test's lease is still held (the listener is there already).
  assert.ok(process.listenerCount('exit') - before <= 1, `${process.listenerCount('exit') - before} exit listeners added`);
  for (const lease of leases) lease.release();
  assert.is(process.listenerCount('exit'), before);
  assert.equal(readdirSync(join(dir, 'leases')).filter((f) => f.startsWith('phone-many')), []);
});

/** A dead holder's lock, as a killed CI job leaves it. */
const deadLock = (dir: string, key: string) => {
  mkdirSync(join(dir, 'leases'), { recursive: true });
  writeFileSync(join(dir, 'leases', `${key}.lock`), JSON.stringify({ pid: deadPid(), host: hostname(), since: new Date().toISOString(), what: key, token: 'dead-holder' }));
};

units('two takers of a dead lock at once: the late one does not remove the lock the first has just made', ({ dir }) => {
  deadLock(dir, 'phone-3');
  let late: Lease | undefined;
  const second = new FileLeases(dir);
  // The first taker has read the dead record; the second runs its whole takeover before the first goes on.
  const first = new FileLeases(dir, { judged: () => (late = second.tryAcquire('phone-3')) });
  const early = first.tryAcquire('phone-3');
  assert.ok(late, 'the second taker took the phone over');
  assert.is(early, undefined, 'the first taker, now late, is refused instead of taking the phone too');
  assert.is(first.holder('phone-3')?.token, JSON.parse(readFileSync(join(dir, 'leases', 'phone-3.lock'), 'utf8')).token);
  late!.release();
  assert.ok(first.tryAcquire('phone-3'), 'free again once released');
});

units('two takers of a dead lock at once: one holding the takeover marker keeps the other out', ({ dir }) => {
  deadLock(dir, 'phone-4');
  let during: Lease | undefined | 'not run';
  const second = new FileLeases(dir);
  const first = new FileLeases(dir, { marked: () => (during = second.tryAcquire('phone-4')) });
  during = 'not run';
  const lease = first.tryAcquire('phone-4');
  assert.is(during, undefined, 'refused while the takeover is under way');
  assert.ok(lease, 'the taker with the marker gets the phone');
  assert.is(second.tryAcquire('phone-4'), undefined);
  assert.equal(readdirSync(join(dir, 'leases')).filter((f) => f.startsWith('phone-4')), ['phone-4.lock'], 'no marker or scratch file is left');
});

units('a takeover marker left by a killed taker does not keep the phone locked', ({ dir }) => {
  deadLock(dir, 'phone-5');
  writeFileSync(join(dir, 'leases', 'phone-5.lock.takeover-dead-holder'), JSON.stringify({ pid: deadPid(), host: hostname(), since: '', what: 'takeover', token: 'dead-taker' }));
  assert.ok(new FileLeases(dir).tryAcquire('phone-5'));
});

units('a lock whose pid now belongs to another process is taken over (Linux: start time)', ({ dir }) => {
  if (processStartTime('self') === null) return; // No /proc: a lock is judged by its pid alone there.
  mkdirSync(join(dir, 'leases'), { recursive: true });
  // This very process's pid, recorded with another start time: the holder died and the pid was reused.
  writeFileSync(join(dir, 'leases', 'phone-6.lock'), JSON.stringify({ pid: process.pid, host: hostname(), started: '1', since: '', what: 'phone-6', token: 'earlier' }));
  assert.ok(new FileLeases(dir).tryAcquire('phone-6'), 'a reused pid does not keep a dead lock alive');
  const held = JSON.parse(readFileSync(join(dir, 'leases', 'phone-6.lock'), 'utf8')) as { pid: number; started: string };
  assert.equal([held.pid, held.started], [process.pid, processStartTime('self')], 'the new lock records the start time');
  assert.is(new FileLeases(dir).tryAcquire('phone-6'), undefined, 'and it holds against others');
});

units('first come, first served: a live earlier ticket of the same platform goes first; dead tickets are skipped', async ({ dir }) => {
  const leases = new FileLeases(dir);
  const queue = join(dir, 'leases', 'queue');
  mkdirSync(queue, { recursive: true });
  const ticket = (name: string, pid: number, what: string) => writeFileSync(join(queue, name), JSON.stringify({ pid, host: hostname(), since: '', what }));
  ticket('000000000000001-live', process.pid, 'android');
  const waited = await leases.wait({ candidates: async () => [{ device: 'free-phone', key: 'free-phone' }], queue: 'android', timeoutMs: 300, pollMs: 20 }).catch((e: unknown) => e);
  assert.instance(waited, LeaseTimeout, 'an earlier waiter for android is served first');
  const ios = await leases.wait({ candidates: async () => [{ device: 'free-iphone', key: 'free-iphone' }], queue: 'ios', timeoutMs: 300, pollMs: 20 });
  assert.is(ios.device, 'free-iphone', 'a waiter for another platform does not block');
  rmSync(join(queue, '000000000000001-live'));
  ticket('000000000000002-dead', deadPid(), 'android');
  const lease = await leases.wait({ candidates: async () => [{ device: 'free-phone', key: 'free-phone' }], queue: 'android', timeoutMs: 2000, pollMs: 20 });
  assert.is(lease.device, 'free-phone');
});

units('first come, first served across kinds: a later "any" waiter leaves the phone an earlier "android" or named-device waiter wants', async ({ dir }) => {
  const leases = new FileLeases(dir);
  const queue = join(dir, 'leases', 'queue');
  mkdirSync(queue, { recursive: true });
  const phone = { device: 'pixel', key: 'pixel@lab', platform: 'android' as const };
  const iphone = { device: 'iphone', key: 'iphone', platform: 'ios' as const };
  const ticket = (name: string, wants: object) => writeFileSync(join(queue, name), JSON.stringify({ pid: process.pid, host: hostname(), since: '', what: 'x', wants }));
  ticket('000000000000001-android', { platform: 'android' });
  const any = await leases.wait({ candidates: async () => [phone, iphone], queue: 'cross-platform', wants: { platform: 'cross-platform' }, timeoutMs: 2000, pollMs: 20 });
  assert.is(any.device, 'iphone', 'the Android phone is left to the android waiter ahead');
  any.release();
  const onlyPhone = await leases.wait({ candidates: async () => [phone], queue: 'cross-platform', wants: { platform: 'cross-platform' }, timeoutMs: 200, pollMs: 20 }).catch((e: unknown) => e);
  assert.instance(onlyPhone, LeaseTimeout, 'and waits while the android waiter is ahead');
  rmSync(join(queue, '000000000000001-android'));
  ticket('000000000000002-named', { key: 'pixel@lab' });
  const android = await leases.wait({ candidates: async () => [phone], queue: 'android', wants: { platform: 'android' }, timeoutMs: 200, pollMs: 20 }).catch((e: unknown) => e);
  assert.instance(android, LeaseTimeout, 'a named-device waiter ahead keeps its phone from a later android waiter');
  const ios = await leases.wait({ candidates: async () => [iphone], queue: 'ios', wants: { platform: 'ios' }, timeoutMs: 2000, pollMs: 20 });
  assert.is(ios.device, 'iphone', 'a waiter ahead for another device does not block');
});

units('durations', () => {
  assert.is(parseDuration('10m', 'x'), 600_000);
  assert.is(parseDuration('90s', 'x'), 90_000);
  assert.is(parseDuration('250', 'x'), 250);
  assert.throws(() => parseDuration('soon', '--lease-timeout'), /--lease-timeout must be a duration/);
});

units.run();

const SCENARIO = launchScenario('lease_check');

interface Pool {
  server: PrivateAdbServer;
  phones: EmulatedPhone[];
  dir: string;
}

const pool = suite<{ pool?: Pool }>('run --devices any:android --lease-timeout: two processes, one pool of two phones');

pool.before(async (ctx) => {
  const phones = await Promise.all([EmulatedPhone.start(), EmulatedPhone.start()]);
  const dir = mkdtempSync(join(tmpdir(), 'mb-lease-run-'));
  ctx.pool = { server: undefined as never, phones, dir };
  ctx.pool.server = await PrivateAdbServer.start();
  for (const p of phones) await ctx.pool.server.connect(p.serial);
  writeFileSync(join(dir, 'scenario.json'), JSON.stringify(SCENARIO));
});

pool.after(async (ctx) => {
  await ctx.pool?.server?.stop();
  await Promise.all(ctx.pool?.phones.map((p) => p.close()) ?? []);
  if (ctx.pool) rmSync(ctx.pool.dir, { recursive: true, force: true });
});

interface RunOutcome {
  code: number | null;
  err: string;
  runs: { device: string; status: string; result: string }[];
}

function run(p: Pool, name: string, onErr?: (text: string) => void): Promise<RunOutcome> {
  const args = [MAIN, 'run', join(p.dir, 'scenario.json'), '--out', join(p.dir, name), '--adb', `lab=127.0.0.1:${p.server.port}`, '--no-virtual', '--no-ios', '--devices', 'any:android', '--lease-timeout', '60s', '--target-wait', '500'];
  const child = spawn(process.execPath, args, { cwd: p.dir, env: { ...process.env, MOBILEBRIDGE_STATE_DIR: join(p.dir, 'state') } });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d));
  child.stderr.on('data', (d: Buffer) => {
    err += d;
    onErr?.(err);
  });
  return new Promise((resolve) => child.on('close', (code) => {
    let runs: RunOutcome['runs'] = [];
    try {
      runs = (JSON.parse(out) as { data: { runs: RunOutcome['runs'] } }).data.runs;
    } catch {
      // Left empty: the assertion on the exit code shows stderr.
    }
    resolve({ code, err, runs });
  }));
}

const waitingFor = (marker: string) => {
  let seen!: () => void;
  const promise = new Promise<void>((r) => (seen = r));
  return { promise, onErr: (text: string) => text.includes(marker) && seen() };
};

pool('a run waits while both phones are leased and takes the one released', async ({ pool }) => {
  const p = pool!;
  const mine = new FileLeases(join(p.dir, 'state'));
  // Held under the key the run keys them by: serial@source, however the phone is named.
  const held = p.phones.map((ph) => mine.tryAcquire(ph.serial, `${ph.serial}@lab`)!);
  assert.ok(held.every(Boolean));
  const w = waitingFor('waiting up to 60 s for a free android device');
  const running = run(p, 'handover', w.onErr);
  await w.promise;
  held[1].release();
  const r = await running;
  held[0].release();
  assert.is(r.code, 0, r.err);
  assert.equal(r.runs.map((x) => [x.device, x.status]), [[p.phones[1].serial, 'passed']]);
});

pool('two runs started together over a free pool of two never share a phone', async ({ pool }) => {
  const p = pool!;
  const [a, b] = await Promise.all([run(p, 'one'), run(p, 'two')]);
  assert.is(a.code, 0, a.err);
  assert.is(b.code, 0, b.err);
  const spans = [a, b].map((r) => {
    const doc = JSON.parse(readFileSync(r.runs[0].result, 'utf8')) as { started_at: string; ended_at: string };
    return { device: r.runs[0].device, from: Date.parse(doc.started_at), to: Date.parse(doc.ended_at) };
  });
  const overlap = spans[0].from < spans[1].to && spans[1].from < spans[0].to;
  if (overlap) assert.is.not(spans[0].device, spans[1].device, 'overlapping runs got different phones');
  for (const s of spans) assert.ok(p.phones.some((ph) => ph.serial === s.device));
});

if (hasAdb()) pool.run();
