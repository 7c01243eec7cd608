import { keyToInput, type KeyInput } from './actions.js';
import { cssToDevice, cssToDeviceClamped, deviceRectToCss, deviceToCss, fitScreen, type Point, type Rect, type ScreenFit, type Size } from './geometry.js';
import { GestureRecognizer, pinchAround, type DragEvent, type Gesture } from './gestures.js';
import { zoomedSize, type ZoomMode } from './zoom.js';

export interface ScreenViewEvents {
  gesture(g: Gesture): void;
  key(input: KeyInput): void;
  /** The device pixel under the pointer while hovering (not pressing), or undefined when it left. */
  hover(p: Point | undefined): void;
  /** A drag as it happens (streamed to the device); without it a drag is one swipe on release. */
  drag?(e: DragEvent): void;
  /** The wheel turned over device pixel `at`; `dy`/`dx` in device pixels the content should move (positive: down/right). */
  wheel?(at: Point, dx: number, dy: number): void;
  /** Right click (or the secondary button) on the screen. */
  secondary?(at: Point): void;
  /** A key or paste arrived while the screen takes no input (setInputBlocked): why nothing was sent. */
  blocked?(reason: string): void;
}

/** A press that moves less than this many CSS pixels is still a tap, whatever the zoom. */
const SLOP_CSS_PX = 6;

/**
 * The live screen: keeps the canvas at the device's aspect ratio inside the stage, turns
 * pointer and keyboard input on it into gestures and keys in device pixels, and draws the
 * outline of a highlighted element. Frames are painted by ScreenPainter on the same canvas.
 */
export class ScreenView {
  private device: Size | undefined;
  private recognizer: GestureRecognizer | undefined;
  private tickTimer: ReturnType<typeof setTimeout> | undefined;
  private pointerId: number | undefined;
  /** Ctrl + drag (scrcpy's pinch): where the press started, in device pixels. */
  private pinchFrom: Point | undefined;
  /** The two fingers of a Ctrl + drag, drawn while it lasts: the pointer's and its mirror through the centre. */
  private readonly fingers: [HTMLElement, HTMLElement];
  private outlined: { rect: Rect; label: string } | undefined;
  private zoomMode: ZoomMode = 'fit';
  /** Why the screen takes no keys or pastes now (Pick on screen), or undefined. */
  private inputBlocked: string | undefined;

  constructor(
    private readonly wrap: HTMLElement,
    private readonly canvas: HTMLCanvasElement,
    private readonly outline: HTMLElement,
    private readonly outlineLabel: HTMLElement,
    private readonly events: ScreenViewEvents,
  ) {
    const finger = () => {
      const f = document.createElement('div');
      f.className = 'pinch-finger';
      f.hidden = true;
      wrap.append(f);
      return f;
    };
    this.fingers = [finger(), finger()];
    new ResizeObserver(() => this.layout()).observe(wrap);
    canvas.addEventListener('pointerdown', (e) => this.onDown(e));
    canvas.addEventListener('pointermove', (e) => this.onMove(e));
    canvas.addEventListener('pointerup', (e) => this.onUp(e));
    canvas.addEventListener('pointercancel', (e) => this.abortPress(e.pointerId));
    // After a pointerup this finds no press left; without one, the release can no longer reach the canvas.
    canvas.addEventListener('lostpointercapture', (e) => this.abortPress(e.pointerId));
    // Alt+Tab or a dialog mid-press: the browser may never send the release.
    window.addEventListener('blur', () => this.abortPress(this.pointerId));
    canvas.addEventListener('pointerleave', () => {
      if (this.pointerId === undefined) events.hover(undefined);
    });
    canvas.addEventListener('contextmenu', (e) => e.preventDefault());
    canvas.addEventListener('wheel', (e) => this.onWheel(e), { passive: false });
    canvas.addEventListener('keydown', (e) => this.onKey(e));
    canvas.addEventListener('paste', (e) => {
      if (this.refuse()) return;
      const text = e.clipboardData?.getData('text/plain');
      if (!text) return;
      e.preventDefault();
      for (const line of text.split(/\r?\n/).flatMap((l, i) => (i === 0 ? [l] : ['\n', l]))) {
        if (line === '\n') this.key({ kind: 'button', button: 'ENTER' });
        else if (line) this.key({ kind: 'text', text: line });
      }
    });
  }

  /** The device's screen size in device pixels (from the frame header); rotation changes it. */
  setDeviceSize(size: Size | undefined): void {
    if (size && this.device && size.width === this.device.width && size.height === this.device.height) return;
    this.device = size;
    this.canvas.hidden = !size;
    this.layout();
  }

