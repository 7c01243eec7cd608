/**
 * Load benchmark (issue 16): 50 viewers and 8 agents over 4 virtual devices for a while, then
 * everyone leaves and the bridge idles. Prints call latency p50/p99 of the agents, frames per
 * second per viewer, the server's event-loop delay, RSS and ArrayBuffer bytes over time, and
 * what a viewer that stops reading does to the others' frame rate (in alternating windows of
 * BENCH_WINDOW_S=10 s, every other one with one viewer not reading).
 * Targets: RSS ≤ 400 MB at peak, back within 20% of the pre-load figure after idle; the
 * non-reading viewer changes the others' fps by < 5%. At the end the server runs a full GC and
 * reports what it still holds (garbage vs memory kept), and over time the bytes queued in its
 * sockets, the screen buffers lent/spare (pixel slots) and what the frame pipelines hold.
 * The viewers' sessions stay resumable for 30 s after they leave: BENCH_IDLE_S=45 measures after that.
 * "Before" is taken after a warm-up (BENCH_WARMUP_S=5 of one viewer and one agent per device, then
 * BENCH_SETTLE_S=25 idle); the cold start's figure is printed too. The server gets the allocator
 * settings `npm start` uses (BENCH_SERVER_ENV=none: glibc's defaults). Its ArrayBuffers figure counts
 * each screen buffer's whole 32 MiB block (mapped-memory.ts); only the pixels written are resident.
 *
 *   node dist/scripts/bench/load.js   (BENCH_LOAD_S=120, BENCH_IDLE_S=30, BENCH_VIEWERS=50,
 *                                      BENCH_AGENTS=8: shorter or smaller runs)
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { connectBridge } from '../../src/protocol/node.js';
import { summarize } from './stats.js';
import { startEnv } from '../../src/cli/allocator-env.js';

const LOAD_S = Number(process.env.BENCH_LOAD_S ?? 120);
const IDLE_S = Number(process.env.BENCH_IDLE_S ?? 30);
const WARMUP_S = Number(process.env.BENCH_WARMUP_S ?? 5);
const SETTLE_S = Number(process.env.BENCH_SETTLE_S ?? 25);
const WINDOW_S = Number(process.env.BENCH_WINDOW_S ?? 10);
const VIEWERS = Number(process.env.BENCH_VIEWERS ?? 50);
const AGENTS = Number(process.env.BENCH_AGENTS ?? 8);
const DEVICES = ['virtual-android-1', 'virtual-android-2', 'virtual-ios-1', 'virtual-ios-2'];
const MB = 1024 * 1024;

interface Mem {
  rss: number;
  heapUsed: number;
  arrayBuffers: number;
  lagP50: number;
  lagP99: number;
  lagMax: number;
  subscriptions: number;
  connections: number;
  buffered: number;
  rendering: number;
  slotsLentMb: number;
  slotsSpareMb: number;
  heldFramesMb: number;
  heapCommitted: number;
  slotsAllocated: number;
  slotsReused: number;
  newSpace: number;
  malloced: number;
  rssAnon: number;
  rssFile: number;
  threads: number;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

// The server runs as `npm start` runs it (scripts/start.sh: jemalloc when installed, two glibc heaps).
// BENCH_SERVER_ENV replaces that: 'MALLOC_ARENA_MAX=2' is glibc with two heaps, 'none' glibc's defaults.
const startSettings = startEnv();
const serverEnv: Record<string, string> = process.env.BENCH_SERVER_ENV === undefined
  ? startSettings
  : Object.fromEntries(process.env.BENCH_SERVER_ENV.split(/\s+/).filter((kv) => kv.includes('=')).map((kv) => kv.split('=') as [string, string]));
const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !(k in startSettings) && k !== 'LD_PRELOAD'));
// BENCH_SERVER_ARGS='--heap-prof --heapsnapshot-signal=SIGUSR1' profiles the server; BENCH_SNAPSHOT=1 sends it
// that signal at the middle of the load (a heap snapshot at the peak, written to the current folder).
const serverArgs = (process.env.BENCH_SERVER_ARGS ?? '').split(/\s+/).filter(Boolean);
const child = spawn(process.execPath, [...serverArgs, '--expose-gc', fileURLToPath(new URL('./load-server.js', import.meta.url))], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...inherited, ...serverEnv } });
const samples: { at: number; phase: string; mem: Mem }[] = [];
let afterGc: Mem | undefined;
let phase = 'before';
const started = performance.now();
const url = await new Promise<string>((resolve, reject) => {
  let buffered = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    let nl: number;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      if (line.startsWith('ws://')) resolve(line.trim());
      else if (line.startsWith('MEM ')) samples.push({ at: (performance.now() - started) / 1000, phase, mem: JSON.parse(line.slice(4)) as Mem });
      else if (line.startsWith('GCMEM ')) afterGc = JSON.parse(line.slice(6)) as Mem;
    }
  });
  child.once('exit', (code) => reject(new Error(`server exited (${code})`)));
});

class Viewer {
  readonly ws: WebSocket;
  frames = 0;
  reading = true;
  constructor(readonly device: string) {
    this.ws = new WebSocket(url);
    this.ws.on('message', (_data, binary) => {
      if (binary) this.frames++;
    });
  }
  async start(): Promise<void> {
    await new Promise((r, j) => this.ws.once('open', r).once('error', j));
    this.ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'session.hello', params: { client: 'bench viewer' } }));
    this.ws.send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'devices.subscribe', params: { device: this.device, screen: { maxWidth: 360, format: 'jpeg' }, elements: true } }));
  }
  /** Ends the session at once (no resume grace), then closes. */
  async leave(): Promise<void> {
    this.ws.send(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'session.bye', params: {} }));
    const answered = new Promise<void>((r) => this.ws.on('message', (data, binary) => !binary && (JSON.parse(String(data)) as { id?: number }).id === 3 && r()));
    await Promise.race([answered, sleep(2000)]);
    this.ws.close();
  }
  stopReading(): void {
    this.reading = false;
    (this.ws as unknown as { _socket: { pause(): void } })._socket.pause();
  }
}

