import type { Point, Size } from './geometry.js';

/** The drag that stands for wheel turns: a finger on the pointer's spot, moved against the scroll. */
export interface WheelDrag {
  from: Point;
  to: Point;
}

/**
 * Mouse wheel → drags on the device (issue 17). A wheel turn scrolls the drawn screen by the distance
 * the browser would scroll a page (already converted to device pixels); turns made while a drag is
 * still on its way add up into the next one, so a fast wheel becomes a few long drags instead of a
 * queue of short ones. The finger starts where the pointer is, so the element under it scrolls.
 */
export class WheelScroller {
  private pending: { at: Point; dx: number; dy: number } | undefined;
  private busy = false;

  constructor(
    private readonly screen: () => Size | undefined,
    private readonly perform: (drag: WheelDrag) => Promise<void>,
  ) {}

  turn(at: Point, dx: number, dy: number): void {
    this.pending = this.pending ? { at, dx: this.pending.dx + dx, dy: this.pending.dy + dy } : { at, dx, dy };
    if (!this.busy) void this.drain();
  }

  private async drain(): Promise<void> {
    this.busy = true;
    try {
      while (this.pending) {
        const { at, dx, dy } = this.pending;
        this.pending = undefined;
        const drag = wheelDrag(at, dx, dy, this.screen());
        if (drag) await this.perform(drag).catch(() => undefined);
      }
    } finally {
      this.busy = false;
    }
  }
}

/** Scrolling down (dy > 0) reveals what is below: the finger moves up by dy, kept on the screen. */
export function wheelDrag(at: Point, dx: number, dy: number, screen: Size | undefined): WheelDrag | undefined {
  if (!screen) return undefined;
  const clamp = (v: number, max: number) => Math.min(max - 1, Math.max(0, Math.round(v)));
  const to = { x: clamp(at.x - dx, screen.width), y: clamp(at.y - dy, screen.height) };
  if (Math.abs(to.x - at.x) < 2 && Math.abs(to.y - at.y) < 2) return undefined;
  return { from: at, to };
}
