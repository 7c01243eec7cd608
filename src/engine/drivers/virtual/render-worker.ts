/**
 * A virtual phones' renderer thread (started by render-pool.ts): paints, composites and encodes
 * frames so that none of it holds up the event loop that serves tools, protocol traffic and the
 * runner. Keeps its own tile cache and pixel buffers, warm for the devices routed to it.
 */
import { parentPort } from 'node:worker_threads';
import { lowerThisThread } from '../../thread-priority.js';
import type { Frame } from './compose.js';
import type { RenderReply, RenderRequest } from './render-pool.js';
import { renderFrame } from './render.js';

if (!parentPort) throw new Error('render-worker.js runs as a worker thread of mobilebridge (src/engine/drivers/virtual/render-pool.ts), not on its own');
const port = parentPort;
// Frames wait for calls, not the other way round (thread-priority.ts).
lowerThisThread();

port.on('message', (req: RenderRequest) => {
  void (async () => {
    try {
      // framePaint reads only the size and the layers' boxes and scrims: the rest of a Frame stays on the main thread.
      const target = req.target && { id: req.target.id, buffer: Buffer.from(req.target.memory, 0, req.target.bytes) };
      const screen = await renderFrame(req.frame as Frame, req.profile, req.dark, undefined, target);
      const png = req.png ? await screen.png() : undefined;
      // Into a caller's slot: the pixels are already where the caller reads them. Else with a PNG
      // the buffer stays pooled (a copy goes out); RGBA alone hands the frame's own buffer over, uncopied.
      const rgba = req.rgba && !target ? (png ? screen.copyRgba() : screen.rgba()) : undefined;
      screen.release();
      // Transferred, not copied: the buffer is unpooled, so its ArrayBuffer holds exactly these pixels.
      const reply: RenderReply = { id: req.id, width: screen.width, height: screen.height, rgba: rgba?.buffer as ArrayBuffer | undefined, png };
      port.postMessage(reply, rgba ? [rgba.buffer as ArrayBuffer] : []);
    } catch (err) {
      const reply: RenderReply = { id: req.id, error: (err as Error).message };
      port.postMessage(reply);
    }
  })();
});