const cold = await sleepAndTake(3, 'before');
// A bridge in a lab has drawn screens before a load comes: libvips' code and fonts, the JIT's code
// and the renderer's first tiles are loaded once and stay. The warm-up does that with one viewer
// and one agent per device, everyone says session.bye, and the bridge idles until its idle GC and
// its threads' exits are done; "before" is then measured. BENCH_WARMUP_S=0 compares with the cold start.
let before = cold;
if (WARMUP_S > 0) {
  phase = 'warm-up';
  const warm = DEVICES.map((d) => new Viewer(d));
  await Promise.all(warm.map((v) => v.start()));
  const agent = await connectBridge(url, { client: 'bench warm-up' });
  for (const device of DEVICES) {
    await agent.callTool('mobile_open_url', { device, url: 'mbdemo://screen/home' });
    await agent.callTool('mobile_list_elements_on_screen', { device });
    await agent.callTool('mobile_swipe_on_screen', { device, direction: 'up', distance: 300 });
  }
  await sleep(WARMUP_S * 1000);
  await Promise.all([...warm.map((v) => v.leave()), agent.close()]);
  phase = 'settle';
  before = await sleepAndTake(SETTLE_S, 'settle');
}
phase = 'load';
const viewers = Array.from({ length: VIEWERS }, (_, i) => new Viewer(DEVICES[i % DEVICES.length]));
await Promise.all(viewers.map((v) => v.start()));
let running = true;
const latencies: number[] = [];
let errors = 0;
const agents = await Promise.all(Array.from({ length: AGENTS }, () => connectBridge(url, { client: 'bench agent' })));
const agentLoops = agents.map(async (client, i) => {
  const device = DEVICES[i % DEVICES.length];
  // The demo app's long list: every swipe changes the screen, so viewers get a frame per action.
  await client.callTool('mobile_open_url', { device, url: 'mbdemo://screen/home' });
  let n = 0;
  while (running) {
    const t = performance.now();
    const k = n++ % 4;
    const r = k === 0 || k === 2
      ? await client.callTool('mobile_list_elements_on_screen', { device })
      : await client.callTool('mobile_swipe_on_screen', { device, direction: k === 1 ? 'up' : 'down', distance: 300 });
    latencies.push(performance.now() - t);
    if ((r as { status?: string }).status === 'error') errors++;
  }
});

