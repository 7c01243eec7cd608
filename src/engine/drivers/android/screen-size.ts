import type { CallContext } from '../../driver.js';
import type { ScreenSize } from '../../ui-tree.js';
import { parseRotation, parseViewportCount, parseWmSize } from './shell-output.js';

/** What reading the screen size needs from its device (android-device.ts), with the device's error mapping. */
export interface ScreenSizeIo {
  text(command: string, ctx: CallContext, what: string): Promise<string>;
  /** Runs `work`, turning what it throws into an INTERNAL "could not read the <what> output" error. */
  parse<T>(ctx: CallContext, what: string, work: () => T): Promise<T>;
  /** Each `dumpsys input` read: the capture follows the panel the default display is on. */
  followDisplay(dumpsysInput: string): void;
  /** The capture found more than one physical display (`dumpsys SurfaceFlinger --display-id`). */
  severalPanels(): boolean;
}

/** One `wm size; dumpsys input`: the natural size, the rotation now (when `dumpsys input` shows it) and the dump. */
export interface SizeReading {
  natural: ScreenSize;
  rotation: number | undefined;
  dumpsysInput: string;
}

/**
 * The device's natural (unrotated, `wm size`) screen size, which element listings, captures,
 * rotation and scrcpy's touches use. A phone with one display keeps it: it is read once and
 * remembered, and the rotation comes with each dump. A device with more than one display (a
 * foldable's two panels, seen in the `dumpsys input` read with the size, or in the capture's display
 * list) can move its default display to a panel of another size at any time, since a fold is no
 * event we hear of: there every listing reads the size again, alongside the listing (concurrently,
 * so no added wait), and the orientation is read together with it.
 */
export class DeviceScreenSize {
  private natural: ScreenSize | undefined;
  private viewports = 0;

  constructor(private readonly io: ScreenSizeIo) {}

  /** The last size read, without a round trip (undefined before the first read). */
  get known(): ScreenSize | undefined {
    return this.natural;
  }

  /** More than one display: the size may change under us (a fold), so it is read again where it matters. */
  get movable(): boolean {
    return this.viewports > 1 || this.io.severalPanels();
  }

  /** `wm size; dumpsys input` (one round trip). */
  async read(ctx: CallContext): Promise<SizeReading> {
    const out = await this.io.text('wm size; dumpsys input', ctx, 'reading the screen size');
    const natural = await this.io.parse(ctx, 'wm size', () => parseWmSize(out) ?? fail(`wm size printed no size: ${out.slice(0, 200)}`));
    this.natural = natural;
    this.viewports = parseViewportCount(out);
    this.io.followDisplay(out);
    return { natural, rotation: parseRotation(out), dumpsysInput: out };
  }

  /** The remembered size, read on first use. */
  async remembered(ctx: CallContext): Promise<ScreenSize> {
    return this.natural ?? (await this.read(ctx)).natural;
  }

  /** The size as it is now: read again where the display can move (see the class comment), else remembered. */
  async current(ctx: CallContext): Promise<ScreenSize> {
    return this.movable ? (await this.read(ctx)).natural : this.remembered(ctx);
  }
}

function fail(message: string): never {
  throw new Error(message);
}
