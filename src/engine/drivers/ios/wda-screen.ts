import type { CallContext } from '../../driver.js';
import { ToolError } from '../../errors.js';
import type { LackingRoutes } from './wda-lacking.js';
import { WdaRouteMissing } from './wda-refusals.js';

export interface ScreenInfo {
  /** Points, for the current orientation. */
  width: number;
  height: number;
  scale: number;
}

/** A WebDriverAgent GET, inside the device's session or outside any; errors already translated to ToolErrors. */
export type WdaGet = (path: string, ctx: CallContext, inSession: boolean) => Promise<unknown>;

const positive = (n: unknown): number | undefined => (typeof n === 'number' && n > 0 ? n : undefined);

const unknownRoute = (err: unknown): undefined => {
  if (err instanceof WdaRouteMissing) return undefined;
  throw err;
};

/**
 * The screen in points, as the app in front has it, and its scale. The size is GET /window/size: the
 * frame of the app in front, turned with its interface orientation (FBElementCommands.m
 * handleGetWindowSize; outside any session since WebDriverAgent 4.10, October 2022, inside one before).
 * Not /wda/screen's screenSize: that is SpringBoard's frame turned with SpringBoard's orientation
 * (FBCustomCommands.m handleGetScreen), which on an iPhone stays portrait while an app turns to
 * landscape. /wda/screen gives the scale (outside a session since 8.4, April 2024; inside one
 * before), read once: a screen's scale does not change.
 */
export class WdaScreen {
  private scale: number | undefined;
  /** This WDA has no session-less /wda/screen or /window/size: ask inside the session straight away. */
  private screenInSession = false;
  private sizeInSession = false;

  constructor(
    private readonly deviceId: string,
    private readonly get: WdaGet,
    /** A WDA lacking /window/size altogether has its size from /wda/screen, turned (turnedScreenSize). */
    private readonly lacking: LackingRoutes,
  ) {}

  async read(ctx: CallContext): Promise<ScreenInfo> {
    const [scale, size] = await Promise.all([this.readScale(ctx), this.readSize(ctx)]);
    const width = positive(size?.width);
    const height = positive(size?.height);
    if (!(width && height && scale)) throw new ToolError('INTERNAL', `WebDriverAgent on ${this.deviceId} reported no usable screen size or scale (/window/size, /wda/screen); update WebDriverAgent`);
    return { width, height, scale };
  }

  private async readScale(ctx: CallContext): Promise<number | undefined> {
    if (this.scale) return this.scale;
    let screen = this.screenInSession ? undefined : ((await this.get('/wda/screen', ctx, false).catch(unknownRoute)) as { scale?: unknown } | undefined | null);
    if (screen === undefined) {
      this.screenInSession = true;
      screen = (await this.get('/wda/screen', ctx, true).catch(unknownRoute)) as { scale?: unknown } | undefined | null;
    }
    // An emulation of WDA may answer /wda/screen without its scale: as good as no /wda/screen for the scale.
    return (this.scale = positive(screen?.scale) ?? (await this.scaleOfScreenshot(ctx)));
  }

  /**
   * A WDA without /wda/screen at all (builds before 2018, or an emulation answering a few routes), or whose answer
   * has no scale: the screenshot's pixels per point of /window/size, the shorter sides compared so that the
   * orientation does not matter.
   */
  private async scaleOfScreenshot(ctx: CallContext): Promise<number | undefined> {
    const [shot, size] = await Promise.all([this.get('/screenshot', ctx, false), this.readSize(ctx)]);
    const png = typeof shot === 'string' ? Buffer.from(shot, 'base64') : undefined;
    const width = positive(size?.width);
    const height = positive(size?.height);
    if (!png || png.length < 24 || !width || !height) return undefined;
    const ratio = Math.min(png.readUInt32BE(16), png.readUInt32BE(20)) / Math.min(width, height);
    return positive(Math.round(ratio * 100) / 100);
  }

  private async readSize(ctx: CallContext): Promise<{ width?: unknown; height?: unknown } | null> {
    type Size = { width?: unknown; height?: unknown } | null;
    if (this.lacking.has('GET /window/size')) return this.turnedScreenSize(ctx);
    if (!this.sizeInSession) {
      const size = (await this.get('/window/size', ctx, false).catch(unknownRoute)) as Size | undefined;
      if (size !== undefined) return size;
      this.sizeInSession = true;
    }
    const size = (await this.get('/window/size', ctx, true).catch(unknownRoute)) as Size | undefined;
    if (size !== undefined) return size;
    this.lacking.add('GET /window/size');
    return this.turnedScreenSize(ctx);
  }

  /**
   * For a WDA without /window/size: /wda/screen's screenSize (SpringBoard's frame, portrait on an iPhone whatever
   * the app shows) turned to GET /orientation, the app's interface orientation. Builds whose /wda/screen has no
   * screenSize (before 8.4) had /window/size, so a WDA lacking both reports no size.
   */
  private async turnedScreenSize(ctx: CallContext): Promise<{ width?: unknown; height?: unknown } | null> {
    const [screen, orientation] = await Promise.all([
      this.get('/wda/screen', ctx, this.screenInSession) as Promise<{ screenSize?: { width?: unknown; height?: unknown } } | null>,
      this.get('/orientation', ctx, true),
    ]);
    const width = positive(screen?.screenSize?.width);
    const height = positive(screen?.screenSize?.height);
    if (!width || !height) return null;
    const landscape = typeof orientation === 'string' && /LANDSCAPE/i.test(orientation);
    const portrait = typeof orientation === 'string' && /PORTRAIT/i.test(orientation);
    return (landscape && width < height) || (portrait && width > height) ? { width: height, height: width } : { width, height };
  }
}
