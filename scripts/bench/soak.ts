/**
 * Soak: one bridge over virtual phones, in this process, churned by short-lived sessions that do
 * what a day of users does (subscribe and drop, call tools, run verbs, start and discard
 * recordings, start and cancel scenario runs, leave politely or by a cut socket, resume). After
 * each round and a quiet spell with a forced GC it prints what the process holds: active handles,
 * heap, and every Map/Set/array reachable from the bridge that is not empty, by path. A figure that
 * grows round after round is a leak candidate. After the bridge closes: child processes, scrcpy
 * servers on the emulated phone and our entries in the temp folder. Prints figures only; asserts nothing.
 *
 *   node --expose-gc dist/scripts/bench/soak.js   (SOAK_ROUNDS=4 SOAK_PER_ROUND=40)
 *   SOAK_ANDROID=1 [SOAK_REPLUG=10] [SOAK_STACKS=1]: the emulated phone on a private adb server
 *   SOAK_PEER=1: the virtual phones reached through a peer bridge
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getHeapStatistics } from 'node:v8';
import { spawnSync } from 'node:child_process';
import { Socket } from 'node:net';
import { createHook } from 'node:async_hooks';
import WebSocket from 'ws';
import { startRig } from '../../test/android/setup.js';
import { startBridge } from '../../src/bridge/index.js';
import { Peer } from '../../src/bridge/peers/peer.js';
import { createEngine } from '../../src/engine/create.js';
import { BridgeClient } from '../../src/protocol/index.js';
import { nodeSocketFactory } from '../../src/protocol/node.js';

const ROUNDS = Number(process.env.SOAK_ROUNDS ?? 4);
const PER_ROUND = Number(process.env.SOAK_PER_ROUND ?? 40);
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** SOAK_STACKS=1: where each TCP socket was made, for the sockets still open whose peer left. */
const created = new Map<number, string>();
if (process.env.SOAK_STACKS) {
  createHook({
    init(id, type) {
      if (type === 'TCPWRAP') created.set(id, (new Error().stack ?? '').split('\n').slice(3, 16).filter((l) => !l.includes('node:')).join(' | '));
    },
    destroy(id) {
      created.delete(id);
    },
  }).enable();
}

let warnings = 0;
process.on('warning', (w) => {
  warnings++;
  console.log(`WARNING ${w.name}: ${w.message}`);
});
let unhandled = 0;
process.on('unhandledRejection', (e) => {
  unhandled++;
  console.log(`UNHANDLED ${String(e)}`);
});

// SOAK_ANDROID=1: the emulated phone on a private adb server instead of a virtual phone, unplugged
// and plugged back every SOAK_REPLUG users.
const ANDROID = process.env.SOAK_ANDROID === '1';
const REPLUG = Number(process.env.SOAK_REPLUG ?? 10);
const rig = ANDROID ? await startRig() : undefined;
const DEVICE = rig?.phone.serial ?? 'virtual-android-1';
// SOAK_PEER=1: the users reach the virtual phone through this bridge from a peer bridge (serve --peer).
const upstream = process.env.SOAK_PEER === '1' ? await startBridge({ engine: createEngine({ virtual: { devices: ['android', 'ios'] } }), host: '127.0.0.1', port: 0, webRoot: '/nonexistent', log: () => undefined, resumeGraceMs: 300, rateLimit: { perSecond: 100_000, burst: 100_000 } }) : undefined;
const peers = upstream ? [new Peer({ name: 'lab1', url: upstream.wsUrl }, { firstRetryMs: 50 })] : undefined;
const engine = rig?.engine ?? createEngine(peers ? { virtual: false, android: false, ios: false, extraDrivers: peers } : { virtual: { devices: ['android', 'ios'] } });
const bridge = await startBridge({
  engine,
  ...(peers ? { peers } : {}),
  video: { retryMs: 200, retryMaxMs: 400 },
  host: '127.0.0.1',
  port: 0,
  webRoot: '/nonexistent',
  log: () => undefined,
  resumeGraceMs: 300,
  elementsPollMs: 100,
  rateLimit: { perSecond: 100_000, burst: 100_000 },
});

if (peers) while (!peers[0].owns(DEVICE)) await sleep(20);

