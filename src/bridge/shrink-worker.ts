/**
 * The frame downscaler's thread (started by shrinker.ts): halves screens so that the ~10 ms
 * pass over a 10 MB capture never holds up the bridge's event loop (tool calls, sends).
 */
import { parentPort } from 'node:worker_threads';
import { lowerThisThread } from '../engine/thread-priority.js';
import { halveRgbaToRgb } from './downscale.js';
import type { ShrinkReply, ShrinkRequest } from './shrinker.js';

if (!parentPort) throw new Error('shrink-worker.js runs as a worker thread of the bridge (src/bridge/shrinker.ts), not on its own');
const port = parentPort;
// Frames wait for calls, not the other way round (thread-priority.ts).
lowerThisThread();

port.on('message', (req: ShrinkRequest) => {
  let reply: ShrinkReply;
  try {
    const data = Buffer.from(req.input, req.offset, req.width * req.height * 4);
    const out = halveRgbaToRgb({ data, width: req.width, height: req.height, channels: 4 }, Buffer.from(req.output));
    reply = { id: req.id, width: out.width, height: out.height };
  } catch (err) {
    reply = { id: req.id, error: (err as Error).message };
  }
  port.postMessage(reply);
});
