import type { DeviceActivityParams } from '../../src/protocol/notifications.js';
import type { KeyInput } from './actions.js';
import type { Point } from './geometry.js';
import type { DragEvent } from './gestures.js';
import type { ScreenView } from './screen-view.js';
import { shortcutFor, type ShortcutAction } from './shortcuts.js';
import { TapMarkers } from './tap-marker.js';
import { TouchStreamer } from './touch-stream.js';
import type { Viewer } from './viewer.js';
import { WheelScroller } from './wheel-scroll.js';

export interface LiveControlPage {
  wrap: HTMLElement;
  canvas: HTMLCanvasElement;
  zoomButton: HTMLButtonElement;
  notice(message: string): void;
  /** Sends a button or key in the one queue of taps and keys, after everything the user did before it. */
  queue(input: KeyInput): void;
  /** Resolves once everything the user did before (a tap held for the double-click wait included) reached the device, not waiting for what comes after. */
  settle(): Promise<void>;
  /** The existing toolbar actions (rotate, screenshot), so shortcuts and buttons do the same. */
  rotate(): void;
  screenshot(): void;
}

/** Long enough that Android's velocity tracker sees the finger stopped (40 ms): a wheel drag must not fling. */
const SETTLE_BEFORE_UP_MS = 60;

/**
 * Control like scrcpy (issue 17 item 1): drags streamed to the device as they happen, the wheel as
 * drags under the pointer, right click as Back, the shortcuts, fit / 1:1 zoom, and tap markers from
 * every participant's activity. main.ts hands its events to this one object.
 */
export class LiveControl {
  readonly touches: TouchStreamer;
  private readonly wheelScroller: WheelScroller;
  private markers: TapMarkers | undefined;
  private viewer!: Viewer;
  private screen!: ScreenView;

  constructor(private readonly page: LiveControlPage) {
    this.touches = new TouchStreamer((action, p) => this.viewer.touch(action, p), page.notice);
    this.wheelScroller = new WheelScroller(() => this.screen.deviceSize, (d) => this.swipeAlong([d.from, d.to]));
  }

  /** Called once the viewer and the screen exist (they are built with this object's handlers). */
  bind(viewer: Viewer, screen: ScreenView): void {
    this.viewer = viewer;
    this.screen = screen;
    this.markers = new TapMarkers(this.page.wrap, this.page.canvas, () => screen.currentFit());
    this.page.zoomButton.addEventListener('click', () => this.toggleZoom());
    bindShortcuts((action, repeat) => this.shortcut(action, repeat));
    this.showZoom();
  }

  drag(e: DragEvent): void {
    if (e.kind === 'start') {
      // Asked a microtask later: the tap the recognizer returns with this start (the first half of a
      // would-be double tap) is queued only after this call, and must reach the device before the finger.
      this.touches.start(e.from, e.at, Promise.resolve().then(() => this.page.settle()));
    } else if (e.kind === 'move') this.touches.move(e.at);
    else if (e.kind === 'end') this.touches.end(e.at, e.lateMs);
    else this.touches.cancel();
  }

  wheel(at: Point, dx: number, dy: number): void {
    this.wheelScroller.turn(at, dx, dy);
  }

  /** Right click: Back, the way the platform has one. */
  secondary(): void {
    void this.back();
  }

  activity(a: DeviceActivityParams, mine: boolean): void {
    this.markers?.show(a, mine);
  }

  async back(): Promise<void> {
    const device = this.viewer.current;
    const size = this.screen.deviceSize;
    if (!device) return;
    if (device.os !== 'iOS') {
      this.page.queue({ kind: 'button', button: 'BACK' });
      return;
    }
    // iOS has no Back button: the navigation's own gesture, a swipe from the left edge.
    if (size) await this.swipeAlong([{ x: 1, y: Math.round(size.height / 2) }, { x: Math.round(size.width * 0.6), y: Math.round(size.height / 2) }]);
  }

  home(): void {
    if (this.viewer.current) this.page.queue({ kind: 'button', button: 'HOME' });
  }

  /** `repeat`: the key is held; one repeat waits at most, so the volume stops changing when it is let go. */
  volume(button: 'VOLUME_UP' | 'VOLUME_DOWN', repeat = false): void {
    if (this.viewer.current) this.page.queue({ kind: 'button', button, ...(repeat ? { repeat: true as const } : {}) });
  }

  private shortcut(action: ShortcutAction, repeat: boolean): void {
    switch (action) {
      case 'back': void this.back(); return;
      case 'home': this.home(); return;
      case 'app_switch':
        if (this.viewer.current) this.page.queue({ kind: 'key', key: 'APP_SWITCH' });
        return;
      case 'volume_up': this.volume('VOLUME_UP', repeat); return;
      case 'volume_down': this.volume('VOLUME_DOWN', repeat); return;
      case 'rotate': this.page.rotate(); return;
      case 'screenshot': this.page.screenshot(); return;
      case 'zoom_fit': this.setZoom('fit'); return;
      case 'zoom_actual': this.setZoom('actual'); return;
      case 'focus_screen': this.page.canvas.focus(); return;
    }
  }

  /** One finger down, along the points, settled, up: a swipe at a place (mobile_swipe_on_screen always swipes through the middle). */
  private async swipeAlong(points: Point[]): Promise<void> {
    // A click just before (still held for the double-click wait) lands first, where it was aimed.
    await this.page.settle();
    if (this.touches.streaming) return;
    const down = await this.viewer.touch('down', points[0]);
    if (!down) return;
    for (const p of points.slice(1)) await this.viewer.touch('move', p);
    await new Promise((r) => setTimeout(r, SETTLE_BEFORE_UP_MS));
    await this.viewer.touch('up', points[points.length - 1]);
  }

  private toggleZoom(): void {
    this.setZoom(this.screen.zoom === 'fit' ? 'actual' : 'fit');
  }

  private setZoom(mode: 'fit' | 'actual'): void {
    this.screen.setZoom(mode);
    this.showZoom();
  }

  private showZoom(): void {
    const actual = this.screen.zoom === 'actual';
    this.page.zoomButton.textContent = actual ? '⤢ Fit' : '1:1';
    this.page.zoomButton.title = actual ? 'Fit the screen to the window (Alt+W)' : 'Zoom 1:1, one device pixel per display pixel (Alt+G)';
    this.page.zoomButton.setAttribute('aria-pressed', String(actual));
  }
}

/** Listens on the whole page (capture phase, so the screen's own key forwarding never sees them). Text fields keep their keys. */
function bindShortcuts(run: (action: ShortcutAction, repeat: boolean) => void): void {
  window.addEventListener(
    'keydown',
    (e) => {
      const shortcut = shortcutFor(e);
      if (!shortcut) return;
      const target = e.target as HTMLElement | null;
      if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
      e.preventDefault();
      e.stopPropagation();
      run(shortcut.action, e.repeat);
    },
    { capture: true },
  );
}
