import { cssToDevice, type Point, type ScreenFit } from './geometry.js';

export interface PickLayerEvents {
  /** The pointer is over this device pixel (undefined: it left). */
  hover(p: Point | undefined): void;
  /** A click on this device pixel: inspect the element there. */
  pick(p: Point): void;
}

/**
 * "Pick on screen" for the inspector: while it is on, a transparent layer over the device screen
 * takes the clicks, so a click selects the element under the pointer instead of tapping the
 * device (as in Appium Inspector). It sits on top of the canvas rather than inside the screen's own
 * input handling, so taps, drags and keys stay exactly as they are whenever it is off.
 */
export class PickLayer {
  private on = false;

  constructor(
    private readonly layer: HTMLElement,
    private readonly toggle: HTMLElement,
    private readonly canvas: HTMLElement,
    private readonly fit: () => ScreenFit | undefined,
    private readonly events: PickLayerEvents,
  ) {
    toggle.addEventListener('click', () => this.set(!this.on));
    layer.addEventListener('pointermove', (e) => events.hover(this.devicePoint(e)));
    layer.addEventListener('pointerleave', () => events.hover(undefined));
    layer.addEventListener('click', (e) => {
      const p = this.devicePoint(e);
      if (p) events.pick(p);
    });
    document.addEventListener('keydown', (e) => {
      if (e.key === 'Escape' && this.on) this.set(false);
    });
  }

  set(on: boolean): void {
    this.on = on;
    this.layer.hidden = !on;
    this.toggle.setAttribute('aria-pressed', String(on));
    if (!on) this.events.hover(undefined);
  }

  private devicePoint(e: MouseEvent): Point | undefined {
    const fit = this.fit();
    if (!fit) return undefined;
    const box = this.canvas.getBoundingClientRect();
    return cssToDevice(fit, { x: e.clientX - box.left, y: e.clientY - box.top });
  }
}
