import type { CallContext } from '../../../../src/engine/driver.js';
import type { VirtualDevice } from '../../../../src/engine/drivers/virtual/index.js';
import type { TouchPhase } from '../../../../src/engine/types.js';

const LONG_PRESS_MS = 400;
const TOUCH_SLOP_PX = 10;
const ctx = (): CallContext => ({ signal: new AbortController().signal });

/**
 * Injected MotionEvents (device pixels) reach the virtual phone as they come, the way InputManager
 * hands them to the app: its lists follow a moving finger, a down and up in place taps. For the
 * tests' log, a finished gesture is also named as Android's GestureDetector would classify it
 * (tap, long press, swipe).
 */
export class TouchGestures {
  private down: { x: number; y: number; at: number; moved: boolean } | undefined;

  constructor(private readonly phone: VirtualDevice) {}

  async event(action: TouchPhase, x: number, y: number): Promise<string | undefined> {
    await this.phone.touch(action, x, y, ctx()).catch(() => undefined);
    if (action === 'down') {
      this.down = { x, y, at: Date.now(), moved: false };
      return undefined;
    }
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
