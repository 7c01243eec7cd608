/**
 * Screen buffers must go back to the system when freed (issue 16). glibc raises its mmap threshold
 * with every large block freed, after which screen-sized buffers come from the heap, where a small
 * allocation made meanwhile pins them for good. Pixel slots ask for blocks glibc always maps.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PixelSlotPool } from '../../../src/engine/pixel-slots.js';
import { glibcVersion, ALLOCATOR_ENV } from '../../../src/cli/allocator-env.js';

const run = promisify(execFile);
const SLOTS = fileURLToPath(new URL('../../../src/engine/pixel-slots.js', import.meta.url));
const SCREEN = 1080 * 2400 * 4;

test('a slot is exactly the size asked for, in a block glibc always maps', () => {
  const pool = new PixelSlotPool({ spare: 1 });
  const slot = pool.take(SCREEN);
  assert.is(slot.data.length, SCREEN);
  assert.ok(slot.memory.byteLength >= 32 * 1024 * 1024, `${slot.memory.byteLength} bytes`);
  pool.release(slot);
  assert.is(pool.take(SCREEN), slot, 'a released slot of the same size is reused');
  assert.is(pool.stats.lentBytes, SCREEN, 'stats count the pixels, not the block');
});

// Heap pinning is glibc's behaviour; other C libraries map large blocks anyway.
const glibc = process.platform === 'linux' && glibcVersion();
if (!glibc) console.log('skip: freed screen buffers leaving RSS (needs Linux with glibc)');

test('screens freed after small allocations pinned the heap leave no resident memory (glibc)', async () => {
  if (!glibc) return;
  // The child starts on glibc with its own settings: those npm start sets (or jemalloc) would hide the pinning.
  const env = { ...process.env };
  for (const name of [...Object.keys(ALLOCATOR_ENV), 'LD_PRELOAD']) delete env[name];
  const script = `
    import { readFileSync } from 'node:fs';
    const { PixelSlotPool } = await import(${JSON.stringify(SLOTS)});
    const anonMb = () => Number(/RssAnon:\\s+(\\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))[1]) / 1024;
    const settle = async () => { for (let i = 0; i < 3; i++) { gc(); await new Promise((r) => setTimeout(r, 50)); } };
    // A large block freed first raises the mmap threshold, as the first screen of a load does.
    { const warm = new SharedArrayBuffer(12 << 20); new Uint8Array(warm).fill(1); }
    await settle();
    const before = anonMb();
    const pool = new PixelSlotPool({ spare: 0 });
    const slots = [];
    const pins = [];
    for (let i = 0; i < 8; i++) {
      const slot = pool.take(${SCREEN});
      slot.data.fill(7);
      slots.push(slot);
      pins.push(Buffer.allocUnsafeSlow(48 * 1024).fill(1));
    }
    const full = anonMb();
    for (const slot of slots) pool.release(slot);
    slots.length = 0;
    pool.trim();
    await settle();
    process.stdout.write(JSON.stringify({ before, full, after: anonMb(), pins: pins.length }));`;
  const { stdout } = await run(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { env, timeout: 60_000 });
  const m = JSON.parse(stdout) as { before: number; full: number; after: number };
  assert.ok(m.full - m.before > 60, `8 screens were resident while held (${JSON.stringify(m)})`);
  assert.ok(m.after - m.before < 30, `freed screens left ${(m.after - m.before).toFixed(0)} MB resident (${JSON.stringify(m)})`);
});

test.run();
