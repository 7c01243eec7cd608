/**
 * The server side of scripts/bench/load.ts, in its own process so that its memory and event loop
 * are its own: a bridge over four virtual phones. Prints the WebSocket URL, then once a second a
 * `MEM {...}` line (RSS, heap, ArrayBuffers, event-loop delay p50/p99/max of that second).
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import sharp from 'sharp';
import { startBridge } from '../../src/bridge/index.js';
import { createEngine } from '../../src/engine/create.js';

// BENCH_SHARP_CACHE=0 turns libvips' operation cache off, to see what it keeps alive.
if (process.env.BENCH_SHARP_CACHE === '0') sharp.cache(false);
const engine = createEngine({ virtual: { devices: ['android', 'android', 'ios', 'ios'] } });
const bridge = await startBridge({ engine, port: 0, log: () => undefined, rateLimit: { perSecond: 100_000, burst: 100_000 } });
process.stdout.write(`${bridge.wsUrl}\n`);

const lag = monitorEventLoopDelay({ resolution: 10 });
lag.enable();
setInterval(() => {
  const m = process.memoryUsage();
  const line = {
    rss: m.rss,
    heapUsed: m.heapUsed,
    arrayBuffers: m.arrayBuffers,
    external: m.external,
    lagP50: lag.percentile(50) / 1e6,
    lagP99: lag.percentile(99) / 1e6,
    lagMax: lag.max / 1e6,
    subscriptions: bridge.hub.stats().subscriptions,
  };
  lag.reset();
  process.stdout.write(`MEM ${JSON.stringify(line)}\n`);
}, 1000).unref();
process.on('SIGTERM', () => void bridge.close().then(() => process.exit(0)));
