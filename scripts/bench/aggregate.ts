/**
 * Aggregator benchmark (issue 19): what one hop through an aggregating bridge (`serve --peer`)
 * adds on loopback. Calls: tools.call round trips straight to the peer and through the aggregator,
 * interleaved; the figure is the difference of the medians. Frames: one viewer on the peer and one
 * on the aggregator watch the same device; each frame's arrival at both is matched by seq, and the
 * figure is the median of (through the aggregator − direct). Target: ≤ 2 ms median per hop.
 * Everything runs in this process (the peer, the aggregator and both clients share one event loop).
 *
 *   node dist/scripts/bench/aggregate.js   (BENCH_N calls, BENCH_FRAMES frames)
 */
import { startBridge } from '../../src/bridge/index.js';
import { Peer } from '../../src/bridge/peers/peer.js';
import { createEngine } from '../../src/engine/create.js';
import { connectBridge } from '../../src/protocol/node.js';
import { ms, row, summarize } from './stats.js';

const N = Number(process.env.BENCH_N ?? 500);
const FRAMES = Number(process.env.BENCH_FRAMES ?? 60);
const DEVICE = 'virtual-android-1';
const rate = { perSecond: 1_000_000, burst: 1_000_000 };

async function main(): Promise<void> {
  const peerBridge = await startBridge({ engine: createEngine({ virtual: { devices: ['android'] } }), port: 0, log: () => undefined, rateLimit: rate });
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

    console.log(`frames: ${FRAMES} screen changes, 540 px JPEG, one viewer direct and one through the aggregator\n`);
    const seen = new Map<number, { direct?: number; through?: number }>();
    direct.onFrame((f) => (seen.get(f.header.seq) ?? seen.set(f.header.seq, {}).get(f.header.seq)!).direct = performance.now());
    through.onFrame((f) => (seen.get(f.header.seq) ?? seen.set(f.header.seq, {}).get(f.header.seq)!).through = performance.now());
    await direct.subscribe(DEVICE, { screen: { format: 'jpeg', maxWidth: 540, maxFps: 60 } });
    await through.subscribe(DEVICE, { screen: { format: 'jpeg', maxWidth: 540, maxFps: 60 } });
    await direct.callTool('mobile_launch_app', { device: DEVICE, packageName: 'com.mobilebridge.demo' });
    for (let i = 0; i < FRAMES; i++) {
      // Alternate two screens so every capture differs; wait for it to reach both viewers.
      await direct.callTool('mobile_swipe_on_screen', { device: DEVICE, direction: i % 2 ? 'down' : 'up' });
      await direct.callTool('mobile_press_button', { device: DEVICE, button: i % 2 ? 'HOME' : 'BACK' });
      await direct.callTool('mobile_launch_app', { device: DEVICE, packageName: 'com.mobilebridge.demo' });
      await new Promise((r) => setTimeout(r, 40));
    }
    await new Promise((r) => setTimeout(r, 300));
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