// A non-reading viewer's effect on the others, measured in alternating windows so that the
// machine's own swings (±10 % between halves of a run) average out: in every other window one
// viewer stops reading; the bridge should drop it, and a fresh viewer takes its place for the next.
const windows: { stalled: boolean; fps: number }[] = [];
const dropAfter: number[] = [];
const loadEnds = performance.now() + LOAD_S * 1000;
await sleep(Math.min(10_000, LOAD_S * 250));
for (let k = 0; performance.now() + WINDOW_S * 1000 <= loadEnds; k++) {
  const stalled = k % 2 === 1 ? viewers.find((v) => v.reading) : undefined;
  // The bridge's own count of connections tells when it let the stalled viewer go: a paused client sees nothing.
  const stalledAt = (performance.now() - started) / 1000;
  const connected = samples.at(-1)!.mem.connections;
  stalled?.stopReading();
  const present = viewers.filter((v) => v.reading);
  const from = present.map((v) => v.frames);
  const t = performance.now();
  await sleep(WINDOW_S * 1000);
  const seconds = (performance.now() - t) / 1000;
  windows.push({ stalled: !!stalled, fps: mean(present.map((v, i) => (v.frames - from[i]) / seconds)) });
  const gone = stalled && samples.find((x) => x.at > stalledAt && x.mem.connections < connected);
  if (gone) dropAfter.push(gone.at - stalledAt);
  if (stalled) {
    // The next window starts with 50 reading viewers again, whether or not the bridge dropped this one yet.
    const fresh = new Viewer(stalled.device);
    viewers[viewers.indexOf(stalled)] = fresh;
    await fresh.start();
    stalled.ws.terminate();
  }
}
if (process.env.BENCH_SNAPSHOT === '1') child.kill('SIGUSR1');
await sleep(Math.max(0, loadEnds - performance.now()));
running = false;
await Promise.all(agentLoops);
phase = 'idle';
await Promise.all(agents.map((c) => c.close()));
for (const v of viewers) v.ws.terminate();
await sleepAndTake(IDLE_S, 'idle');
child.kill('SIGUSR2');
await sleep(1000);
child.kill('SIGTERM');
await new Promise((r) => child.once('exit', r));

const lat = summarize(latencies);
const load = samples.filter((s) => s.phase === 'load');
const idle = samples.filter((s) => s.phase === 'idle');
const peak = Math.max(...load.map((s) => s.mem.rss));
const after = idle.at(-1)!.mem.rss;
const lagP99 = summarize(load.map((s) => s.mem.lagP99));

