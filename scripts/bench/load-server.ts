/**
 * The server side of scripts/bench/load.ts, in its own process so that its memory and event loop
 * are its own: a bridge over four virtual phones. Prints the WebSocket URL, then once a second a
 * `MEM {...}` line (RSS, heap, ArrayBuffers, event-loop delay p50/p99/max of that second).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { getHeapSpaceStatistics, getHeapStatistics } from 'node:v8';
import sharp from 'sharp';
import { startBridge } from '../../src/bridge/index.js';
import { createEngine } from '../../src/engine/create.js';
import { renderPool } from '../../src/engine/drivers/virtual/render-pool.js';
import type { VirtualDevice } from '../../src/engine/drivers/virtual/virtual-device.js';
import { shrinker } from '../../src/bridge/shrinker.js';

// BENCH_SHARP_CACHE=0 turns libvips' operation cache off, to see what it keeps alive.
if (process.env.BENCH_SHARP_CACHE === '0') sharp.cache(false);
// BENCH_SHARP_CONCURRENCY=n: libvips threads per image operation (sharp's default: one per core).
if (process.env.BENCH_SHARP_CONCURRENCY) sharp.concurrency(Number(process.env.BENCH_SHARP_CONCURRENCY));
const engine = createEngine({ virtual: { devices: ['android', 'android', 'ios', 'ios'] } });
const bridge = await startBridge({ engine, port: 0, log: () => undefined, rateLimit: { perSecond: 100_000, burst: 100_000 } });
const phones = await Promise.all(
  ['virtual-android-1', 'virtual-android-2', 'virtual-ios-1', 'virtual-ios-2'].map((id) => engine.withDevice(id, 'bench', async (d) => d as unknown as VirtualDevice)),
);
process.stdout.write(`${bridge.wsUrl}\n`);

const lag = monitorEventLoopDelay({ resolution: 10 });
lag.enable();
/** kB fields of /proc/self/status: what of the RSS is anonymous memory, files, shared memory; threads. */
function procStatus(): Record<string, number> {
  const out: Record<string, number> = {};
  for (const line of readFileSync('/proc/self/status', 'utf8').split('\n')) {
    const m = /^(RssAnon|RssFile|RssShmem|Threads):\s+(\d+)/.exec(line);
    if (m) out[m[1]] = Number(m[2]);
  }
  return out;
}

/**
 * BENCH_SMAPS=1: where the resident memory lies, from /proc/self/smaps, on stderr: the brk heap, the
 * anonymous mappings by size (glibc's per-thread arenas are 64 MiB reservations; V8 and large
 * buffers map their own), and file mappings (code, libvips).
 */
function smapsSummary(label: string): void {
  const groups = new Map<string, { count: number; rssKb: number }>();
  const largest: { at: string; sizeKb: number; rssKb: number; name: string }[] = [];
  let name = '';
  let size = 0;
  let at = '';
  for (const line of readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      size = (parseInt(head[2], 16) - parseInt(head[1], 16)) / 1024;
      at = head[1];
      name = head[3] || `anon ${size >= 65536 ? '≥64M' : size >= 8192 ? '8–64M' : size >= 1024 ? '1–8M' : '<1M'}`;
      if (name.startsWith('/')) name = `file ${name.split('/').pop()}`;
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) {
      const g = groups.get(name) ?? { count: 0, rssKb: 0 };
      g.count++;
      g.rssKb += Number(rss[1]);
      groups.set(name, g);
      largest.push({ at, sizeKb: size, rssKb: Number(rss[1]), name });
    }
  }
  const top = [...groups].sort((a, b) => b[1].rssKb - a[1].rssKb).slice(0, 12);
  process.stderr.write(`SMAPS ${label}: ${top.map(([n, g]) => `${n} ×${g.count} ${(g.rssKb / 1024).toFixed(0)} MB`).join('; ')}\n`);
  largest.sort((a, b) => b.rssKb - a.rssKb);
  process.stderr.write(`  largest: ${largest.slice(0, 10).map((m) => `${m.at} ${m.name} ${(m.rssKb / 1024).toFixed(1)}/${(m.sizeKb / 1024).toFixed(1)} MB`).join('; ')}\n`);
}
if (process.env.BENCH_SMAPS === '1') {
  smapsSummary('start');
  setInterval(() => smapsSummary(`${process.uptime().toFixed(0)} s`), 15_000).unref();
}

