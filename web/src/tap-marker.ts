import type { DeviceActivityParams } from '../../src/protocol/notifications.js';
import { deviceToCss, type ScreenFit } from './geometry.js';
import { touchPoints } from './touch-points.js';

const SHOWN_MS = 700;

/**
 * Draws short-lived rings over the screen where actions touched it, from `device.activity`, so
 * everyone watching a device sees where a tap or drag landed, whoever made it (issue 17). The rings
 * are elements over the canvas (not pixels in it), so frames painting underneath never erase them.
 */
export class TapMarkers {
  constructor(
    private readonly wrap: HTMLElement,
    private readonly canvas: HTMLCanvasElement,
    private readonly fit: () => ScreenFit | undefined,
  ) {}

  show(activity: DeviceActivityParams, mine: boolean): void {
    const points = touchPoints(activity);
    const fit = this.fit();
    if (!fit || points.length === 0) return;
    const canvasBox = this.canvas.getBoundingClientRect();
    const wrapBox = this.wrap.getBoundingClientRect();
    points.forEach((p, i) => {
      const css = deviceToCss(fit, p);
      const ring = document.createElement('span');
      ring.className = `tap-marker${mine ? ' mine' : ''}${i > 0 ? ' end' : ''}`;
      ring.dataset.x = String(p.x);
      ring.dataset.y = String(p.y);
      ring.setAttribute('aria-hidden', 'true');
      ring.style.left = `${canvasBox.left - wrapBox.left + this.wrap.scrollLeft + css.x}px`;
      ring.style.top = `${canvasBox.top - wrapBox.top + this.wrap.scrollTop + css.y}px`;
      this.wrap.append(ring);
      setTimeout(() => ring.remove(), SHOWN_MS);
    });
  }
}
