/**
 * Aggregator benchmark (issue 19): what one hop through an aggregating bridge (`serve --peer`)
 * adds on loopback. Calls: tools.call round trips straight to the peer and through the aggregator,
 * interleaved; the figure is the difference of the medians. Frames: one viewer on the peer and one
 * on the aggregator watch the same device (`replay-raw-1` of bench/bridge-server.ts, whose screen
 * changes on every capture); each frame's arrival at both is matched by seq, and the figure is the
 * median of (through the aggregator − direct). Target: ≤ 2 ms median per hop. The peer runs in its
 * own process; the aggregator and both clients share this one.
 *
 *   node dist/scripts/bench/aggregate.js   (BENCH_N calls, BENCH_SECONDS of frames)
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startBridge } from '../../src/bridge/index.js';
import { Peer } from '../../src/bridge/peers/peer.js';
import { createEngine } from '../../src/engine/create.js';
import { connectBridge } from '../../src/protocol/node.js';
import { ms, row, summarize } from './stats.js';

const N = Number(process.env.BENCH_N ?? 500);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const DEVICE = 'virtual-android-1';
const STREAM = 'replay-raw-1';
const rate = { perSecond: 1_000_000, burst: 1_000_000 };

async function main(): Promise<void> {
  const server = spawn(process.execPath, [fileURLToPath(new URL('./bridge-server.js', import.meta.url))], { stdio: ['ignore', 'pipe', 'inherit'] });
  const peerUrl = await new Promise<string>((resolve, reject) => {
    let out = '';
    server.stdout.on('data', (c: Buffer) => {
      out += c;
      const line = /^(ws:\S+)$/m.exec(out);
      if (line) resolve(line[1]);
    });
    server.once('exit', (code) => reject(new Error(`the peer bridge exited (${code})`)));
  });
  const peerBridge = { wsUrl: peerUrl, close: async () => { server.kill('SIGTERM'); await new Promise((r) => server.once('exit', r)); } };
  const peer = new Peer({ name: 'lab1', url: peerBridge.wsUrl });
  const agg = await startBridge({ engine: createEngine({ virtual: false, extraDrivers: [peer] }), port: 0, peers: [peer], log: () => undefined, rateLimit: rate });
  for (let i = 0; i < 200 && !peer.owns(DEVICE); i++) await new Promise((r) => setTimeout(r, 25));
  const direct = await connectBridge(peerBridge.wsUrl, { client: 'bench-direct' });
  const through = await connectBridge(agg.wsUrl, { client: 'bench-aggregated' });
  try {
    console.log(`tools.call mobile_get_screen_size, ${N} calls each, interleaved\n`);
    const d: number[] = [];
    const a: number[] = [];
    for (let i = 0; i < N + 50; i++) {
      for (const [client, out] of [[direct, d], [through, a]] as const) {
        const t = performance.now();
        await client.callTool('mobile_get_screen_size', { device: DEVICE });
        if (i >= 50) out.push(performance.now() - t);
      }
    }
    const sd = summarize(d);
    const sa = summarize(a);
    console.log(row('direct to the peer', sd));
    console.log(row('through the aggregator', sa));
    console.log(`added per hop (median difference)                ${ms(sa.median - sd.median)}\n`);

    console.log(`frames: ${SECONDS} s of ${STREAM} (a new screen every capture), 540 px JPEG at up to 30 fps, one viewer direct and one through the aggregator\n`);
    const seen = new Map<number, { direct?: number; through?: number }>();
    const at = (seq: number) => seen.get(seq) ?? seen.set(seq, {}).get(seq)!;
    direct.onFrame((f) => (at(f.header.seq).direct = performance.now()));
    through.onFrame((f) => (at(f.header.seq).through = performance.now()));
    await direct.subscribe(STREAM, { screen: { format: 'jpeg', maxWidth: 540, maxFps: 30 } });
    await through.subscribe(STREAM, { screen: { format: 'jpeg', maxWidth: 540, maxFps: 30 } });
    await new Promise((r) => setTimeout(r, SECONDS * 1000));
    await direct.close();
    await through.close();
    const added = [...seen.values()].filter((s) => s.direct !== undefined && s.through !== undefined).map((s) => s.through! - s.direct!);
    const stats = agg.peers!.stats().lab1;
    console.log(row('frame arrival, aggregator minus direct', summarize(added)));
    console.log(`frames received from the peer by the relay: ${stats.received}, sent on: ${stats.sent}, peer subscriptions: ${stats.upstreamSubscriptions}`);
  } finally {
    await direct.close();
    await through.close();
    await agg.close();
    await peerBridge.close();
  }
}

await main();
