import type { Box } from './layout.js';

/** Touch slop as the emulated scrcpy-server classifies gestures (ViewConfiguration: 8 dp). */
const TOUCH_SLOP_PX = 10;

/** What a finger acts on: the phone's hit test, scroll offsets and gestures. */
export interface FingerTarget {
  now(): number;
  /** The phone's long-press time (long-press.ts): 400 ms on the virtual Android 14, UIKit's 500 ms on the virtual iPhone. */
  longPressMs(): number;
  screen(): { width: number; height: number; modal: boolean };
  /** The boxes under a point, outermost first; `outside`: a modal's outside was hit. */
  hit(x: number, y: number): { path: Box[]; outside: boolean };
  setScroll(key: string, offset: number): void;
  tap(x: number, y: number): void;
  /** True when something under the point took the long press (a list row's menu). */
  longPress(x: number, y: number): boolean;
  back(): void;
}

interface Down {
  x: number;
  y: number;
  at: number;
  moved: boolean;
  /** The long press fired while the finger was held still; true once something took it. */
  longPressed?: boolean;
  scroller?: { key: string; offset: number; max: number };
}

/**
 * The virtual phone's finger for streamed touch: the content under it follows while it is down (a
 * list scrolls by the distance moved), as a real scroll view does once the finger passed the touch
 * slop. A down outside the screen reaches no window, and the rest of its stream goes nowhere.
 *
 * The long press fires while the finger is held, as a phone's long-press timer does, not when it
 * lifts: the phone settles the finger before every call and every frame, so a screenshot taken
 * during the hold already shows the row's menu. A long press something took keeps the rest of the
 * gesture (AbsListView stops tracking a finger whose long click was performed): moving on scrolls
 * nothing and lifting taps nothing. Where nothing takes a long press, holding and then dragging
 * scrolls like any drag.
 */
export class Finger {
  private down: Down | undefined;

  constructor(private readonly target: FingerTarget) {}

  press(x: number, y: number): void {
    const { width, height } = this.target.screen();
    if (!(x >= 0 && y >= 0 && x < width && y < height)) {
      this.down = undefined;
      return;
    }
    const { path, outside } = this.target.hit(x, y);
    const box = outside ? undefined : [...path].reverse().find((b) => b.scroll)?.scroll;
    this.down = { x, y, at: this.target.now(), moved: false, scroller: box && { key: box.key, offset: box.offset, max: box.max } };
  }

  /** Fires the long press of a finger held still for the long-press time. */
  settle(): void {
    const f = this.down;
    if (!f || f.moved || f.longPressed !== undefined || this.target.now() - f.at < this.target.longPressMs()) return;
    f.longPressed = this.target.longPress(f.x, f.y);
  }

  move(x: number, y: number): void {
    const f = this.down;
    if (!f) return;
    this.settle();
    if (f.longPressed) return;
    f.moved ||= Math.hypot(x - f.x, y - f.y) > TOUCH_SLOP_PX;
    if (!f.moved || !f.scroller) return;
    // Finger up (y < start) moves the content up: the offset grows by the distance moved.
    this.target.setScroll(f.scroller.key, Math.min(f.scroller.max, Math.max(0, f.scroller.offset - Math.round(y - f.y))));
  }

  lift(x: number, y: number): void {
    const f = this.down;
    if (!f) return;
    this.move(x, y);
    this.down = undefined;
    if (f.longPressed !== undefined) return;
    if (!f.moved && Math.hypot(x - f.x, y - f.y) <= TOUCH_SLOP_PX) {
      this.target.tap(f.x, f.y);
      return;
    }
    // From the left edge to the right: gesture navigation's back, on both platforms.
    const { width, modal } = this.target.screen();
    const dx = x - f.x;
    if (f.x < width * 0.05 && dx > width * 0.25 && Math.abs(y - f.y) < dx / 2 && !modal) this.target.back();
  }

  /** The system took the gesture away: nothing more fires, content stays where the finger left it. */
  cancel(): void {
    this.down = undefined;
  }
}
