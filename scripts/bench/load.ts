/**
 * Load benchmark (issue 16): 50 viewers and 8 agents over 4 virtual devices for a while, then
 * everyone leaves and the bridge idles. Prints call latency p50/p99 of the agents, frames per
 * second per viewer, the server's event-loop delay, RSS and ArrayBuffer bytes over time, and
 * what one viewer that stops reading (half-way through the load) does to the others' frame rate.
 * Targets: RSS ≤ 400 MB at peak, back within 20% of the pre-load figure after idle; the
 * non-reading viewer changes the others' fps by < 5%. At the end the server runs a full GC and
 * reports what it still holds (garbage vs memory kept), and over time the bytes queued in its
 * sockets, the screen buffers lent/spare (pixel slots) and what the frame pipelines hold.
 * The viewers' sessions stay resumable for 30 s after they leave: BENCH_IDLE_S=45 measures after that.
 *
 *   node dist/scripts/bench/load.js   (BENCH_LOAD_S=120, BENCH_IDLE_S=30, BENCH_VIEWERS=50,
 *                                      BENCH_AGENTS=8: shorter or smaller runs)
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { connectBridge } from '../../src/protocol/node.js';
import { summarize } from './stats.js';
import { ALLOCATOR_ENV } from '../../src/cli/allocator-env.js';

const LOAD_S = Number(process.env.BENCH_LOAD_S ?? 120);
const IDLE_S = Number(process.env.BENCH_IDLE_S ?? 30);
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

// The server runs as `npm start` runs it, with the allocator settings of package.json. BENCH_SERVER_ENV
// replaces them: 'MALLOC_ARENA_MAX=4 ...' tries others, 'none' measures glibc's defaults.
const serverEnv: Record<string, string> = process.env.BENCH_SERVER_ENV === undefined
  ? { ...ALLOCATOR_ENV }
  : Object.fromEntries(process.env.BENCH_SERVER_ENV.split(/\s+/).filter((kv) => kv.includes('=')).map((kv) => kv.split('=') as [string, string]));
const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !(k in ALLOCATOR_ENV)));
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
  stopReading(): void {
    this.reading = false;
    (this.ws as unknown as { _socket: { pause(): void } })._socket.pause();
  }
}

const before = await sleepAndTake(3, 'before');
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

const half = (LOAD_S * 1000) / 2;
const framesAt = () => viewers.map((v) => v.frames);
await sleep(Math.min(5000, half / 2));
const a0 = framesAt();
const t0 = performance.now();
await sleep(half - Math.min(5000, half / 2));
const a1 = framesAt();
const t1 = performance.now();
if (process.env.BENCH_SNAPSHOT === '1') child.kill('SIGUSR1');
const stalled = viewers[0];
stalled.stopReading();
await sleep(half);
const a2 = framesAt();
const t2 = performance.now();
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

const fps = (from: number[], to: number[], seconds: number, skip: Viewer[] = []) =>
  viewers.map((v, i) => (skip.includes(v) ? NaN : (to[i] - from[i]) / seconds)).filter((x) => !Number.isNaN(x));
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const firstHalf = fps(a0, a1, (t1 - t0) / 1000, [stalled]);
const secondHalf = fps(a1, a2, (t2 - t1) / 1000, [stalled]);
const lat = summarize(latencies);
const load = samples.filter((s) => s.phase === 'load');
const idle = samples.filter((s) => s.phase === 'idle');
const peak = Math.max(...load.map((s) => s.mem.rss));
const after = idle.at(-1)!.mem.rss;
const lagP99 = summarize(load.map((s) => s.mem.lagP99));

console.log(`load: ${VIEWERS} viewers, ${AGENTS} agents, ${DEVICES.length} devices, ${LOAD_S} s, then ${IDLE_S} s idle`);
console.log(`server environment: ${Object.entries(serverEnv).map(([k, v]) => `${k}=${v}`).join(' ') || "glibc's allocator defaults"}\n`);
console.log(`agent calls: ${lat.n} (${errors} errors), latency p50 ${lat.median.toFixed(1)} ms, p99 ${lat.p99.toFixed(1)} ms`);
console.log(`fps per viewer (reading), first half: mean ${mean(firstHalf).toFixed(2)}, min ${Math.min(...firstHalf).toFixed(2)}, max ${Math.max(...firstHalf).toFixed(2)}`);
console.log(`fps per viewer (reading), second half with one viewer not reading: mean ${mean(secondHalf).toFixed(2)} (${(((mean(secondHalf) - mean(firstHalf)) / mean(firstHalf)) * 100).toFixed(1)}%)`);
console.log(`the non-reading viewer: ${stalled.ws.readyState === WebSocket.OPEN ? 'still connected' : 'dropped'} at the end of the load`);
console.log(`event-loop delay per second under load: median of p99 ${lagP99.median.toFixed(1)} ms, worst p99 ${Math.max(...load.map((s) => s.mem.lagP99)).toFixed(1)} ms, max ${Math.max(...load.map((s) => s.mem.lagMax)).toFixed(1)} ms`);
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
