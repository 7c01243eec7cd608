import { MAX_PINCH_SCALE, MIN_PINCH_SCALE } from '../../src/engine/pinch-bounds.js';
import type { Point } from './geometry.js';

/**
 * Turns pointer presses on the screen into the gestures the engine tools know. Pure and
 * clock-free: every input carries its time, and the caller asks `tick` when the deadline
 * from `nextDeadline` passes, so tests drive it with plain numbers.
 *
 * A single tap is held back for the double-tap window: otherwise a double-click would reach
 * the device as tap + double tap (three taps).
 */

export type SwipeDirection = 'up' | 'down' | 'left' | 'right';

export type Gesture =
  | { kind: 'tap'; at: Point }
  | { kind: 'double_tap'; at: Point }
  | { kind: 'long_press'; at: Point; durationMs: number }
  /** direction follows the finger: dragging upwards is a swipe "up" (content moves up). */
  | { kind: 'swipe'; from: Point; to: Point; direction: SwipeDirection; distance: number }
  /** Two fingers around `at`: scale > 1 spreads them (zoom in), < 1 brings them together. */
  | { kind: 'pinch'; at: Point; scale: number };

/**
 * A finger streamed as it happens (issue 17): `start` once the press left the slop, or was held still
 * for `holdMs` (with the point it started from), then `move`s, then `end` on release or `cancel` when
 * the press was interrupted. A held press's finger went down `holdMs` after the press, so when it
 * lifts without having left the slop, `lateMs` asks for the lift to wait as long: the device then
 * sees the press as long as it was held, and its own tap / long-press timing decides.
 */
export type DragEvent =
  | { kind: 'start'; from: Point; at: Point }
  | { kind: 'move'; at: Point }
  | { kind: 'end'; at: Point; lateMs?: number }
  | { kind: 'cancel' };

export interface GestureOptions {
  /** When set, drags are streamed here as they happen instead of becoming one swipe on release. */
  onDrag?: (e: DragEvent) => void;
  /** How far (device pixels) a press may wander and still be a tap rather than a drag. */
  slop: number;
  /** Holding at least this long (ms) without moving is a long press (when nothing is streamed). */
  longPressMs?: number;
  /**
   * With onDrag: a press held still this long (ms) puts the finger down on the device, so the device's
   * own long-press timer runs while the user holds and a drag after it is a long-press drag (scrcpy
   * puts the finger down on the press). Shorter presses stay clicks: taps, double taps.
   */
  holdMs?: number;
  /** A second tap within this many ms of the first, near it, makes a double tap. */
  doubleTapMs?: number;
}

/** The engine's mobile_long_press_on_screen_at_coordinates accepts at most 10 s. */
export const MAX_LONG_PRESS_MS = 10_000;

interface Press { start: Point; downAt: number; dragging: boolean; secondOf?: PendingTap; streamed?: boolean; held?: boolean }
interface PendingTap { at: Point; upAt: number }

function distance(a: Point, b: Point): number {
  return Math.hypot(a.x - b.x, a.y - b.y);
}

export function swipeBetween(from: Point, to: Point): Gesture & { kind: 'swipe' } {
  const dx = to.x - from.x;
  const dy = to.y - from.y;
  const horizontal = Math.abs(dx) > Math.abs(dy);
  const direction: SwipeDirection = horizontal ? (dx < 0 ? 'left' : 'right') : dy < 0 ? 'up' : 'down';
  return { kind: 'swipe', from, to, direction, distance: Math.max(1, Math.round(Math.abs(horizontal ? dx : dy))) };
}

/** A press this close to the centre gives no usable span; a scale this close to 1 is a slip, not a pinch. */
const MIN_PINCH_RADIUS = 16;
const MIN_PINCH_CHANGE = 0.05;

/**
 * scrcpy's pinch (Ctrl + drag): a second, virtual finger mirrors the pointer through the centre of
 * the screen, so the fingers' distance is twice the pointer's distance from the centre, and the scale
 * is how that distance changed from press to release. Undefined when the drag made no pinch.
 */
export function pinchAround(center: Point, from: Point, to: Point): (Gesture & { kind: 'pinch' }) | undefined {
  const start = distance(center, from);
  if (start < MIN_PINCH_RADIUS) return undefined;
  const scale = Math.min(MAX_PINCH_SCALE, Math.max(MIN_PINCH_SCALE, Math.round((distance(center, to) / start) * 100) / 100));
  if (Math.abs(scale - 1) < MIN_PINCH_CHANGE) return undefined;
  return { kind: 'pinch', at: { x: Math.round(center.x), y: Math.round(center.y) }, scale };
}

