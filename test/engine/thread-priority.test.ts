import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ANDROID_PROFILE } from '../../src/engine/drivers/virtual/profile.js';
import { RenderPool } from '../../src/engine/drivers/virtual/render-pool.js';
import { VirtualDevice } from '../../src/engine/drivers/virtual/virtual-device.js';
import { ManualClock } from '../../src/engine/drivers/virtual/index.js';
import { BACKGROUND_NICE, lowerImageThreads } from '../../src/engine/thread-priority.js';

const test = suite('picture threads run below the event loop');

interface Thread {
  tid: number;
  name: string;
  nice: number;
}

/** The process's threads as /proc shows them (name; nice is the 19th field of stat). */
function threads(): Thread[] {
  const out: Thread[] = [];
  for (const t of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${t}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.push({ tid: Number(t), name: readFileSync(`/proc/self/task/${t}/comm`, 'utf8').trim(), nice: Number(fields[16]) });
    } catch {
      // ended meanwhile
    }
  }
  return out;
}

const mainNice = () => threads().find((t) => t.tid === process.pid)!.nice;

test('a renderer thread lowers itself as it starts; the event loop keeps its priority', async () => {
  const before = new Set(threads().map((t) => t.tid));
  const niceBefore = mainNice();
  const pool = new RenderPool(1, 60_000);
  try {
    const p = new VirtualDevice(ANDROID_PROFILE, undefined, { clock: new ManualClock(Date.UTC(2026, 0, 5, 9, 30)) });
    const frame = (p as unknown as { phone: { frame(): never } }).phone.frame();
    await pool.render(p.id, frame, ANDROID_PROFILE, false, { rgba: true });
    const started = threads().filter((t) => !before.has(t.tid) && t.name !== 'libvips worker');
    assert.ok(
      started.some((t) => t.nice === niceBefore + BACKGROUND_NICE || t.nice === 19),
      `a new thread at nice ${niceBefore + BACKGROUND_NICE}: ${JSON.stringify(started)}`,
    );
    assert.is(mainNice(), niceBefore, 'the event loop is not lowered');
  } finally {
    await pool.close();
  }
});

test("libvips' worker threads are lowered after image work", async () => {
  const niceBefore = mainNice();
  await sharp({ create: { width: 800, height: 800, channels: 3, background: '#336699' } }).jpeg().toBuffer();
  lowerImageThreads(Date.now() + 60_000);
  const vips = threads().filter((t) => t.name === 'libvips worker');
  assert.ok(vips.length > 0, 'libvips started its threads');
  for (const t of vips) assert.ok(t.nice >= Math.min(19, niceBefore + BACKGROUND_NICE), `libvips thread ${t.tid} at nice ${t.nice}`);
  assert.is(mainNice(), niceBefore);
});

test('MOBILEBRIDGE_BACKGROUND_NICE: 0 turns it off, a bad value says what is allowed', async () => {
  const module = new URL('../../src/engine/thread-priority.js', import.meta.url).href;
  const run = (value: string) =>
    promisify(execFile)(process.execPath, ['--input-type=module', '-e', `const m = await import(${JSON.stringify(module)}); process.stdout.write(String(m.BACKGROUND_NICE) + " " + String(m.lowerThisThread()));`], {
      env: { ...process.env, MOBILEBRIDGE_BACKGROUND_NICE: value },
    });
  const off = await run('0');
  assert.is(off.stdout.trim(), '0 false');
  const err = await run('high').then(
    () => undefined,
    (e: { stderr: string }) => e.stderr,
  );
  assert.match(err ?? '', /MOBILEBRIDGE_BACKGROUND_NICE must be a whole number from 0 to 19 \(got "high"\)/);
});

test('a bridge started with nice keeps its order: threads go BACKGROUND_NICE steps below where they were', async () => {
  const module = new URL('../../src/engine/thread-priority.js', import.meta.url).href;
  // A worker that lowers itself and reports its own nice (the 19th field of its stat).
  const worker = `Promise.all([import('node:worker_threads'), import('node:fs'), import(${JSON.stringify(module)})]).then(([{ parentPort }, { readFileSync }, m]) => {
    m.lowerThisThread();
    const stat = readFileSync('/proc/thread-self/stat', 'utf8');
    parentPort.postMessage(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  });`;
  const script = `const { Worker } = await import('node:worker_threads');
    const w = new Worker(${JSON.stringify(worker)}, { eval: true });
    w.once('message', (nice) => { process.stdout.write(String(nice)); void w.terminate(); });`;
  const { stdout } = await promisify(execFile)('nice', ['-n', '7', process.execPath, '--input-type=module', '-e', script], { env: { ...process.env, MOBILEBRIDGE_BACKGROUND_NICE: '5' } });
  assert.is(Number(stdout), Math.min(19, mainNice() + 7 + 5));
});

if (process.platform === 'linux') test.run();
else console.log('  skip: thread priorities are read from /proc (Linux only)');
