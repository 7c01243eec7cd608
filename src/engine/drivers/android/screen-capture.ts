import type { CallContext, FitSize, FittedScreen, PngImage, RawImage } from '../../driver.js';
import { ToolError } from '../../errors.js';
import type { ScreenSize } from '../../ui-tree.js';
import { CaptureChoice, type ScreencapMode } from './capture-choice.js';
import { releaseBefore } from './android-release.js';
import { CaptureDisplay } from './capture-display.js';
import { FittedCapture } from './fitted-capture.js';
import { RawCollector } from './raw-collector.js';
import { CapturedSize, pngToLogical, rawToLogical } from './frame-scale.js';
import { firstLine, shellLacks } from './shell-output.js';
import { encodeRawImage, hasPng, isOpaqueFrame, noRawFrames, parseRawScreencap, pngFromScreencap, rgbaFromRawFrame, unreadableRawFormat, type RawFrame } from './screencap.js';
import { loadSharp } from '../../screen/sharp.js';

/** What capturing the screen needs from its device (android-device.ts), with the device's error mapping. */
export interface ScreenCaptureIo {
  serial: string;
  /** ro.build.version.release: before Android 10 there is no display listing to read. */
  release: string;
  exec(command: string, ctx: CallContext, what: string): Promise<Buffer>;
  text(command: string, ctx: CallContext, what: string): Promise<string>;
  /** The command's output chunk by chunk, as it arrives. */
  stream(command: string, ctx: CallContext, sink: (chunk: Buffer) => void): Promise<void>;
  /** Runs `work`, turning what it throws into an INTERNAL "could not read the <what> output" error. */
  parse<T>(ctx: CallContext, what: string, work: () => T): Promise<T>;
  /** The logical (`wm size`) screen size captures are scaled to, as last read. */
  logicalSize(ctx: CallContext): Promise<ScreenSize>;
  /** The logical size read again (a capture's size changed: frame-scale.ts CapturedSize). */
  currentSize(ctx: CallContext): Promise<ScreenSize>;
  /** Reads `wm size; dumpsys input` again: the device's size, and (followDisplay) the panel its default display is on. */
  readScreenSize(ctx: CallContext): Promise<unknown>;
}

/**
 * The screen of one device as a PNG, raw pixels, or shrunk for an agent: raw `screencap` encoded or
 * decoded on the host, or the phone's own `screencap -p` (the `png` option, a pixel format the host
 * does not read, or what `auto` measured faster for agents' screenshots), of the display that shows
 * the phone (capture-display.ts), at the logical size.
 */
export class AndroidScreenCapture {
  private readonly display = new CaptureDisplay();
  private readonly captured = new CapturedSize();
  private readonly fittedCapture: FittedCapture;
  /**
   * Whole PNGs (saved screenshots, run reports) measure their own ways: raw pixels plus the host's
   * encode against the phone's finished PNG, where shrunk screenshots weigh raw against the PNG plus
   * the host's decode. A phone that encodes fast (an emulator, a desktop-class device) saves with
   * its own PNG; a phone that spends seconds on it keeps raw.
   */
  private readonly pngChoice: CaptureChoice;

  constructor(
    private readonly mode: ScreencapMode,
    private readonly io: ScreenCaptureIo,
  ) {
    this.pngChoice = new CaptureChoice(mode);
    this.fittedCapture = new FittedCapture(mode, {
      rawCommand: async (ctx) => `screencap${await this.displayArgument(ctx)} 2>/dev/null`,
      logicalSize: (ctx) => io.logicalSize(ctx),
      logicalFor: (captured, ctx) => this.logicalFor(captured, ctx),
      exec: (command, ctx) => this.wholeRaw(command, ctx),
      stream: (command, ctx, sink) => io.stream(command, ctx, sink),
      parse: (ctx, what, work) => io.parse(ctx, what, work),
      devicePng: (ctx) => this.devicePng(ctx),
      decode: async ({ png }) => (await loadSharp())(png).raw().toBuffer(),
    });
  }

  /** The screen as a PNG at the logical size: raw pixels encoded on the host, or the phone's own, as measured faster on this device (`auto`). */
  async png(ctx: CallContext): Promise<PngImage> {
    const turn = this.pngChoice.next();
    const started = performance.now();
    if (turn.way === 'raw') {
      const frame = await this.rawFrame(ctx);
      if (frame) {
        const png = await encodeRawImage(await rawToLogical(rgbaFromRawFrame(frame), await this.logicalFor(frame, ctx)), isOpaqueFrame(frame), frame.colorSpace);
        this.pngChoice.record(turn, performance.now() - started);
        return png;
      }
    }
    const png = await this.devicePng(ctx);
    if (turn.way === 'png') this.pngChoice.record(turn, performance.now() - started);
    return png;
  }

  /** A screen for a consumer that shrinks it to `fit`: raw pixels shrunk as they arrive, or the phone's PNG (fitted-capture.ts). */
  fitted(fit: FitSize, ctx: CallContext): Promise<FittedScreen> {
    return this.fittedCapture.capture(fit, ctx);
  }