const SCENARIO = JSON.parse(readFileSync(new URL('../../../test/fixtures/runs/semantic_cross.json', import.meta.url), 'utf8')) as unknown;
const OUT = mkdtempSync(join(tmpdir(), 'mb-soak-'));

async function oneUser(i: number): Promise<void> {
  const sockets: WebSocket[] = [];
  const factory = nodeSocketFactory();
  const c = await BridgeClient.connect({
    url: bridge.wsUrl,
    client: `soak-${i}`,
    reconnect: { initialDelayMs: 10, maxDelayMs: 20 },
    createSocket: (u) => {
      const s = factory(u);
      sockets.push(s as unknown as WebSocket);
      return s;
    },
  });
  c.onError(() => undefined);
  const sub = await c.subscribe(DEVICE, { screen: { maxWidth: 120, ...(i % 2 && ANDROID ? { format: 'h264' as const } : {}) }, elements: true });
  await sleep(ANDROID ? 300 : 0);
  await c.callTool('mobile_list_elements_on_screen', { device: DEVICE }).catch(() => undefined);
  await c.callTool('mobile_swipe_on_screen', { device: DEVICE, direction: 'up' }).catch(() => undefined);
  await c.requestRaw('verbs.run', { device: DEVICE, step: { action: 'wait', value: '10' } }).catch(() => undefined);
  await c.requestRaw('recording.start', { device: DEVICE, name: `r${i}` }).catch(() => undefined);
  await c.requestRaw('verbs.run', { device: DEVICE, step: { action: 'press_back' } }).catch(() => undefined);
  await c.requestRaw('recording.discard', { device: DEVICE }).catch(() => undefined);
  const run = c.requestRaw('scenarios.run', { device: DEVICE, scenario: SCENARIO, ...(i % 2 ? { out: OUT } : {}) }).catch(() => undefined);
  await sleep(50);
  await c.requestRaw('scenarios.cancel', {}).catch(() => undefined);
  await run;
  if (i % 3 === 0) {
    // A cut socket: the client resumes.
    sockets[sockets.length - 1].terminate();
    await sleep(60);
  }
  await c.unsubscribe(sub.subscription).catch(() => undefined);
  if (i % 3 === 1) {
    // A crashed client: never resumes, the grace expires.
    c.onError(() => undefined);
    sockets[sockets.length - 1].terminate();
    await c.close().catch(() => undefined);
  } else await c.close();
}

/** Every non-empty Map, Set and array reachable from `root` (depth-limited), by path. */
function collections(root: object, maxDepth = 7): Map<string, number> {
  const out = new Map<string, number>();
  const seen = new WeakSet<object>();
  const walk = (v: unknown, path: string, depth: number) => {
    if (v === null || typeof v !== 'object' || seen.has(v as object) || depth > maxDepth) return;
    if (ArrayBuffer.isView(v) || v instanceof ArrayBuffer || v instanceof WebSocket) return;
    seen.add(v as object);
    if (v instanceof Map) {
      if (v.size) out.set(path, (out.get(path) ?? 0) + v.size);
      let k = 0;
      for (const [, x] of v) if (k++ < 50) walk(x, `${path}[]`, depth + 1);
      return;
    }
    if (v instanceof Set) {
      if (v.size) out.set(path, (out.get(path) ?? 0) + v.size);
      let k = 0;
      for (const x of v) if (k++ < 50) walk(x, `${path}{}`, depth + 1);
      return;
    }
    if (Array.isArray(v)) {
      if (v.length) out.set(path, (out.get(path) ?? 0) + v.length);
      return;
    }
    for (const key of Object.keys(v as object)) {
      let x: unknown;
      try {
        x = (v as Record<string, unknown>)[key];
      } catch {
        continue;
      }
      walk(x, `${path}.${key}`, depth + 1);
    }
  };
  walk(root, upstream ? 'bridges' : 'bridge', 0);
  return out;
}

function handles(): Record<string, number> {
  const out: Record<string, number> = {};
  for (const x of process.getActiveResourcesInfo()) out[x] = (out[x] ?? 0) + 1;
  return out;
}

