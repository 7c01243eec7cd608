/**
 * How an Android device hands out a screen, chosen per use (a shrunk screenshot for an agent; a
 * whole PNG for a file). `raw`: raw `screencap` (10 MB over adb at 1080×2400), shrunk or encoded
 * on the host; `png`: `screencap -p`, encoded by the phone (real phones spend 0.6–3 s on it, an
 * emulator or a desktop-class device much less). `auto` measures both on the device's first
 * captures for that use and keeps the faster, looking again now and then when the two were close.
 */
export type ScreencapMode = 'auto' | 'raw' | 'png';
export type CaptureWay = 'raw' | 'png';

/**
 * One capture handed out: the way to take it, and whether its time counts in the comparison (the
 * caller then pays what the consumer of that way pays, e.g. the PNG's decode, and reports the time).
 */
export interface CaptureTurn {
  way: CaptureWay;
  timed: boolean;
}

/** Timed captures of each way before choosing; the very first capture (cold caches, JIT) is not counted. */
const SAMPLES = 2;
/** A way this many times faster wins at once; raw winning so is for good (a phone's 1–3 s PNG is not tried again). */
const CLEAR_WIN = 2;
/** The samples a way is judged by: its fastest of the last few (noise only ever adds time). */
const WINDOW = 3;
/**
 * Unless raw won clearly, the other way is timed again after this many captures, then the chosen
 * one: a first comparison made while the host was busy or its code still cold (a raw capture's
 * shrink runs 3× slower before the JIT has compiled it) must not fix the slower way for the
 * device's life. Each recheck that keeps the choice doubles the wait, up to RECHECK_MAX, so a
 * settled device pays for one slow capture in hundreds.
 */
const RECHECK_EVERY = 16;
const RECHECK_MAX = 512;

export class CaptureChoice {
  private readonly samples: Record<CaptureWay, number[]> = { raw: [], png: [] };
  private readonly timedCount: Record<CaptureWay, number> = { raw: 0, png: 0 };
  private warmedUp = false;
  private chosen?: CaptureWay;
  /** Raw won by CLEAR_WIN or more: the phone's PNG is not tried again. */
  private rawForGood = false;
  private sinceCheck = 0;
  private checkEvery = RECHECK_EVERY;
  /** The timed turns of a recheck still to hand out: the other way, then the chosen one. */
  private recheck: CaptureWay[] = [];
  /** The choice a running recheck started from. */
  private checking?: CaptureWay;
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

  /** The next capture: while measuring the ways alternate; once chosen, a close call is looked at again now and then. */
  next(): CaptureTurn {
    const decided = this.decided;
    if (!decided) {
      if (!this.warmedUp) return { way: 'raw', timed: false };
      return { way: this.samples.png.length <= this.samples.raw.length ? 'png' : 'raw', timed: true };
    }
    if (this.mode !== 'auto' || this.refusal || this.rawForGood) return { way: decided, timed: false };
    const queued = this.recheck.shift();
    if (queued) return { way: queued, timed: true };
    if (++this.sinceCheck < this.checkEvery) return { way: decided, timed: false };
    this.sinceCheck = 0;
    this.recheck = [decided];
    this.checking = decided;
    return { way: decided === 'raw' ? 'png' : 'raw', timed: true };
  }

  /** A successful capture's time, from sending the command to having the pixels as its consumer needs them. */
  record(turn: CaptureTurn, ms: number): void {
    if (this.mode !== 'auto') return;
    if (!turn.timed) {
      this.warmedUp = true;
      return;
    }
    const list = this.samples[turn.way];
    list.push(ms);
    if (list.length > WINDOW) list.shift();
    this.timedCount[turn.way]++;
    const { raw, png } = this.samples;
    if (!raw.length || !png.length) return;
    const [r, p] = [Math.min(...raw), Math.min(...png)];
    const clear = r * CLEAR_WIN <= p || p * CLEAR_WIN <= r;
    if (!this.chosen && !clear && (raw.length < SAMPLES || png.length < SAMPLES)) return;
    this.chosen = p < r ? 'png' : 'raw';
    this.rawForGood = this.chosen === 'raw' && r * CLEAR_WIN <= p;
    if (this.checking && this.recheck.length === 0) {
      // A choice a recheck kept is looked at half as often from now on.
      this.checkEvery = this.checking === this.chosen ? Math.min(this.checkEvery * 2, RECHECK_MAX) : RECHECK_EVERY;
      this.checking = undefined;
    }
  }

  /** The recent samples each way is judged by, for logs and benchmarks. */
  get measured(): Record<CaptureWay, number[]> {
    return { raw: [...this.samples.raw], png: [...this.samples.png] };
  }

  /** How many captures of each way were timed so far. */
  get timed(): Record<CaptureWay, number> {
    return { ...this.timedCount };
  }
}
