import { Worker } from 'node:worker_threads';
import { mappedSharedMemory } from '../engine/mapped-memory.js';
import { PixelSlotPool, type PixelSlot } from '../engine/pixel-slots.js';
import type { PixelBuffer } from './downscale.js';

/**
 * One RGBA screen to halve: its pixels are in `input` from `offset`, shared memory the worker
 * reads in place; the RGB result goes into `output`, shared memory too.
 */
export interface ShrinkRequest {
  id: number;
  input: SharedArrayBuffer;
  offset: number;
  output: SharedArrayBuffer;
  width: number;
  height: number;
}

export type ShrinkReply = { id: number; width: number; height: number; error?: undefined } | { id: number; error: string };

/** Halved pixels in a pooled slot: `release` when every encoding of them is done. */
export type HalvedPixels = PixelBuffer & { release(): void };

interface Pending {
  resolve(p: HalvedPixels): void;
  reject(err: Error): void;
  /** A copy of a capture that is not in shared memory, kept for reuse. */
  copy?: { memory: SharedArrayBuffer; bytes: number };
  output: PixelSlot;
}

/** Input buffers kept for reuse: one per screen in flight is enough (frames.ts has at most two). */
const SPARE_INPUTS = 2;

/**
 * Halves RGBA screens to RGB (downscale.ts) on one worker thread shared by every device of the process.
 * A capture already in shared memory (the virtual phones' pixel slots) is read in place: the
 * caller keeps its hold on it until the promise settles. Other captures are copied into shared
 * memory (~1–5 ms for 10 MB on the event loop): the capture buffer is still the driver's and the
 * pipeline's, so it can be neither transferred nor held by the worker. Results go into pooled
 * slots, so a steady stream of frames allocates nothing. The thread is started on first use and
 * does not keep the process alive while idle.
 */
export class Shrinker {
  private worker?: Worker;
  private readonly pending = new Map<number, Pending>();
  private spare: { memory: SharedArrayBuffer; bytes: number }[] = [];
  private nextId = 0;
  /** Halved screens: a few per device size in flight, spares dropped after idle. */
  readonly outputs = new PixelSlotPool({ spare: 4 });
  private idleTimer?: NodeJS.Timeout;

  /** The thread is ended after `idleMs` without work (its heap goes back to the system). */
  constructor(private readonly idleMs = 15_000) {}

  halve(src: PixelBuffer): Promise<HalvedPixels> {
    if (src.channels !== 4) throw new RangeError(`the frame downscaler takes RGBA pixels, got ${src.channels} channels`);
    const bytes = src.width * src.height * 4;
    let input: SharedArrayBuffer;
    let offset = 0;
    let copy: Pending['copy'];
    if (src.data.buffer instanceof SharedArrayBuffer && src.data.byteOffset % 4 === 0) {
      input = src.data.buffer;
      offset = src.data.byteOffset;
    } else {
      input = this.takeInput(bytes);
      copy = { memory: input, bytes };
      new Uint8Array(input, 0, bytes).set(src.data.subarray(0, bytes));
    }
    const output = this.outputs.take((src.width >> 1) * (src.height >> 1) * 3);
    clearTimeout(this.idleTimer);
    const worker = this.started();
    const id = this.nextId++;
    if (this.pending.size === 0) worker.ref();
    return new Promise<HalvedPixels>((resolve, reject) => {
      this.pending.set(id, { resolve, reject, copy, output });
      const req: ShrinkRequest = { id, input, offset, output: output.memory, width: src.width, height: src.height };
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

  private endWhenIdle(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      const worker = this.worker;
      if (!worker || this.pending.size > 0) return;
      this.worker = undefined;
      this.spare = [];
      void worker.terminate();
    }, this.idleMs);
    this.idleTimer.unref();
  }

  private settle(reply: ShrinkReply): void {
    const job = this.pending.get(reply.id);
    if (!job) return;
    this.pending.delete(reply.id);
    if (this.pending.size === 0) {
      this.worker?.unref();
      this.endWhenIdle();
    }
    if (job.copy && this.spare.length < SPARE_INPUTS) this.spare.push(job.copy);
    if (reply.error !== undefined) {
      this.outputs.release(job.output);
      job.reject(new Error(`downscaling a frame failed: ${reply.error}`));
      return;
    }
    const data = job.output.data.subarray(0, reply.width * reply.height * 3);
    job.resolve({ data, width: reply.width, height: reply.height, channels: 3, release: this.outputs.releaser(job.output) });
  }

  private fail(err: Error): void {
    const jobs = [...this.pending.values()];
    this.pending.clear();
    // The thread may still be writing into the slots of a job it was given: they are left to the garbage collector.
    for (const job of jobs) job.reject(err);
  }

  private takeInput(bytes: number): SharedArrayBuffer {
    // Screens of one size follow each other; a buffer of another size (rotation, other device) is dropped.
    const i = this.spare.findIndex((b) => b.bytes === bytes);
    if (i >= 0) return this.spare.splice(i, 1)[0].memory;
    if (this.spare.length >= SPARE_INPUTS) this.spare.shift();
    return mappedSharedMemory(bytes);
  }
}

/** The process's one downscaler thread, shared by the frame pipelines of all devices. */
export const shrinker = new Shrinker();