console.log(`load: ${VIEWERS} viewers, ${AGENTS} agents, ${DEVICES.length} devices, ${LOAD_S} s, then ${IDLE_S} s idle`);
console.log(`server environment: ${Object.entries(serverEnv).map(([k, v]) => `${k}=${v}`).join(' ') || "glibc's allocator defaults"}\n`);
console.log(`agent calls: ${lat.n} (${errors} errors), latency p50 ${lat.median.toFixed(1)} ms, p99 ${lat.p99.toFixed(1)} ms`);
// Each window with a viewer not reading against the mean of its neighbours (cancels a trend in the run).
const changes = windows.flatMap((w, i) => {
  const around = [windows[i - 1], windows[i + 1]].filter((n) => n && !n.stalled).map((n) => n.fps);
  return w.stalled && around.length ? [(w.fps / mean(around) - 1) * 100] : [];
});
console.log(`fps per reading viewer, ${WINDOW_S} s windows: ${windows.map((w) => `${w.fps.toFixed(1)}${w.stalled ? '*' : ''}`).join(' ')} (* = one viewer not reading)`);
console.log(`a viewer that stops reading changes the others' fps by ${changes.map((c) => `${c.toFixed(1)}%`).join(', ')} (median ${summarize(changes).median.toFixed(1)}% against the windows around it)`);
console.log(`viewers that stopped reading were let go by the bridge after ${dropAfter.map((d) => `${d.toFixed(0)} s`).join(', ') || '—'} (${dropAfter.length} of ${windows.filter((w) => w.stalled).length} within their ${WINDOW_S} s window; 1 s samples)`);
console.log(`event-loop delay per second under load: median of p99 ${lagP99.median.toFixed(1)} ms, worst p99 ${Math.max(...load.map((s) => s.mem.lagP99)).toFixed(1)} ms, max ${Math.max(...load.map((s) => s.mem.lagMax)).toFixed(1)} ms`);
console.log(`RSS: cold start ${(cold.rss / MB).toFixed(0)} MB${WARMUP_S > 0 ? `, after the warm-up ${(before.rss / MB).toFixed(0)} MB (${(((after - cold.rss) / cold.rss) * 100).toFixed(0)}% of the cold start after idle)` : ''}`);
console.log(`RSS: before ${(before.rss / MB).toFixed(0)} MB, peak ${(peak / MB).toFixed(0)} MB, after idle ${(after / MB).toFixed(0)} MB (${(((after - before.rss) / before.rss) * 100).toFixed(0)}% vs before)`);
console.log(`ArrayBuffers: before ${(before.arrayBuffers / MB).toFixed(1)} MB, peak ${(Math.max(...load.map((s) => s.mem.arrayBuffers)) / MB).toFixed(1)} MB, after idle ${(idle.at(-1)!.mem.arrayBuffers / MB).toFixed(1)} MB`);
const lastLoad = load.at(-1)!.mem;
console.log(`screen buffers during the load: ${lastLoad.slotsAllocated} made, ${lastLoad.slotsReused} reused`);
if (afterGc) console.log(`after idle and a forced full GC: RSS ${(afterGc.rss / MB).toFixed(0)} MB, ArrayBuffers ${(afterGc.arrayBuffers / MB).toFixed(1)} MB (what is still held, not garbage); heap ${(afterGc.heapUsed / MB).toFixed(0)} MB; screen buffers lent ${afterGc.slotsLentMb.toFixed(1)} MB, spare ${afterGc.slotsSpareMb.toFixed(1)} MB`);
const worst = (pick: (m: Mem) => number) => (Math.max(...load.map((s) => pick(s.mem))) / MB).toFixed(0);
console.log(`peaks under load: heap used ${worst((m) => m.heapUsed)} MB, heap committed ${worst((m) => m.heapCommitted)} MB (young generation ${worst((m) => m.newSpace)} MB), V8 malloc ${worst((m) => m.malloced)} MB, anonymous RSS ${worst((m) => m.rssAnon)} MB, file-backed RSS ${worst((m) => m.rssFile)} MB`);
console.log('\nover time (s, phase, RSS MB, heap MB, ArrayBuffers MB, loop p99 ms, socket-queued MB, frames drawing, screen buffers lent/spare MB, frame pipelines hold MB, heap committed MB, RSS − heap − ArrayBuffers MB, threads):');
for (const s of samples.filter((_, i) => i % Number(process.env.BENCH_EVERY ?? 5) === 0)) {
  console.log(`  ${s.at.toFixed(0).padStart(4)} ${s.phase.padEnd(6)} ${(s.mem.rss / MB).toFixed(0).padStart(5)} ${(s.mem.heapUsed / MB).toFixed(0).padStart(5)} ${(s.mem.arrayBuffers / MB).toFixed(1).padStart(7)} ${s.mem.lagP99.toFixed(1).padStart(7)} ${(s.mem.buffered / MB).toFixed(1).padStart(6)} ${String(s.mem.rendering).padStart(3)} ${s.mem.slotsLentMb.toFixed(0).padStart(4)}/${s.mem.slotsSpareMb.toFixed(0).padEnd(3)} ${s.mem.heldFramesMb.toFixed(0).padStart(4)} ${(s.mem.heapCommitted / MB).toFixed(0).padStart(5)} ${((s.mem.rss - s.mem.heapCommitted - s.mem.arrayBuffers) / MB).toFixed(0).padStart(5)} ${String(s.mem.threads).padStart(3)}`);
}

async function sleepAndTake(seconds: number, label: string): Promise<Mem> {
  await sleep(seconds * 1000);
  const last = samples.filter((s) => s.phase === label).at(-1);
  if (!last) throw new Error(`no memory sample during ${label}`);
  return last.mem;
}
