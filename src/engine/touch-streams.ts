import type { CallContext, DeviceHandle, TracePoint } from './driver.js';
import { failure, toFailure, ToolError, type ToolFailure } from './errors.js';
import { longPressThresholdMs } from './long-press.js';
import { replayPath, type ReplayPath } from './replay-path.js';
import type { Point, TouchPhase } from './types.js';
import type { ScreenSize } from './ui-tree.js';

/** What a touch stream needs from the engine: the device queue, the screen size, and the one activity entry. */
export interface TouchHost {
  /**
   * Runs on the device's queue under the call deadline, `longerMs` later for work that takes that long on the
   * device (a gesture replayed in real time); throws ToolError.
   */
  run<T>(device: string, what: string, work: (handle: DeviceHandle, ctx: CallContext) => Promise<T>, longerMs?: number): Promise<T>;
  screenSize(device: string, handle: DeviceHandle, ctx: CallContext): Promise<ScreenSize>;
  /** The stream ended (up or cancel): report it once, as one action. */
  finished(entry: { device: string; origin: string; parameters: Record<string, unknown>; result: unknown; durationMs: number }): void;
}

export interface TouchResult {
  status: 'success';
  /** True when the device follows the finger as it moves; false when the path is replayed on release. */
  streamed: boolean;
  message?: string;
  /** Set on a move that was merged into a later one because the device was still busy. */
  coalesced?: true;
}

interface Stream {
  device: string;
  origin: string;
  /** Undecided until the device answered the down. */
  mode: 'pending' | 'stream' | 'replay';
  why?: string;
  from: Point;
  last: Point;
  startedAt: number;
  path: TracePoint[];
  moves: number;
  coalesced: number;
  /** The one move waiting in the device queue; later moves only update its point. */
  waiting?: { point: Point; done: Promise<TouchResult | ToolFailure> };
  idle?: NodeJS.Timeout;
}

/** A finger left down by a client that vanished is lifted (cancelled) after this long without events. */
const IDLE_CANCEL_MS = 15_000;
/** Replayed paths keep at most this many points (thinned evenly), enough for any W3C actions gesture. */
const MAX_PATH_POINTS = 200;
/** A replayed press that moved less than this (device pixels) is a tap or long press, not a drag. */
const TAP_SLOP_PX = 8;
const LONG_PRESS_MS = 500;
/** The longest replayed gesture, as mobile_long_press_on_screen_at_coordinates allows: a longer hold is cut, and the answer says so. */
const MAX_REPLAY_MS = 10_000;

/**
 * Streamed touches, one finger per device (issue 17): down, moves and up/cancel go through the device
 * queue in order, so they never interleave with another caller's tool call. A move arriving while an
 * earlier one still waits merges into it (only the latest point is sent): a slow device is never more
 * than one move behind the finger. The whole stream is one activity entry, reported when it ends.
 */
export class TouchStreams {
  private readonly streams = new Map<string, Stream>();

  constructor(private readonly host: TouchHost) {}

  async touch(device: string, phase: TouchPhase, at: Point, origin: string): Promise<TouchResult | ToolFailure> {
    const stream = this.streams.get(device);
    if (phase === 'down') {
      if (stream && stream.origin !== origin) return busy(device, stream);
      // A second down from the same caller means its up was lost: lift the old finger first.
      if (stream) await this.end(stream, 'cancel', stream.last);
      return this.down(device, at, origin);
    }
    if (!stream) return failure('INVALID_PARAMETER', `no touch is down on ${device}: send input.touch with action "down" first (a finger is also lifted after ${IDLE_CANCEL_MS / 1000} s without events, and when the caller's connection to the bridge drops)`);
    if (stream.origin !== origin) return busy(device, stream);
    this.armIdle(stream);
    if (phase === 'move') return this.move(stream, at);
    return this.end(stream, phase, at);
  }

  /** The refusal a caller gets while another caller's finger is down on the device (it would act under that finger). */
  refusal(device: string, origin: string): ToolFailure | undefined {
    const stream = this.streams.get(device);
    return stream && stream.origin !== origin ? busy(device, stream) : undefined;
  }

  /** Lifts every finger a caller left down (its session ended). */
  cancelAll(origin: string): void {
    for (const stream of [...this.streams.values()]) if (stream.origin === origin) void this.end(stream, 'cancel', stream.last);
  }

