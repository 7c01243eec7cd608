import type { CallContext } from '../../driver.js';
import { sameSize, type ScreenSize } from '../../ui-tree.js';
import { parseDisplayManagerRotation, parseDisplayManagerSize } from './display-manager-dump.js';
import { firstLine, parseRotation, parseViewportCount, parseWmSize, SEPARATOR } from './shell-output.js';

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
 * rotation and scrcpy's touches use. The size can change under us without any event we hear of: a
 * fold moves a foldable's default display to a panel of another size, and on any phone a size
 * override set or removed mid-session (`wm size 720x1600`, `wm size reset`, a phone's "Screen
 * resolution" setting) changes the pixel space uiautomator and `input` work in. Where there is more
 * than one display (a foldable's two panels, seen in `dumpsys input` or in the capture's display list),
 * every listing reads `wm size; dumpsys input` alongside its dump (concurrently, so no added wait), with
 * the orientation; on a phone with one display a listing reads `wm size` only when its dump measured
 * another size than the one known (`confirmed`), and a capture of another pixel size reads it too.
 * Captures scale to the size last read, so a screenshot taken after a listing shares its pixels.
 */
export class DeviceScreenSize {
  private natural: ScreenSize | undefined;
  private viewports = 0;
  /** `wm size` printed no size and `dumpsys display` showed one: the size comes from there. */
  private fromDisplay = false;

  constructor(private readonly io: ScreenSizeIo) {}

  /** The last size read, without a round trip (undefined before the first read). */
  get known(): ScreenSize | undefined {
    return this.natural;
  }

  /** More than one display: the size may change under us (a fold), so it is read again where it matters. */
  get movable(): boolean {
    return this.viewports > 1 || this.io.severalPanels();
  }

  /** `wm size; dumpsys input` (one round trip; `dumpsys display` for `wm size` on a device without wm). */
  async read(ctx: CallContext): Promise<SizeReading> {
    if (this.fromDisplay) {
      const [display, input = ''] = (await this.io.text(`dumpsys display; echo ${SEPARATOR}; dumpsys input`, ctx, 'reading the screen size')).split(`${SEPARATOR}\n`);
      const natural = await this.displaySize(display, ctx);
      this.followInput(input);
      return { natural, rotation: parseRotation(input) ?? parseDisplayManagerRotation(display), dumpsysInput: input };
    }
    const out = await this.io.text('wm size; dumpsys input', ctx, 'reading the screen size');
    const natural = await this.wmSize(out, ctx);
    this.followInput(out);
    return { natural, rotation: parseRotation(out), dumpsysInput: out };
  }

  /** The remembered size, read on first use. */
  async remembered(ctx: CallContext): Promise<ScreenSize> {
    return this.natural ?? (await this.read(ctx)).natural;
  }

  /** The size as it is now, read again (see the class comment); the first read also learns how many displays there are. */
  async current(ctx: CallContext): Promise<ScreenSize> {
    if (this.movable || !this.natural) return (await this.read(ctx)).natural;
    const known = this.natural;
    // What the listing itself meets (a device gone, a server killed) is its own answer; a failed re-read only keeps the size known.
    const [command, read] = this.fromDisplay ? ['dumpsys display', (out: string) => this.displaySize(out, ctx)] : ['wm size', (out: string) => this.wmSize(out, ctx)];
    return this.io.text(command, ctx, 'reading the screen size').then(read, () => known);
  }

  /**
   * The size known, when `seen` (what a dump measured, unrotated) agrees with it; else read again: a
   * size override set or removed meanwhile, or a window that does not fill the screen (a dialog), which
   * costs a read but never a wrong size.
   */
  confirmed(seen: ScreenSize | undefined, ctx: CallContext): Promise<ScreenSize> {
    const known = this.natural;
    if (known && seen && sameSize(seen, known)) return Promise.resolve(known);
    return this.current(ctx);
  }

  private followInput(dumpsysInput: string): void {
    this.viewports = parseViewportCount(dumpsysInput);
    this.io.followDisplay(dumpsysInput);
  }

  /**
   * The size `wm size` printed in `out`, remembered. Where it printed none (a device without wm, whose
   * shell says "wm: not found"), the display manager's dump is read instead, from then on.
   */
  private async wmSize(out: string, ctx: CallContext): Promise<ScreenSize> {
    const size = parseWmSize(out);
    if (size) return (this.natural = size);
    const display = await this.io.text('dumpsys display', ctx, 'reading the screen size');
    const natural = await this.io.parse(ctx, 'wm size', () => parseDisplayManagerSize(display) ?? fail(`wm size printed no size (${shown(out)}), nor did dumpsys display show display 0's (${shown(display)})`));
    this.fromDisplay = true;
    return (this.natural = natural);
  }

  /** Display 0's size in `dumpsys display`, remembered. */
  private async displaySize(out: string, ctx: CallContext): Promise<ScreenSize> {
    this.natural = await this.io.parse(ctx, 'dumpsys display', () => parseDisplayManagerSize(out) ?? fail(`dumpsys display did not show display 0's size: ${shown(out)}`));
    return this.natural;
  }
}

const shown = (out: string): string => firstLine(out) || 'nothing';

function fail(message: string): never {
  throw new Error(message);
}
