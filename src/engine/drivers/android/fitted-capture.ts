import type { CallContext, FitSize, FittedScreen, PngImage } from '../../driver.js';
import { sameSize, type ScreenSize } from '../../ui-tree.js';
import { CaptureChoice, type ScreencapMode } from './capture-choice.js';
import { noRawFrames, parseRawScreencap, unreadableRawFormat } from './screencap.js';
import { ScreencapStream, type ShrunkScreen } from './screencap-stream.js';

/** What the fitted capture needs from its device (screen-capture.ts), with its error mapping. */
export interface FittedCaptureIo {
  /** `screencap` with the display argument the device needs. */
  rawCommand(ctx: CallContext): Promise<string>;
  logicalSize(ctx: CallContext): Promise<ScreenSize>;
  /** The logical size for a capture of `captured` pixels: the size last read, or read again when the capture's size moved. */
  logicalFor(captured: { width: number; height: number }, ctx: CallContext): Promise<ScreenSize>;
  exec(command: string, ctx: CallContext): Promise<Buffer>;
  stream(command: string, ctx: CallContext, sink: (chunk: Buffer) => void): Promise<void>;
  /** Runs `work`, turning what it throws into an INTERNAL "could not read the <what> output" error. */
  parse<T>(ctx: CallContext, what: string, work: () => T): Promise<T>;
  devicePng(ctx: CallContext): Promise<PngImage>;
  /** Decodes the phone's PNG as its consumer will; timed while the ways are compared. */
  decode(png: PngImage): Promise<unknown>;
}

/**
 * Screens for a consumer that shrinks them anyway (agents' screenshots): raw `screencap` shrunk
 * while it arrives, or the phone's PNG, whichever `choice` says (measured per device in `auto`).
 */
export class FittedCapture {
  readonly choice: CaptureChoice;
  /** The raw header size this device writes, learnt from its first raw capture (read whole). */
  private rawHeader: 12 | 16 | undefined;

  constructor(
    mode: ScreencapMode,
    private readonly io: FittedCaptureIo,
  ) {
    this.choice = new CaptureChoice(mode);
  }

  async capture(fit: FitSize, ctx: CallContext): Promise<FittedScreen> {
    const turn = this.choice.next();
    const started = performance.now();
    const raw = turn.way === 'raw' ? await this.shrunkRaw(fit, ctx) : undefined;
    const screen: FittedScreen = raw ?? { png: await this.io.devicePng(ctx) };
    // Raw arrives shrunk; the PNG still has to be decoded by its consumer, so a fair comparison
    // counts that decode too (25–35 ms for 1080×2400 here): paid twice, only on timed turns.
    if (screen.png && turn.timed) await this.io.decode(screen.png).catch(() => undefined);
    this.choice.record(turn, performance.now() - started);
    return screen;
  }

  /** Undefined when the device's pixel format turns out unreadable, or it gives no raw frames: the choice then refuses raw for good. */
  private async shrunkRaw(fit: FitSize, ctx: CallContext, again = false): Promise<ShrunkScreen | undefined> {
    const command = await this.io.rawCommand(ctx);
    const logical = await this.io.logicalSize(ctx);
    if (this.rawHeader === undefined) {
      const out = await this.io.exec(command, ctx);
      const refusal = unreadableRawFormat(out) ?? noRawFrames(out);
      if (refusal) return void this.choice.refuseRaw(refusal);
      const frame = await this.io.parse(ctx, 'screencap', () => parseRawScreencap(out));
      const stream = new ScreencapStream(frame.headerSize ?? 16, await this.io.logicalFor(frame, ctx), fit);
      stream.push(out);
      this.rawHeader = frame.headerSize;
      return stream.finish();
    }
    const stream = new ScreencapStream(this.rawHeader, logical, fit);
    await this.io.stream(command, ctx, (chunk) => stream.push(chunk));
    if (stream.unreadable) return void this.choice.refuseRaw(stream.unreadable);
    const shrunk = await this.io.parse(ctx, 'screencap', () => stream.finish()).catch((err: unknown) => {
      // Learnt again from the next capture, read whole.
      this.rawHeader = undefined;
      throw err;
    });
    // The frame was shrunk on the way for the size last read; when its pixels show that size moved,
    // it is taken again for the size now (only right after a change: the common path reads nothing).
    const now = await this.io.logicalFor(stream.captured!, ctx);
    return again || sameSize(now, logical) ? shrunk : this.shrunkRaw(fit, ctx, true);
  }
}
