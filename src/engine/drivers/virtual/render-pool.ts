import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { DeviceProfile } from './profile.js';
import type { Frame } from './compose.js';
import type { Box } from './layout.js';
import type { View } from './view.js';
import type { PixelSlot } from '../../pixel-slots.js';
// Read here, on the main thread, so a bad MOBILEBRIDGE_BACKGROUND_NICE stops the program with its
// message instead of failing every renderer thread as it starts (which reads as a crash to retry).
import '../../thread-priority.js';

/** What a renderer thread needs of a frame (a Frame's screen and actions stay on the main thread). */
export interface FramePayload {
  width: number;
  height: number;
  layers: { box: Frame['layers'][number]['box']; scrim?: boolean }[];
}

export interface RenderRequest {
  id: number;
  frame: FramePayload;
  profile: DeviceProfile;
  dark: boolean;
  rgba: boolean;
  png: boolean;
  /** Where to draw the RGBA (a pixel slot, shared memory): nothing is allocated or transferred. */
  target?: { id: number; memory: SharedArrayBuffer; bytes: number };
}

export type RenderReply =
  | { id: number; width: number; height: number; rgba?: ArrayBuffer; png?: Uint8Array; error?: undefined }
  | { id: number; error: string };

export interface RenderedImages {
  width: number;
  height: number;
  rgba?: Buffer;
  png?: Buffer;
}

export interface RenderPoolStats {
  threads: number;
  renders: number;
  /** Renderer threads that died (crash, out of memory, terminated); each was replaced. */
  crashes: number;
  lastCrash?: string;
}

interface Job {
  request: RenderRequest;
  slot: number;
  attempts: number;
  resolve(images: RenderedImages): void;
  reject(err: Error): void;
}

/** One thread per core left over from the event loop's, at least one, at most four. */
export function defaultThreads(): number {
  return Math.max(1, Math.min(4, availableParallelism() - 1));
}

/**
 * Only what the painter reads, so the copy to the thread stays small: boxes scrolled out of sight
 * are skipped by the painter (svg.ts) and left out here, and views lose their child views (the
 * painter walks boxes). A long list's off-screen rows made the payload ~10× larger.
 */
function paintedBox(box: Box): Box | null {
  if (!box.visible) return null;
  const children: Box[] = [];
  for (const c of box.children) {
    const kept = paintedBox(c);
    if (kept) children.push(kept);
  }
  const view = 'children' in box.view ? ({ ...box.view, children: [] } as View) : box.view;
  return { ...box, view, children };
}

export function framePayload(frame: Frame): FramePayload {
  const layers: FramePayload['layers'] = [];
  for (const l of frame.layers) {
    const box = paintedBox(l.box);
    // A layer with nothing visible still paints nothing; an empty root keeps the layer (and its scrim) in place.
    layers.push({ box: box ?? { ...l.box, visible: null, children: [] }, scrim: l.scrim });
  }
  return { width: frame.width, height: frame.height, layers };
}

/**
 * Renderer threads for the virtual phones of the process. A device always goes to the same
 * thread, so its frames are drawn in order and its tiles and pixel buffers stay warm there.
 * A thread that dies is replaced; the frames it was drawing are drawn again once on the new
 * thread, and fail with the reason if that thread dies too. Threads do not keep the process
 * alive while idle.
 */
export class RenderPool {
  readonly stats: RenderPoolStats;
  private readonly workers: (Worker | undefined)[];
  private readonly jobs = new Map<number, Job>();
  private nextId = 0;
  private readonly idleTimers: (NodeJS.Timeout | undefined)[];

  /** A thread with nothing to draw for `idleMs` is ended: its heap and tile cache go back to the system. */
  constructor(
    readonly threads = defaultThreads(),
    private readonly idleMs = 15_000,
  ) {
    this.workers = new Array<Worker | undefined>(threads).fill(undefined);
    this.idleTimers = new Array<NodeJS.Timeout | undefined>(threads).fill(undefined);
    this.stats = { threads, renders: 0, crashes: 0 };
  }

  /** With `into`, the RGBA is drawn into that pixel slot and `rgba` is its buffer. */
  render(device: string, frame: Frame, profile: DeviceProfile, dark: boolean, want: { rgba?: boolean; png?: boolean }, into?: PixelSlot): Promise<RenderedImages> {
    const request: RenderRequest = { id: this.nextId++, frame: framePayload(frame), profile, dark, rgba: Boolean(want.rgba), png: Boolean(want.png) };
    if (into && want.rgba) request.target = { id: into.id, memory: into.memory, bytes: into.data.length };
    const drawn = new Promise<RenderedImages>((resolve, reject) => this.submit({ request, slot: slotOf(device, this.threads), attempts: 0, resolve, reject }));
    return into && want.rgba ? drawn.then((images) => ({ ...images, rgba: into.data })) : drawn;
  }