  get deviceSize(): Size | undefined {
    return this.device;
  }

  /** Fit to the window (default) or 1:1, one device pixel per pixel of the display (scrolls when larger). */
  get zoom(): ZoomMode {
    return this.zoomMode;
  }

  setZoom(mode: ZoomMode): void {
    this.zoomMode = mode;
    this.wrap.classList.toggle('zoom-actual', mode === 'actual');
    this.layout();
  }

  /**
   * While set, keys and pastes on the focused screen reach nothing (the reason is told to `blocked`).
   * Pointer input is kept off by the caller's layer and CSS; keys reach the canvas whatever covers it.
   */
  setInputBlocked(reason: string | undefined): void {
    this.inputBlocked = reason;
  }

  /** Outline a device-pixel rectangle with a label (or clear with undefined). */
  highlight(target: { rect: Rect; label: string } | undefined): void {
    this.outlined = target;
    this.drawOutline();
  }

  /** Where the screen is drawn now; undefined while no device size is known. */
  currentFit(): ScreenFit | undefined {
    if (!this.device) return undefined;
    const box = this.canvas.getBoundingClientRect();
    if (box.width <= 0 || box.height <= 0) return undefined;
    return fitScreen({ width: box.width, height: box.height }, this.device);
  }

  private layout(): void {
    if (this.device) {
      const style = getComputedStyle(this.wrap);
      const padX = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
      const padY = parseFloat(style.paddingTop) + parseFloat(style.paddingBottom);
      // Room for the bezel shadow (6 px) around the screen.
      const margin = 16;
      const available = { width: Math.max(0, this.wrap.clientWidth - padX - margin), height: Math.max(0, this.wrap.clientHeight - padY - margin) };
      const size = zoomedSize(this.zoomMode, available, this.device, window.devicePixelRatio || 1);
      this.canvas.style.width = `${size.width}px`;
      this.canvas.style.height = `${size.height}px`;
      // The slop stays a few CSS pixels on screen: converted to device pixels at the current zoom.
      const slop = size.width > 0 ? SLOP_CSS_PX * (this.device.width / size.width) : SLOP_CSS_PX;
      if (this.recognizer) this.recognizer.slop = slop;
      else this.recognizer = new GestureRecognizer({ slop, onDrag: this.events.drag && ((d) => this.events.drag!(d)) });
    }
    this.drawOutline();
  }

  private drawOutline(): void {
    const fit = this.currentFit();
    if (!this.outlined || !fit) {
      this.outline.hidden = true;
      return;
    }
    const r = deviceRectToCss(fit, this.outlined.rect);
    const canvasBox = this.canvas.getBoundingClientRect();
    const wrapBox = this.wrap.getBoundingClientRect();
    const left = canvasBox.left - wrapBox.left + this.wrap.scrollLeft + r.x;
    const top = canvasBox.top - wrapBox.top + this.wrap.scrollTop + r.y;
    Object.assign(this.outline.style, { left: `${left}px`, top: `${top}px`, width: `${r.width}px`, height: `${r.height}px` });
    this.outline.classList.toggle('below', top < 24);
    this.outlineLabel.textContent = this.outlined.label;
    this.outline.hidden = false;
  }

  private cssPoint(e: MouseEvent): Point {
    const box = this.canvas.getBoundingClientRect();
    return { x: e.clientX - box.left, y: e.clientY - box.top };
  }

  private onDown(e: PointerEvent): void {
    // One finger at a time, as with a mouse: a second touch would take the press over and leave the first finger's drag down on the device.
    if (!this.recognizer || this.pointerId !== undefined) return;
    const fit = this.currentFit();
    const p = fit && cssToDevice(fit, this.cssPoint(e));
    if (!p) return;
    if (e.button === 2) {
      e.preventDefault();
      this.events.secondary?.(p);
      return;
    }
    if (e.button !== 0) return;
    e.preventDefault();
    this.canvas.focus({ preventScroll: true });
    this.canvas.setPointerCapture(e.pointerId);
    this.pointerId = e.pointerId;
    this.events.hover(undefined);
    if (e.ctrlKey || e.metaKey) {
      this.pinchFrom = p;
      this.showFingers(p);
      return;
    }
    this.finish(this.recognizer.down(p, e.timeStamp));
  }

