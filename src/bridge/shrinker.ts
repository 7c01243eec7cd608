import { Worker } from 'node:worker_threads';
import type { PixelBuffer } from './downscale.js';

/** One RGBA screen to halve: its pixels are in `input`, shared memory the worker reads in place. */
export interface ShrinkRequest {
  id: number;
  input: SharedArrayBuffer;
  width: number;
  height: number;
}

export type ShrinkReply = { id: number; data: ArrayBuffer; width: number; height: number; error?: undefined } | { id: number; error: string };

interface Pending {
  resolve(p: PixelBuffer): void;
  reject(err: Error): void;
  input: SharedArrayBuffer;
}

/** Input buffers kept for reuse: one per screen in flight is enough (frames.ts has at most two). */
const SPARE_INPUTS = 2;

/**
 * Halves RGBA screens to RGB (downscale.ts) on one worker thread shared by every device of the process.
 * The capture is copied into shared memory (~1 ms for 10 MB, the only cost left on the event
 * loop) rather than posted, because the capture buffer is still the driver's and the pipeline's
 * (compared with the next capture), so it can be neither transferred nor held by the worker.
 * The thread is started on first use and does not keep the process alive while idle.
 */
export class Shrinker {
  private worker?: Worker;
  private readonly pending = new Map<number, Pending>();
  private spare: SharedArrayBuffer[] = [];
  private nextId = 0;

  halve(src: PixelBuffer): Promise<PixelBuffer> {
    if (src.channels !== 4) throw new RangeError(`the frame downscaler takes RGBA pixels, got ${src.channels} channels`);
    const bytes = src.width * src.height * 4;
    const input = this.takeInput(bytes);
    new Uint8Array(input, 0, bytes).set(src.data.subarray(0, bytes));
    const worker = this.started();
    const id = this.nextId++;
    if (this.pending.size === 0) worker.ref();
    return new Promise<PixelBuffer>((resolve, reject) => {
      this.pending.set(id, { resolve, reject, input });
      const req: ShrinkRequest = { id, input, width: src.width, height: src.height };
      worker.postMessage(req);
    });
  }

  /** Stops the thread; screens still being shrunk fail. A later shrink starts a new thread. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    this.fail(new Error('the frame downscaler was closed'));
    await worker?.terminate();
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(new URL('./shrink-worker.js', import.meta.url));
    worker.unref();
    worker.on('message', (reply: ShrinkReply) => this.settle(reply));
    worker.on('error', (err) => {
      if (this.worker === worker) this.worker = undefined;
      this.fail(new Error(`the frame downscaler thread failed (${err.message}); it restarts with the next frame`));
    });
    worker.on('exit', (code) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.fail(new Error(`the frame downscaler thread exited (code ${code}); it restarts with the next frame`));
    });
    this.worker = worker;
    return worker;
  }

  private settle(reply: ShrinkReply): void {
    const job = this.pending.get(reply.id);
    if (!job) return;
    this.pending.delete(reply.id);
    if (this.pending.size === 0) this.worker?.unref();
    if (this.spare.length < SPARE_INPUTS) this.spare.push(job.input);
    if (reply.error !== undefined) job.reject(new Error(`downscaling a frame failed: ${reply.error}`));
    else job.resolve({ data: Buffer.from(reply.data), width: reply.width, height: reply.height, channels: 3 });
  }

  private fail(err: Error): void {
    const jobs = [...this.pending.values()];
    this.pending.clear();
    for (const job of jobs) job.reject(err);
  }

  private takeInput(bytes: number): SharedArrayBuffer {
    // Screens of one size follow each other; a buffer of another size (rotation, other device) is dropped.
    const i = this.spare.findIndex((b) => b.byteLength === bytes);
    if (i >= 0) return this.spare.splice(i, 1)[0];
    if (this.spare.length >= SPARE_INPUTS) this.spare.shift();
    return new SharedArrayBuffer(bytes);
  }
}

/** The process's one downscaler thread, shared by the frame pipelines of all devices. */
export const shrinker = new Shrinker();
