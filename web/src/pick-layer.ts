import { cssToDevice, type Point, type ScreenFit } from './geometry.js';

export interface PickLayerEvents {
  /** The pointer is over this device pixel (undefined: it left). */
  hover(p: Point | undefined): void;
  /** A click on this device pixel: inspect the element there. */
  pick(p: Point): void;
  /** Pick was turned on or off: the screen's own key input follows (off while picking). */
  changed?(on: boolean): void;
}

/**
 * "Pick on screen" for the inspector: while it is on, a transparent layer over the device screen
 * takes the clicks, so a click selects the element under the pointer instead of tapping the
 * device (as in Appium Inspector). It sits on top of the canvas rather than inside the screen's own
 * input handling, so taps, drags and keys stay exactly as they are whenever it is off. While it is
 * on the canvas also takes no pointer input at all (`.picking`), so a layer that is not yet over
 * the canvas after a layout change lets nothing through to the device either; keys typed into a
 * focused screen are stopped by the screen itself (`changed`), since no layer can cover the focus.
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
    // Zoom and rotation resize the canvas; a window or layout change resizes the box it is centred
    // in, which moves the canvas without resizing it (a phone fitted to the height keeps its size).
    const follow = new ResizeObserver(() => this.cover());
    follow.observe(canvas);
    if (canvas.parentElement) follow.observe(canvas.parentElement);
  }

  set(on: boolean): void {
    this.on = on;
    this.layer.hidden = !on;
    this.canvas.classList.toggle('picking', on);
    this.cover();
    this.toggle.setAttribute('aria-pressed', String(on));
    if (!on) this.events.hover(undefined);
    this.events.changed?.(on);
  }

  /**
   * Exactly over the canvas, in the wrap's coordinates, so it covers a zoomed screen that scrolls
   * inside the wrap as well as a fitted one (inset: 0 would cover only the wrap's first viewport).
   */
  private cover(): void {
    if (!this.on) return;
    const s = this.layer.style;
    s.left = `${this.canvas.offsetLeft}px`;
    s.top = `${this.canvas.offsetTop}px`;
    s.width = `${this.canvas.offsetWidth}px`;
    s.height = `${this.canvas.offsetHeight}px`;
  }

  private devicePoint(e: MouseEvent): Point | undefined {
    const fit = this.fit();
    if (!fit) return undefined;
    const box = this.canvas.getBoundingClientRect();
    return cssToDevice(fit, { x: e.clientX - box.left, y: e.clientY - box.top });
  }
}