  /** Raw `screencap` pixels without the host PNG encode (the phone's PNG decoded where screenshots are PNG). */
  async raw(ctx: CallContext): Promise<RawImage> {
    const frame = await this.rawFrame(ctx);
    if (frame) return rawToLogical(rgbaFromRawFrame(frame), await this.logicalFor(frame, ctx));
    const { png } = await this.devicePng(ctx);
    try {
      const { data, info } = await (await loadSharp())(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
      return { data, width: info.width, height: info.height, channels: 4 };
    } catch (err) {
      const hint = this.choice.rawRefusal ? ` (${this.choice.rawRefusal})` : "; try the driver option screencap: 'raw'";
      throw new ToolError('INTERNAL', `could not decode the screencap -p PNG of ${this.io.serial}: ${(err as Error).message}${hint}`);
    }
  }

  /** Raw or PNG for agents' screenshots, as measured on this device. */
  get choice(): CaptureChoice {
    return this.fittedCapture.choice;
  }

  /** More than one physical display, as far as a capture has learned (capture-display.ts). */
  get severalDisplays(): boolean {
    return this.display.several;
  }

  /** Follows the default display to the panel it is on, from a `dumpsys input` the device read for its screen size. */
  followDisplay(dumpsysInput: string): void {
    this.display.follow(dumpsysInput);
  }

  /** Raw `screencap`; undefined when screenshots are the phone's PNG (the `png` option, a pixel format the host does not read, or no raw frames at all). */
  private async rawFrame(ctx: CallContext): Promise<RawFrame | undefined> {
    if (this.mode === 'png' || this.choice.rawRefusal) return undefined;
    const out = await this.wholeRaw(`screencap${await this.displayArgument(ctx)} 2>/dev/null`, ctx);
    const refusal = unreadableRawFormat(out) ?? noRawFrames(out);
    if (refusal) return void this.choice.refuseRaw(refusal);
    return this.io.parse(ctx, 'screencap', () => parseRawScreencap(out));
  }

  /** Raw `screencap` output in one buffer sized from its header, filled as it arrives (raw-collector.ts). */
  private async wholeRaw(command: string, ctx: CallContext): Promise<Buffer> {
    const collector = new RawCollector();
    await this.io.stream(command, ctx, (chunk) => collector.push(chunk));
    return collector.result();
  }

  /** `screencap -p`: the phone's own PNG, at the logical size. */
  private async devicePng(ctx: CallContext): Promise<PngImage> {
    const display = await this.displayArgument(ctx);
    const out = await this.io.exec(`screencap -p${display} 2>/dev/null`, ctx, 'taking a screenshot');
    if (!hasPng(out)) await this.whyNoPng(display, ctx);
    const png = await this.io.parse(ctx, 'screencap -p', () => pngFromScreencap(out));
    return pngToLogical(png, await this.logicalFor(png, ctx));
  }

  /**
   * What screencap said on stderr, which the capture drops (a warning there would land inside the
   * PNG): asked only once no PNG came, so a working device pays nothing. A device without screencap
   * is UNSUPPORTED, as no retry helps; anything else is left to the caller's INTERNAL.
   */
  private async whyNoPng(display: string, ctx: CallContext): Promise<void> {
    const said = (await this.io.text(`screencap -p${display} 2>&1 >/dev/null`, ctx, 'taking a screenshot')).trim();
    if (shellLacks(said, 'screencap')) {
      throw new ToolError('UNSUPPORTED', `${this.io.serial} has no screencap ("${firstLine(said)}"), so it cannot take screenshots; list its elements (mobile_list_elements_on_screen) to see what shows`);
    }
    if (said) throw new ToolError('INTERNAL', `screencap -p on ${this.io.serial} printed no PNG; it said: ${said.slice(0, 300)}`);
  }

  /** The logical size a capture of `captured` pixels is scaled to: read again when the capture's size moved (frame-scale.ts CapturedSize). */
  private async logicalFor(captured: { width: number; height: number }, ctx: CallContext): Promise<ScreenSize> {
    const known = await this.io.logicalSize(ctx);
    const moved = this.captured.changed(captured, known);
    // With several displays the size was read just before this capture (displayArgument): it is current.
    return moved && !this.display.several ? this.io.currentSize(ctx) : known;
  }

  /** ` -d <panel>` where the device has several displays (capture-display.ts), else ''. */
  private async displayArgument(ctx: CallContext): Promise<string> {
    if (!this.display.known) {
      // Before 10 SurfaceFlinger has no --display-id: it would print its whole dump (every layer), and
      // screencap captures the built-in panel unless told otherwise.
      this.display.learnPanels(releaseBefore(this.io.release, 10) ? '' : await this.io.text('dumpsys SurfaceFlinger --display-id', ctx, 'listing displays'));
    }
    // A fold moves the default display to the other panel, with another size: both are read again
    // before each capture (one round trip), so the capture and its scaling follow it.
    if (this.display.several) await this.io.readScreenSize(ctx);
    return this.display.argument;
  }
}
