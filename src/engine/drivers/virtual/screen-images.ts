import type { PixelSlot, PixelSlotPool } from '../../pixel-slots.js';
import type { Phone } from './phone.js';
import { renderInThreads, renderPool } from './render-pool.js';
import { renderFrame, type RenderedScreen } from './render.js';

interface Rendered {
  key: string;
  rgba?: Promise<{ data: Buffer; width: number; height: number }>;
  png?: Promise<{ data: Buffer; width: number; height: number }>;
  /** In-process drawing (MOBILEBRIDGE_RENDER_THREADS=0): both images come from one render. */
  local?: Promise<RenderedScreen>;
  /** The pixel slot the RGBA is drawn into, and the device's own hold on it (released once). */
  slot?: PixelSlot;
  dropSlot?: () => void;
}

/** How long the current screen's images are kept without a request (the next one draws again). */
const SCREEN_KEEP_MS = 5000;

/**
 * The current screen of one virtual phone as RGBA or PNG. Drawn on the renderer threads
 * (render-pool.ts), so a frame never holds up the event loop; the same screen asked again gets the
 * same buffer, which is how the frame pipeline knows it did not change.
 */
export class ScreenImages {
  /** The current screen's images, drawn on first request and kept while the screen stays the same. */
  private rendered: Rendered | undefined;
  private forgetTimer?: NodeJS.Timeout;

  constructor(
    private readonly phone: Phone,
    private readonly pixelSlots: PixelSlotPool,
  ) {}

  /**
   * The current screen's RGBA with a hold of the caller's on its pixel slot, taken before any
   * await, so the slot cannot be reused in between. `release` ends the hold (once; a no-op without a slot).
   */
  heldRgba(): { job: Promise<{ data: Buffer; width: number; height: number }>; release: () => void } {
    const job = this.image('rgba');
    const slot = this.rendered?.slot;
    if (!slot) return { job, release: () => undefined };
    this.pixelSlots.retain(slot);
    return { job, release: this.pixelSlots.releaser(slot) };
  }

  /** Lets go of a screen's images (its pixel slot once the renderer is done with it). */
  private forget(old: Rendered | undefined): void {
    void old?.local?.then((r) => r.release(), () => undefined);
    if (old?.dropSlot) void (old.rgba ?? Promise.resolve()).then(old.dropSlot, old.dropSlot);
  }

  /** The current screen's images are dropped after SCREEN_KEEP_MS without a request: an idle device holds no pixels. */
  private keepScreen(): void {
    if (this.forgetTimer) {
      this.forgetTimer.refresh();
      return;
    }
    this.forgetTimer = setTimeout(() => {
      this.forgetTimer = undefined;
      const old = this.rendered;
      this.rendered = undefined;
      this.forget(old);
    }, SCREEN_KEEP_MS);
    this.forgetTimer.unref();
  }

  /** The current screen as RGBA or PNG, drawn at most once per screen (a failed drawing is tried again). */
  image(kind: 'rgba' | 'png'): Promise<{ data: Buffer; width: number; height: number }> {
    this.phone.settle();
    const key = this.phone.frameKey();
    if (this.rendered?.key !== key) {
      this.forget(this.rendered);
      this.rendered = { key };
    }
    this.keepScreen();
    const entry = this.rendered;
    let job = entry[kind];
    if (!job) {
      const frame = this.phone.frame();
      const { width, height } = frame;
      const dark = this.phone.state.darkMode;
      if (renderInThreads) {
        let into: PixelSlot | undefined;
        if (kind === 'rgba') {
          into = entry.slot = this.pixelSlots.take(width * height * 4);
          entry.dropSlot = this.pixelSlots.releaser(into);
        }
        job = renderPool.render(this.phone.id, frame, this.phone.profile, dark, { [kind]: true }, into).then((r) => ({ data: r[kind]!, width, height }));
      } else {
        const local = (entry.local ??= renderFrame(frame, this.phone.profile, dark));
        job = local.then(async (r) => ({ data: kind === 'png' ? await r.png() : r.rgba(), width, height }));
      }
      entry[kind] = job;
      job.catch(() => {
        // A failed drawing is not remembered: the next request draws again.
        if (entry[kind] !== job) return;
        entry[kind] = undefined;
        entry.local = undefined;
        if (kind === 'rgba') {
          entry.dropSlot?.();
          entry.slot = entry.dropSlot = undefined;
        }
      });
    }
    return job;
  }
}
