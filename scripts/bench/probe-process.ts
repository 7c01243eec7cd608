/**
 * The benchmark's agent in a process of its own (bridge.ts forks it): times `tools.call` on a
 * device that is not streaming, 100 times a second, until told to stop, then sends the latencies
 * back. Its own event loop does nothing else, so the figures are the bridge's and the network's,
 * not the benchmark's viewers' (which parse 300 frames a second on theirs).
 *
 *   forked with: <ws url> <device>; message "reset" clears the figures, "stop" ends and replies with them.
 */
import { connectBridge } from '../../src/protocol/node.js';

const [url, device] = process.argv.slice(2);
if (!url || !device || !process.send) {
  console.error('probe-process.js is forked by scripts/bench/bridge.js with a bridge URL and a device id');
  process.exit(2);
}
const INTERVAL_MS = 10;
let running = true;
let latencies: number[] = [];
process.on('message', (m) => {
  if (m === 'reset') latencies = [];
  if (m === 'stop') running = false;
});
const client = await connectBridge(url, { client: 'probe' });
process.send({ ready: true });
while (running) {
  const t = performance.now();
  await client.callTool('mobile_get_screen_size', { device });
  latencies.push(performance.now() - t);
  await new Promise((r) => setTimeout(r, INTERVAL_MS));
}
await client.close();
process.send({ latencies }, () => process.exit(0));