  /** Stops every thread; frames being drawn fail. A later render starts threads again. */
  async close(): Promise<void> {
    const workers = this.workers.splice(0, this.workers.length, ...new Array<Worker | undefined>(this.threads).fill(undefined));
    const jobs = [...this.jobs.values()];
    this.jobs.clear();
    for (const job of jobs) job.reject(new Error('the virtual phone renderer was closed'));
    await Promise.all(workers.map((w) => w?.terminate()));
  }

  /**
   * Starts the threads ahead of the first frame: a new thread loads sharp and the renderer
   * (~0.3 s, seconds on a loaded machine) before it can draw. Idle threads do not keep the process alive.
   */
  warm(): void {
    for (let slot = 0; slot < this.threads; slot++) this.started(slot);
  }

  /** Frames being drawn now. */
  get pending(): number {
    return this.jobs.size;
  }

  /** Ends a thread as a crash would (tests of the recovery). */
  async killThread(slot: number): Promise<void> {
    await this.workers[slot]?.terminate();
  }

  private submit(job: Job): void {
    clearTimeout(this.idleTimers[job.slot]);
    this.idleTimers[job.slot] = undefined;
    const worker = this.started(job.slot);
    if (![...this.jobs.values()].some((j) => j.slot === job.slot)) worker.ref();
    this.jobs.set(job.request.id, job);
    job.attempts++;
    worker.postMessage(job.request);
  }

  private started(slot: number): Worker {
    const existing = this.workers[slot];
    if (existing) return existing;
    const worker = new Worker(new URL('./render-worker.js', import.meta.url));
    worker.unref();
    worker.on('message', (reply: RenderReply) => this.settle(slot, reply));
    worker.on('error', (err) => this.died(slot, worker, `it failed: ${err.message}`));
    worker.on('exit', (code) => this.died(slot, worker, `it exited with code ${code}`));
    this.workers[slot] = worker;
    return worker;
  }

  private settle(slot: number, reply: RenderReply): void {
    const job = this.jobs.get(reply.id);
    if (!job) return;
    this.jobs.delete(reply.id);
    if (!this.busy(slot)) {
      this.workers[slot]?.unref();
      this.endWhenIdle(slot);
    }
    if (reply.error !== undefined) {
      job.reject(new Error(`drawing the virtual phone's screen failed: ${reply.error}`));
      return;
    }
    this.stats.renders++;
    job.resolve({
      width: reply.width,
      height: reply.height,
      rgba: reply.rgba ? Buffer.from(reply.rgba) : undefined,
      png: reply.png ? Buffer.from(reply.png.buffer, reply.png.byteOffset, reply.png.byteLength) : undefined,
    });
  }

  /** Replaces a dead thread and draws its frames again, once. */
  private died(slot: number, worker: Worker, how: string): void {
    if (this.workers[slot] !== worker) return;
    this.workers[slot] = undefined;
    const lost = [...this.jobs.values()].filter((j) => j.slot === slot);
    if (lost.length === 0 && how.endsWith('code 0')) return;
    this.stats.crashes++;
    this.stats.lastCrash = `${new Date().toISOString()}: the virtual phone renderer thread ${slot} died (${how}) with ${lost.length} frame(s) in progress; a new thread took over`;
    process.emitWarning(this.stats.lastCrash, 'MobilebridgeRenderWarning');
    for (const job of lost) {
      this.jobs.delete(job.request.id);
      if (job.attempts >= 2) job.reject(new Error(`the virtual phone renderer thread died twice while drawing this frame (${how}); retry the call`));
      else this.submit(job);
    }
  }

  private endWhenIdle(slot: number): void {
    clearTimeout(this.idleTimers[slot]);
    this.idleTimers[slot] = setTimeout(() => {
      this.idleTimers[slot] = undefined;
      const worker = this.workers[slot];
      if (!worker || this.busy(slot)) return;
      // Forgotten first, so its exit is not taken for a crash.
      this.workers[slot] = undefined;
      void worker.terminate();
    }, this.idleMs);
    this.idleTimers[slot].unref();
  }

  private busy(slot: number): boolean {
    for (const j of this.jobs.values()) if (j.slot === slot) return true;
    return false;
  }
}

function slotOf(device: string, threads: number): number {
  let h = 0;
  for (let i = 0; i < device.length; i++) h = (h * 31 + device.charCodeAt(i)) | 0;
  return Math.abs(h) % threads;
}

/** The process's renderer threads, shared by every virtual phone. */
export const renderPool = new RenderPool();

/** MOBILEBRIDGE_RENDER_THREADS=0 draws on the event loop, as before the pool (debugging, profiling). */
export const renderInThreads = process.env.MOBILEBRIDGE_RENDER_THREADS !== '0';
