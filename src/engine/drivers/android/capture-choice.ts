/**
 * How an Android device hands out a screen, chosen per use (a shrunk screenshot for an agent; a
 * whole PNG for a file). `raw`: raw `screencap` (10 MB over adb at 1080×2400), shrunk or encoded
 * on the host; `png`: `screencap -p`, encoded by the phone (real phones spend 0.6–3 s on it, an
 * emulator or a desktop-class device much less). `auto` measures both on the device's first
 * captures for that use and keeps the faster.
 */
export type ScreencapMode = 'auto' | 'raw' | 'png';
export type CaptureWay = 'raw' | 'png';

/** Timed captures of each way before choosing; the very first capture (cold caches, JIT) is not counted. */
const SAMPLES = 2;
/** After one sample each, a way this many times faster wins at once (a phone's 1–3 s PNG is not tried twice). */
const CLEAR_WIN = 2;

export class CaptureChoice {
  private readonly samples: Record<CaptureWay, number[]> = { raw: [], png: [] };
  private warmedUp = false;
  private chosen?: CaptureWay;
  private refusal?: string;

  constructor(readonly mode: ScreencapMode) {}

  /** The way settled on, once measured (or as configured); undefined while still measuring. */
  get decided(): CaptureWay | undefined {
    if (this.refusal) return 'png';
    return this.mode === 'auto' ? this.chosen : this.mode;
  }

  /** Why raw capture is not used on this device (its pixel format), once a capture showed it; then every capture is the phone's PNG, whatever the mode. */
  get rawRefusal(): string | undefined {
    return this.refusal;
  }

  refuseRaw(reason: string): void {
    this.refusal = reason;
  }

  /** The way to take the next capture: while measuring, the ways alternate. */
  next(): CaptureWay {
    const decided = this.decided;
    if (decided) return decided;
    if (!this.warmedUp) return 'raw';
    return this.samples.png.length <= this.samples.raw.length ? 'png' : 'raw';
  }

  /** A successful capture's time, from sending the command to having the pixels. */
  record(way: CaptureWay, ms: number): void {
    if (this.decided) return;
    if (!this.warmedUp) {
      this.warmedUp = true;
      return;
    }
    this.samples[way].push(ms);
    const { raw, png } = this.samples;
    if (!raw.length || !png.length) return;
    const [r, p] = [Math.min(...raw), Math.min(...png)];
    if ((raw.length >= SAMPLES && png.length >= SAMPLES) || r * CLEAR_WIN <= p || p * CLEAR_WIN <= r) this.chosen = p < r ? 'png' : 'raw';
  }

  /** Medians measured so far, for logs and benchmarks. */
  get measured(): Record<CaptureWay, number[]> {
    return { raw: [...this.samples.raw], png: [...this.samples.png] };
  }
}