/** Processes started by this one (adb servers detach, so they are counted by their port instead). */
function children(): string {
  const ps = spawnSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)], { encoding: 'utf8' }).stdout.trim();
  const mine = ps.split('\n').map((l) => l.trim().split(/\s+/).slice(1, 3).join(' ')).filter((l) => l && !l.startsWith('ps '));
  return mine.length ? mine.join(', ') : 'none';
}

/** Open TCP sockets by the port pair's well-known end: the bridge, the adb server, the phone's adbd, or other. */
function sockets(): Record<string, number> {
  const names = new Map<number, string>([[Number(new URL(bridge.wsUrl).port), 'bridge'], ...(rig ? [[rig.server.port, 'adb-server'] as [number, string], [rig.phone.adbd.port, 'adbd'] as [number, string]] : [])]);
  const out: Record<string, number> = {};
  for (const h of (process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles()) {
    if (!(h instanceof Socket)) continue;
    if (h.remotePort === undefined) {
      const id = (h as unknown as { _handle?: { getAsyncId(): number } })._handle?.getAsyncId();
      const k = `closed by peer (ended=${h.readableEnded}/${h.writableEnded}) ${process.env.SOAK_STACKS ? (id !== undefined ? created.get(id) : '?') : ''}`;
      out[k] = (out[k] ?? 0) + 1;
      continue;
    }
    const key = `${names.get(h.localPort!) ?? 'local'}→${names.get(h.remotePort) ?? 'other'}`;
    out[key] = (out[key] ?? 0) + 1;
  }
  return out;
}

async function replug(): Promise<void> {
  const port = rig!.phone.adbd.port;
  await rig!.phone.adbd.close();
  await rig!.server.waitForState(rig!.phone.serial, undefined, 30_000).catch(() => undefined);
  await rig!.phone.adbd.listen(port);
  await rig!.server.waitForState(rig!.phone.serial, 'device', 30_000).catch(() => undefined);
}

const gc = (globalThis as { gc?: () => void }).gc;
// On the emulated phone one viewer watches live video through every replug.
const watcher = rig ? await BridgeClient.connect({ url: bridge.wsUrl, client: 'watcher', createSocket: nodeSocketFactory() }) : undefined;
await watcher?.subscribe(DEVICE, { screen: { format: 'h264', maxFps: 10 } });
let previous = new Map<string, number>();
let user = 0;
for (let round = 0; round <= ROUNDS; round++) {
  if (round > 0) {
    for (let k = 0; k < PER_ROUND; k += 4) {
      await Promise.all([0, 1, 2, 3].map(() => oneUser(user++)));
      if (rig && (k / 4) % REPLUG === REPLUG - 1) await replug();
    }
  }
  await sleep(1500);
  gc?.();
  const now = collections(upstream ? { here: bridge, peer: upstream } : bridge);
  const grown = [...now].filter(([k, n]) => round > 0 && n > (previous.get(k) ?? 0)).map(([k, n]) => `${k}: ${previous.get(k) ?? 0} → ${n}`);
  console.log(
    `round ${round} users ${user}: handles ${JSON.stringify(handles())} heap ${(getHeapStatistics().used_heap_size / 1e6).toFixed(1)} MB` +
      ` rss ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB sessions ${bridge.sessions.size} children [${children()}]${rig ? ` scrcpy servers ${rig.phone.scrcpy.servers}` : ''} warnings ${warnings} unhandled ${unhandled}`,
  );
  console.log(`  sockets ${JSON.stringify(sockets())}`);
  if (grown.length) console.log(`  grown: ${grown.join('; ')}`);
  previous = now;
}
await watcher?.close();
const tempBefore = new Set(readdirSync(tmpdir()));
await bridge.close();
await upstream?.close();
await rig?.stop();
console.log(`after close: children [${children()}]${rig ? ` scrcpy servers ${rig.phone.scrcpy.servers}` : ''} resources ${JSON.stringify(handles())}`);
const left = readdirSync(tmpdir()).filter((f) => f.startsWith('mobilebridge') || f.startsWith('mb-'));
console.log(`temp folder entries of ours after close: ${left.length} (${left.slice(0, 5).join(', ')}); ${[...tempBefore].filter((f) => f.startsWith('mobilebridge')).length} before close`);
rmSync(OUT, { recursive: true, force: true });