  private async down(device: string, at: Point, origin: string): Promise<TouchResult | ToolFailure> {
    const stream: Stream = { device, origin, mode: 'pending', from: at, last: at, startedAt: performance.now(), path: [{ ...at, t: 0 }], moves: 0, coalesced: 0 };
    this.streams.set(device, stream);
    this.armIdle(stream);
    try {
      return await this.host.run(device, 'touch down', async (handle, ctx) => {
        const size = await this.host.screenSize(device, handle, ctx);
        if (!(at.x >= 0 && at.y >= 0 && at.x < size.width && at.y < size.height)) {
          throw new ToolError('INVALID_PARAMETER', `touch down at (${at.x}, ${at.y}) is outside the screen of ${device} (${size.width}x${size.height} pixels)`);
        }
        const streamed = handle.touch ? await handle.touch('down', at.x, at.y, ctx) : false;
        stream.mode = streamed ? 'stream' : 'replay';
        if (!streamed) stream.why = handle.touch ? 'this device cannot stream touches right now' : handle.tracePath ? 'this platform has no streamed touches' : 'this device has no streamed touches';
        return streamed ? { status: 'success' as const, streamed } : { status: 'success' as const, streamed, message: `${stream.why}: the drag is collected and replayed as one gesture when the finger lifts` };
      });
    } catch (err) {
      this.forget(stream);
      return toFailure(err);
    }
  }

  private move(stream: Stream, at: Point): Promise<TouchResult | ToolFailure> | TouchResult {
    stream.moves++;
    stream.last = at;
    this.addPoint(stream, at);
    if (stream.mode === 'replay') return { status: 'success', streamed: false };
    if (stream.waiting) {
      stream.waiting.point = at;
      stream.coalesced++;
      return stream.waiting.done.then((r) => ('streamed' in r ? { ...r, coalesced: true as const } : r));
    }
    const waiting: NonNullable<Stream['waiting']> = { point: at, done: undefined! };
    stream.waiting = waiting;
    waiting.done = this.host
      .run(stream.device, 'touch move', async (handle, ctx) => {
        // From here on a newer move queues behind this one instead of merging into it.
        if (stream.waiting === waiting) stream.waiting = undefined;
        if (stream.mode !== 'stream' || this.streams.get(stream.device) !== stream) return { status: 'success' as const, streamed: false };
        const p = await this.clamp(stream.device, handle, ctx, waiting.point);
        await handle.touch!('move', p.x, p.y, ctx);
        return { status: 'success' as const, streamed: true };
      })
      .catch((err: unknown) => toFailure(err));
    return waiting.done;
  }

  private async end(stream: Stream, phase: 'up' | 'cancel', at: Point): Promise<TouchResult | ToolFailure> {
    this.forget(stream);
    stream.last = at;
    this.addPoint(stream, at);
    let result: TouchResult | ToolFailure;
    let longPress = false;
    // Timed as the finger lifted: the replay keeps the hold the user made, not the wait in the device queue.
    const heldMs = Math.round(performance.now() - stream.startedAt);
    const replaying = stream.mode === 'replay' && phase === 'up';
    const drag = replaying && this.moved(stream) ? replayPath(stream.path, stream.from, TAP_SLOP_PX, LONG_PRESS_MS, MAX_REPLAY_MS) : undefined;
    const replayMs = drag ? drag.path[drag.path.length - 1].t : replaying ? Math.min(MAX_REPLAY_MS, heldMs) : 0;
    try {
      result = await this.host.run(stream.device, `touch ${phase}`, async (handle, ctx) => {
        const p = await this.clamp(stream.device, handle, ctx, at);
        // Told apart from a tap for the feed and the recorder: the device's own long-press time, not the replay's.
        longPress = phase === 'up' && !this.moved(stream) && performance.now() - stream.startedAt >= longPressThresholdMs(handle.info);
        if (stream.mode === 'stream') {
          await handle.touch!(phase, p.x, p.y, ctx);
          return { status: 'success' as const, streamed: true, message: phase === 'up' ? `dragged from (${stream.from.x}, ${stream.from.y}) to (${p.x}, ${p.y})` : 'touch cancelled' };
        }
        if (phase === 'cancel') return { status: 'success' as const, streamed: false, message: 'touch cancelled before anything was sent to the device' };
        return { status: 'success' as const, streamed: false, message: await this.replay(stream, handle, ctx, p, heldMs, drag) };
      }, replayMs);
    } catch (err) {
      result = toFailure(err);
    }
    this.host.finished({
      device: stream.device,
      origin: stream.origin,
      parameters: {
        device: stream.device,
        action: phase,
        from: stream.from,
        to: stream.last,
        moves: stream.moves,
        ...(stream.coalesced ? { coalesced: stream.coalesced } : {}),
        ...(longPress ? { long_press: true } : {}),
        duration_ms: Math.round(performance.now() - stream.startedAt),
        streamed: stream.mode === 'stream',
      },
      result,
      durationMs: performance.now() - stream.startedAt,
    });
    return result;
  }