  private onMove(e: PointerEvent): void {
    const fit = this.currentFit();
    if (!fit) return;
    if (this.pointerId === e.pointerId) {
      // The button was released where the page could not see it: moving on would drag with no button held.
      if (e.pointerType === 'mouse' && (e.buttons & 1) === 0) return this.abortPress(e.pointerId);
      const at = cssToDeviceClamped(fit, this.cssPoint(e));
      if (this.pinchFrom) this.showFingers(at);
      // A drag starting may release the first tap of a would-be double tap, which goes before it.
      else this.finish(this.recognizer?.move(at, e.timeStamp) ?? []);
      return;
    }
    this.events.hover(cssToDevice(fit, this.cssPoint(e)));
  }

  private onUp(e: PointerEvent): void {
    if (this.pointerId !== e.pointerId) return;
    this.pointerId = undefined;
    const fit = this.currentFit();
    const from = this.pinchFrom;
    this.pinchFrom = undefined;
    this.showFingers(undefined);
    if (!fit || !this.recognizer) return;
    const at = cssToDeviceClamped(fit, this.cssPoint(e));
    if (from && this.device) {
      const pinch = pinchAround({ x: this.device.width / 2, y: this.device.height / 2 }, from, at);
      if (pinch) this.events.gesture(pinch);
      return;
    }
    this.finish(this.recognizer.up(at, e.timeStamp));
  }

  /**
   * The press ended without a release the page saw: whatever it started is cancelled (a streamed drag's
   * finger is lifted on the device with input.touch cancel), and nothing of it is sent as a gesture.
   */
  private abortPress(pointerId: number | undefined): void {
    if (pointerId === undefined || pointerId !== this.pointerId) return;
    this.pointerId = undefined;
    this.pinchFrom = undefined;
    this.showFingers(undefined);
    this.finish(this.recognizer?.cancel() ?? []);
  }

  /** The pointer's finger at device pixel `p` and the virtual one mirrored through the screen centre; none when undefined. */
  private showFingers(p: Point | undefined): void {
    const fit = this.currentFit();
    for (const f of this.fingers) f.hidden = !p || !fit;
    if (!p || !fit || !this.device) return;
    const mirror = { x: this.device.width - p.x, y: this.device.height - p.y };
    // The markers live in the wrap; the fit is measured on the canvas inside it.
    const canvas = this.canvas.getBoundingClientRect();
    const wrap = this.wrap.getBoundingClientRect();
    [p, mirror].forEach((point, n) => {
      const css = deviceToCss(fit, point);
      this.fingers[n].style.left = `${canvas.left - wrap.left + this.wrap.scrollLeft + css.x}px`;
      this.fingers[n].style.top = `${canvas.top - wrap.top + this.wrap.scrollTop + css.y}px`;
    });
  }

  /** Emit recognized gestures and arm the timer that releases a held-back single tap or streams a held press. */
  private finish(gestures: Gesture[]): void {
    for (const g of gestures) this.events.gesture(g);
    clearTimeout(this.tickTimer);
    const deadline = this.recognizer?.nextDeadline();
    if (deadline === undefined) return;
    this.tickTimer = setTimeout(() => this.finish(this.recognizer?.tick(performance.now()) ?? []), Math.max(0, deadline - performance.now()) + 1);
  }

  private onWheel(e: WheelEvent): void {
    const fit = this.currentFit();
    const p = fit && cssToDevice(fit, this.cssPoint(e));
    if (!p || !fit || !this.events.wheel || e.ctrlKey) return;
    e.preventDefault();
    // Lines and pages as the browser would scroll a page by them, then CSS pixels to device pixels.
    const unit = e.deltaMode === 1 ? 40 : e.deltaMode === 2 ? this.canvas.clientHeight : 1;
    this.events.wheel(p, (e.deltaX * unit) / fit.scale, (e.deltaY * unit) / fit.scale);
  }

  private onKey(e: KeyboardEvent): void {
    const input = keyToInput(e);
    if (!input) return;
    // Not prevented: Tab still moves the focus on, as it does off the screen.
    if (this.refuse()) return;
    e.preventDefault();
    this.key(input);
  }

  private refuse(): boolean {
    if (this.inputBlocked === undefined) return false;
    this.events.blocked?.(this.inputBlocked);
    return true;
  }

  /** A tap still held back for the double-click wait goes out now: what the user does next must come after it. */
  releaseHeldTap(): void {
    this.finish(this.recognizer?.flush() ?? []);
  }

  private key(input: KeyInput): void {
    this.releaseHeldTap();
    this.events.key(input);
  }
}
