import type { CallContext } from '../../../../src/engine/driver.js';
import type { VirtualDevice } from '../../../../src/engine/drivers/virtual/index.js';

const LONG_PRESS_MS = 400;
const TOUCH_SLOP_PX = 10;
const ctx = (): CallContext => ({ signal: new AbortController().signal });

/**
 * Turns injected MotionEvents (device pixels) into what the virtual phone understands: a down and up
 * close together is a tap, held long a long press, moved beyond the touch slop a swipe, as Android's
 * GestureDetector would classify them.
 */
export class TouchGestures {
  private down: { x: number; y: number; at: number; moved: boolean } | undefined;

  constructor(private readonly phone: VirtualDevice) {}

  async event(action: 'down' | 'move' | 'up', x: number, y: number): Promise<string | undefined> {
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
    const held = Date.now() - start.at;
    if (start.moved || Math.hypot(x - start.x, y - start.y) > TOUCH_SLOP_PX) {
      await this.phone.swipe(start.x, start.y, x, y, Math.max(1, held), ctx()).catch(() => undefined);
      return `swipe ${start.x},${start.y}->${x},${y}`;
    }
    if (held >= LONG_PRESS_MS) {
      await this.phone.longPress(start.x, start.y, held, ctx()).catch(() => undefined);
      return `longPress ${start.x},${start.y}`;
    }
    await this.phone.tap(start.x, start.y, ctx()).catch(() => undefined);
    return `tap ${start.x},${start.y}`;
  }
}