  /** The device could not follow the finger: the whole gesture now, the best way it has. */
  private async replay(stream: Stream, handle: DeviceHandle, ctx: CallContext, to: Point, held: number, drag: ReplayPath | undefined): Promise<string> {
    const { x, y } = stream.from;
    if (!drag && held >= LONG_PRESS_MS) {
      const press = Math.min(MAX_REPLAY_MS, held);
      await handle.longPress(x, y, press, ctx);
      const cut = press < held ? ` (held ${held} ms; a replayed press lasts at most ${MAX_REPLAY_MS / 1000} s)` : '';
      return `${stream.why}: replayed as a long press of ${press} ms at (${x}, ${y}) on release${cut}`;
    }
    if (!drag) {
      await handle.tap(x, y, ctx);
      return `${stream.why}: replayed as a tap at (${x}, ${y}) on release`;
    }
    if (handle.tracePath) {
      await handle.tracePath(drag.path, ctx);
      return `${stream.why}: the path (${drag.path.length} points) was replayed as one gesture on release; the screen did not follow while dragging${holdNote(drag)}`;
    }
    await handle.swipe(x, y, to.x, to.y, Math.max(100, Math.min(held, 2000)), ctx);
    return `${stream.why}: replayed as one swipe from (${x}, ${y}) to (${to.x}, ${to.y}) on release; the screen did not follow while dragging`;
  }

  private moved(stream: Stream): boolean {
    return stream.path.some((p) => Math.hypot(p.x - stream.from.x, p.y - stream.from.y) > TAP_SLOP_PX);
  }

  /** A finger that leaves the glass stays on its edge. */
  private async clamp(device: string, handle: DeviceHandle, ctx: CallContext, p: Point): Promise<Point> {
    const size = await this.host.screenSize(device, handle, ctx);
    return { x: Math.min(size.width - 1, Math.max(0, p.x)), y: Math.min(size.height - 1, Math.max(0, p.y)) };
  }

  private addPoint(stream: Stream, p: Point): void {
    stream.path.push({ x: p.x, y: p.y, t: Math.round(performance.now() - stream.startedAt) });
    // Thin out evenly, keeping the first and last points.
    if (stream.path.length > MAX_PATH_POINTS) stream.path = stream.path.filter((_, i, all) => i % 2 === 0 || i === all.length - 1);
  }

  private armIdle(stream: Stream): void {
    clearTimeout(stream.idle);
    stream.idle = setTimeout(() => {
      if (this.streams.get(stream.device) === stream) void this.end(stream, 'cancel', stream.last);
    }, IDLE_CANCEL_MS);
    stream.idle.unref();
  }

  private forget(stream: Stream): void {
    clearTimeout(stream.idle);
    if (this.streams.get(stream.device) === stream) this.streams.delete(stream.device);
  }
}

/** What the replay made of the time the finger stayed in place before dragging, and of a gesture over the limit. */
function holdNote(drag: ReplayPath): string {
  const parts = [];
  if (drag.holdMs >= LONG_PRESS_MS) parts.push(`held ${drag.holdMs} ms in place first (a long press)${drag.heldMs ? `, cut from ${drag.heldMs} ms` : ''}`);
  else if (drag.heldMs) parts.push(`the ${drag.heldMs} ms in place before moving were cut to ${drag.holdMs} ms`);
  if (drag.sped) parts.push('the drag was played faster than made');
  return parts.length ? `; ${parts.join('; ')}${drag.heldMs || drag.sped ? ` (a replay lasts at most ${MAX_REPLAY_MS / 1000} s)` : ''}` : '';
}

function busy(device: string, stream: Stream): ToolFailure {
  return failure('PERMISSION_DENIED', `another caller (${stream.origin}) has a finger down on ${device}; wait until it lifts (up or cancel), then try again`);
}
