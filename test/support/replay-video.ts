import type { CallContext, DeviceHandle, Driver, VideoOptions, VideoPacket, VideoStream } from '../../src/engine/driver.js';
import { VirtualDriver } from '../../src/engine/drivers/virtual/index.js';
import type { DeviceInfo } from '../../src/engine/types.js';
import type { ClipPacket } from './h264-clip.js';

/** What a test makes the replay device's video do. */
export interface ReplayControl {
  /** When set, openVideo throws this (scrcpy could not start). */
  failStart?: string;
  /** Packets paced at this rate (default 30 fps). */
  fps: number;
  opened: number;
  closed: number;
  /** performance.now() when a stream was last closed. */
  closedAt?: number;
  keyRequests: number;
  /** Streams open now. */
  live: Set<ReplayStream>;
}

/**
 * A device with live video for bridge tests: screenshots, elements and input from a virtual
 * Android phone, and `openVideo` replaying an H.264 clip in a loop at the clip's frame rate, with
 * a fresh config + key frame on `requestKeyFrame` (like scrcpy's RESET_VIDEO) and a way to break
 * the stream (an encoder dying) from the test.
 */
export function replayVideoDriver(clip: ClipPacket[], size: { width: number; height: number }, id = 'replay-android-1'): { driver: Driver; control: ReplayControl } {
  const control: ReplayControl = { fps: 30, opened: 0, closed: 0, keyRequests: 0, live: new Set() };
  const virtual = new VirtualDriver({ devices: ['android'], screen: { android: { width: size.width, height: size.height } } });
  const base = virtual.devices[0] as unknown as DeviceHandle;
  const info: DeviceInfo = { ...base.info, id, model: 'Replay video phone' };
  const handle = new Proxy(base, {
    get(target, prop) {
      if (prop === 'info') return info;
      if (prop === 'openVideo') {
        return async (options: VideoOptions) => {
          if (control.failStart) throw new Error(control.failStart);
          control.opened++;
          const stream = new ReplayStream(clip, size, control, options);
          control.live.add(stream);
          return stream;
        };
      }
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  const driver: Driver = {
    name: 'replay',
    listDevices: async () => [info],
    open: async (wanted: string, _ctx: CallContext) => (wanted === id ? handle : undefined),
    close: async () => {
      for (const s of control.live) await s.close();
      await virtual.close();
    },
  };
  return { driver, control };
}

export class ReplayStream implements VideoStream {
  readonly codec = 'h264';
  readonly source = 'scrcpy';
  private next = 0;
  private closed = false;
  private failure?: Error;
  private wake?: () => void;

  constructor(
    private readonly clip: ClipPacket[],
    private readonly size: { width: number; height: number },
    private readonly control: ReplayControl,
    readonly options: VideoOptions,
  ) {}

  requestKeyFrame(): void {
    this.control.keyRequests++;
    this.next = 0;
  }

  /** The encoder dies: the packet iterator throws. */
  break(message: string): void {
    this.failure = new Error(message);
    this.wake?.();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.control.closed++;
    this.control.closedAt = performance.now();
    this.control.live.delete(this);
    this.wake?.();
  }

  async *packets(): AsyncIterable<VideoPacket> {
    let due = performance.now();
    while (!this.closed) {
      if (this.failure) throw this.failure;
      const p = this.clip[this.next];
      this.next = (this.next + 1) % this.clip.length;
      yield { data: p.data, config: p.config, key: p.key, capturedAt: Date.now(), width: this.size.width, height: this.size.height };
      if (p.config) continue;
      // Like an encoder fed in real time: a late tick is not made up for by a burst.
      due = Math.max(due + 1000 / this.control.fps, performance.now());
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, Math.max(0, due - performance.now()));
        this.wake = done;
        function done() {
          clearTimeout(timer);
          resolve();
        }
      });
      this.wake = undefined;
    }
  }
}
