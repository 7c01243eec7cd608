import type { CallContext } from '../../../../src/engine/driver.js';
import type { VirtualDevice } from '../../../../src/engine/drivers/virtual/index.js';
import type { FingerPath, TouchPhase } from '../../../../src/engine/types.js';

const LONG_PRESS_MS = 400;
const TOUCH_SLOP_PX = 10;
/** PointersState.MAX_POINTERS: a pointer beyond it is refused ("Too many pointers for touch event"). */
const MAX_POINTERS = 10;
const ctx = (): CallContext => ({ signal: new AbortController().signal });

interface Pointer {
  x: number;
  y: number;
  lastX: number;
  lastY: number;
}

/**
 * Injected MotionEvents (device pixels) reach the virtual phone as they come, the way InputManager
 * hands them to the app: its lists follow a moving finger, a down and up in place taps. For the
 * tests' log, a finished gesture is also named as Android's GestureDetector would classify it
 * (tap, long press, swipe).
 *
 * Pointers are told apart by their id, as Controller.java's PointersState does: a second finger
 * going down while one is down is ACTION_POINTER_DOWN, which a view's ScaleGestureDetector takes
 * over from the one-finger gesture (cancelled here), and when the last finger is lifted the phone
 * gets the pinch the two paths made. As in PointersState, an event for an unknown id adds a pointer,
 * and only ACTION_UP removes one: a pointer left down or cancelled stays, and the next finger to go
 * down is a second one.
 */
export class TouchGestures {
  private down: { x: number; y: number; at: number; moved: boolean } | undefined;
  private readonly pointers = new Map<bigint, Pointer>();
  /** The first two fingers of a multi-touch gesture, in the order they went down. */
  private multi: Pointer[] | undefined;

  constructor(private readonly phone: VirtualDevice) {}

  async event(action: TouchPhase, x: number, y: number, pointerId = -2n): Promise<string | undefined> {
    const known = this.pointers.get(pointerId);
    if (!known && this.pointers.size >= MAX_POINTERS) return 'too many pointers';
    if (action === 'down' || !known) this.pointers.set(pointerId, { x, y, lastX: x, lastY: y });
    else {
      known.lastX = x;
      known.lastY = y;
    }
    if (this.pointers.size > 1 || this.multi) return this.multiTouch(action, pointerId);
    return this.oneFinger(action, x, y, pointerId);
  }

  private async multiTouch(action: TouchPhase, pointerId: bigint): Promise<string | undefined> {
    if (!this.multi) {
      // ACTION_POINTER_DOWN: the one-finger gesture ends without firing (the app's scale detector has it now).
      await this.phone.touch('cancel', 0, 0, ctx()).catch(() => undefined);
      this.down = undefined;
      this.multi = [...this.pointers.values()].slice(0, 2);
    }
    if (action === 'cancel') {
      // The app's gesture ends; the server's pointers stay.
      this.multi = undefined;
      return 'cancel multi-touch';
    }
    if (action === 'up') this.pointers.delete(pointerId);
    if (this.pointers.size > 0) return undefined;
    const [a, b] = this.multi;
    this.multi = undefined;
    if (!b) return 'cancel multi-touch';
    const paths: [FingerPath, FingerPath] = [
      { from: { x: a.x, y: a.y }, to: { x: a.lastX, y: a.lastY } },
      { from: { x: b.x, y: b.y }, to: { x: b.lastX, y: b.lastY } },
    ];
    await this.phone.pinch(paths, 0, ctx()).catch(() => undefined);
    return `pinch ${a.x},${a.y}->${a.lastX},${a.lastY} ${b.x},${b.y}->${b.lastX},${b.lastY}`;
  }

  private async oneFinger(action: TouchPhase, x: number, y: number, pointerId: bigint): Promise<string | undefined> {
    await this.phone.touch(action, x, y, ctx()).catch(() => undefined);
    if (action === 'down') {
      this.down = { x, y, at: Date.now(), moved: false };
      return undefined;
    }
    if (action === 'up') this.pointers.delete(pointerId);
    const start = this.down;
    if (!start) return undefined;
    if (action === 'move') {
      start.moved ||= Math.hypot(x - start.x, y - start.y) > TOUCH_SLOP_PX;
      return undefined;
    }
    this.down = undefined;
    if (action === 'cancel') return `cancel ${start.x},${start.y}`;
    if (start.moved || Math.hypot(x - start.x, y - start.y) > TOUCH_SLOP_PX) return `swipe ${start.x},${start.y}->${x},${y}`;
    if (Date.now() - start.at >= LONG_PRESS_MS) return `longPress ${start.x},${start.y}`;
    return `tap ${start.x},${start.y}`;
  }
}
