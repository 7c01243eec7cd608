/**
 * Streamed touch benchmark (issue 17): a client sends input.touch moves at a pointer's rate (120 Hz,
 * without waiting for answers, the worst case for a queue) to a virtual phone over the bridge, for
 * devices that take 0, 20 and 100 ms per event. Figures: moves sent vs. moves that reached the device
 * (the rest were merged into later ones), how far the device lags the pointer when it stops (last
 * move sent → its answer), and the round trip of one move when nothing waits. Asserts nothing.
 *
 *   npm run build && node dist/scripts/bench/touch-stream.js   (BENCH_SECONDS per device, default 2)
 */
import { startBridge } from '../../src/bridge/index.js';
import { createEngine } from '../../src/engine/create.js';
import { connectBridge } from '../../src/protocol/node.js';
import { ms, row, summarize } from './stats.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
const RATE_HZ = 120;
const DEVICE = 'virtual-android-1';

async function run(latencyMs: number): Promise<void> {
  const bridge = await startBridge({ engine: createEngine({ virtual: { devices: ['android'], latencyMs } }), port: 0, log: () => undefined, rateLimit: { perSecond: 1_000_000, burst: 1_000_000 } });
  const client = await connectBridge(bridge.wsUrl, { client: 'bench-touch' });
  try {
    await client.callTool('mobile_open_url', { device: DEVICE, url: 'mbdemo://screen/home' });
    const touch = (action: 'down' | 'move' | 'up', y: number) => client.request('input.touch', { device: DEVICE, action, x: 540, y }) as Promise<{ coalesced?: boolean; status: string }>;
    // Round trip of a lone move (nothing queued ahead), then the flood.
    await touch('down', 2000);
    const lone: number[] = [];
    for (let i = 0; i < 50; i++) {
      const t = performance.now();
      await touch('move', 2000 - i);
      lone.push(performance.now() - t);
    }
    const answers: Promise<{ coalesced?: boolean; status: string }>[] = [];
    const count = Math.round(SECONDS * RATE_HZ);
    let lastSentAt = 0;
    for (let i = 0; i < count; i++) {
      lastSentAt = performance.now();
      answers.push(touch('move', 1900 - Math.round((i * 1200) / count)));
      await new Promise((r) => setTimeout(r, 1000 / RATE_HZ));
    }
    const results = await Promise.all(answers);
    const caughtUp = performance.now() - lastSentAt;
    await touch('up', 700);
    const merged = results.filter((r) => r.coalesced).length;
    const failed = results.filter((r) => r.status !== 'success').length;
    console.log(`device ${String(latencyMs).padStart(3)} ms/event: ${count} moves sent at ${RATE_HZ} Hz, ${count - merged} reached the device (${((merged / count) * 100).toFixed(0)}% merged), ${failed} failed; lag when the pointer stops ${ms(caughtUp)}`);
    console.log(`  ${row('lone move round trip', summarize(lone))}`);
  } finally {
    await client.close();
    await bridge.close();
  }
}

for (const latency of [0, 20, 100]) await run(latency);