function sampleMemory(tag = 'MEM'): void {
  const m = process.memoryUsage();
  const h = getHeapStatistics();
  const proc = procStatus();
  const line = {
    rss: m.rss,
    heapUsed: m.heapUsed,
    arrayBuffers: m.arrayBuffers,
    external: m.external,
    // The main thread's V8 heap as committed (heapUsed is what is live or not yet collected in it),
    // its young generation, and what V8 mallocs besides. Worker heaps are in none of these, only in RSS.
    heapCommitted: h.total_physical_size,
    newSpace: getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0,
    malloced: h.malloced_memory,
    rssAnon: proc.RssAnon * 1024,
    rssFile: proc.RssFile * 1024,
    threads: proc.Threads,
    lagP50: lag.percentile(50) / 1e6,
    lagP99: lag.percentile(99) / 1e6,
    lagMax: lag.max / 1e6,
    subscriptions: bridge.hub.stats().subscriptions,
    connections: bridge.stats().connections,
    // Bytes queued in the bridge's sockets (not yet handed to the kernel) and frames being drawn.
    buffered: [...bridge.bufferedBySession().values()].reduce((a, b) => a + b, 0),
    rendering: renderPool.pending,
    // Screen buffers lent out and kept spare: the virtual phones' and the downscaler's.
    slotsLentMb: (phones.reduce((a, p) => a + p.pixelSlots.stats.lentBytes, 0) + shrinker.outputs.stats.lentBytes) / 2 ** 20,
    slotsSpareMb: (phones.reduce((a, p) => a + p.pixelSlots.stats.spareBytes, 0) + shrinker.outputs.stats.spareBytes) / 2 ** 20,
    // Screen buffers made vs reused since start (a pool too small allocates more).
    slotsAllocated: phones.reduce((a, p) => a + p.pixelSlots.stats.allocated, 0) + shrinker.outputs.stats.allocated,
    slotsReused: phones.reduce((a, p) => a + p.pixelSlots.stats.reused, 0) + shrinker.outputs.stats.reused,
    heldFramesMb: Object.values(bridge.hub.stats().frames).reduce((a, f) => a + f.heldBytes, 0) / 2 ** 20,
  };
  lag.reset();
  process.stdout.write(`${tag} ${JSON.stringify(line)}\n`);
}
setInterval(sampleMemory, 1000).unref();

// BENCH_ALLOC_PROFILE=file.heapprofile: a sampling allocation profile of the load that counts
// garbage too (--heap-prof keeps only what is still alive at exit), written when the benchmark
// sends SIGUSR2 at the end. Open it in Chrome DevTools or sum it by function.
const allocProfile = process.env.BENCH_ALLOC_PROFILE;
const inspector = allocProfile ? new Session() : undefined;
if (inspector) {
  inspector.connect();
  await inspector.post('HeapProfiler.startSampling', { samplingInterval: 64 * 1024, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
}
// SIGUSR2 (the benchmark, at the end of idle): a full GC, then a sample, to tell garbage from memory still held.
process.on('SIGUSR2', async () => {
  if (inspector && allocProfile) writeFileSync(allocProfile, JSON.stringify((await inspector.post('HeapProfiler.stopSampling')).profile));
  (globalThis as { gc?: () => void }).gc?.();
  setTimeout(() => {
    sampleMemory('GCMEM');
    if (process.env.BENCH_SMAPS === '1') smapsSummary('after idle and GC');
  }, 200);
});
process.on('SIGTERM', () => void bridge.close().then(() => process.exit(0)));