export class GestureRecognizer {
  /** Device pixels; the viewer updates it when the zoom changes. */
  slop: number;
  private readonly longPressMs: number;
  private readonly doubleTapMs: number;
  private readonly holdMs: number;
  private readonly onDrag: ((e: DragEvent) => void) | undefined;
  private press: Press | undefined;
  private pending: PendingTap | undefined;

  constructor(options: GestureOptions) {
    this.slop = options.slop;
    this.longPressMs = options.longPressMs ?? 500;
    this.doubleTapMs = options.doubleTapMs ?? 250;
    this.holdMs = options.holdMs ?? 200;
    this.onDrag = options.onDrag;
  }

  /** True while a button is held on the screen. */
  get pressing(): boolean {
    return this.press !== undefined;
  }

  down(at: Point, time: number): Gesture[] {
    const out: Gesture[] = [];
    let secondOf: PendingTap | undefined;
    if (this.pending) {
      const near = distance(this.pending.at, at) <= this.slop * 2;
      if (near && time - this.pending.upAt <= this.doubleTapMs) secondOf = this.pending;
      else out.push({ kind: 'tap', at: this.pending.at });
      this.pending = undefined;
    }
    this.press = { start: at, downAt: time, dragging: false, secondOf };
    return out;
  }

  move(at: Point, _time: number): Gesture[] {
    const press = this.press;
    if (!press) return [];
    const left = !press.dragging && distance(press.start, at) > this.slop;
    if (left) press.dragging = true;
    if (left && !press.streamed && this.onDrag) return this.stream(press, at);
    if (press.streamed) this.onDrag?.({ kind: 'move', at });
    return [];
  }

  /** The press becomes a finger on the device; the first tap of a would-be double tap is a tap after all, sent first. */
  private stream(press: Press, at: Point): Gesture[] {
    const out: Gesture[] = press.secondOf ? [{ kind: 'tap', at: press.secondOf.at }] : [];
    press.secondOf = undefined;
    press.streamed = true;
    this.onDrag!({ kind: 'start', from: press.start, at });
    return out;
  }

  /** When a press still held in place starts streaming, or undefined. */
  private holdDeadline(): number | undefined {
    const press = this.press;
    return press && this.onDrag && !press.streamed && !press.dragging ? press.downAt + this.holdMs : undefined;
  }

  up(at: Point, time: number): Gesture[] {
    const press = this.press;
    if (!press) return [];
    this.press = undefined;
    if (press.streamed) {
      this.onDrag?.(press.held && !press.dragging ? { kind: 'end', at, lateMs: this.holdMs } : { kind: 'end', at });
      return [];
    }
    if (distance(press.start, at) > this.slop) press.dragging = true;
    const held = time - press.downAt;

    if (press.secondOf && !press.dragging && held < this.longPressMs) return [{ kind: 'double_tap', at: press.secondOf.at }];
    const out: Gesture[] = [];
    if (press.secondOf) out.push({ kind: 'tap', at: press.secondOf.at });
    if (press.dragging) {
      // Dragged away and back: no direction to swipe in, and not a tap either.
      if (distance(press.start, at) > this.slop) out.push(swipeBetween(press.start, at));
    } else if (held >= this.longPressMs) out.push({ kind: 'long_press', at: press.start, durationMs: Math.min(MAX_LONG_PRESS_MS, Math.round(held)) });
    else this.pending = { at: press.start, upAt: time };
    return out;
  }

  /** The pointer left or the press was interrupted: nothing is sent for it. */
  cancel(): Gesture[] {
    const press = this.press;
    this.press = undefined;
    if (press?.streamed) this.onDrag?.({ kind: 'cancel' });
    return press?.secondOf ? [{ kind: 'tap', at: press.secondOf.at }] : [];
  }

  /** When `tick` next has something to do (release a held-back tap, stream a held press), or undefined. */
  nextDeadline(): number | undefined {
    return this.pending ? this.pending.upAt + this.doubleTapMs : this.holdDeadline();
  }

  /**
   * Releases a held-back tap now. A key pressed meanwhile means the click was no first half of a
   * double click, and the tap must reach the device before the key: it may move the focus.
   */
  flush(): Gesture[] {
    const pending = this.pending;
    this.pending = undefined;
    return pending ? [{ kind: 'tap', at: pending.at }] : [];
  }

  tick(time: number): Gesture[] {
    const hold = this.holdDeadline();
    if (hold !== undefined && time >= hold) {
      this.press!.held = true;
      return this.stream(this.press!, this.press!.start);
    }
    if (!this.pending || time < this.pending.upAt + this.doubleTapMs) return [];
    const tap: Gesture = { kind: 'tap', at: this.pending.at };
    this.pending = undefined;
    return [tap];
  }
}
