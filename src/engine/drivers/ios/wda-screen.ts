import type { CallContext } from '../../driver.js';
import { ToolError } from '../../errors.js';

export interface ScreenInfo {
  /** Points, for the current orientation. */
  width: number;
  height: number;
  scale: number;
}

/** A WebDriverAgent GET, inside the device's session or outside any; errors already translated to ToolErrors. */
export type WdaGet = (path: string, ctx: CallContext, inSession: boolean) => Promise<unknown>;

const positive = (n: unknown): number | undefined => (typeof n === 'number' && n > 0 ? n : undefined);

/**
 * The screen in points and its scale. GET /wda/screen answers {screenSize, statusBarSize, scale} outside any
 * session since WebDriverAgent 8.4 (5ebc71c6, April 2024). Builds from 2018 until then answer it only inside a
 * session and without screenSize (FBCustomCommands.m handleGetScreen); their size comes from GET /window/size,
 * the app's frame in points turned with its interface orientation (FBElementCommands.m handleGetWindowSize).
 */
export class WdaScreen {
  /** This WDA has no session-less /wda/screen with a screenSize: ask the older routes straight away. */
  private older = false;

  constructor(
    private readonly deviceId: string,
    private readonly get: WdaGet,
  ) {}

  async read(ctx: CallContext): Promise<ScreenInfo> {
    if (!this.older) {
      const value = (await this.get('/wda/screen', ctx, false).catch((err: unknown) => {
        if (err instanceof ToolError && /unknown command|unknown method/.test(err.message)) return undefined;
        throw err;
      })) as { screenSize?: { width?: unknown; height?: unknown }; scale?: unknown } | undefined | null;
      const width = positive(value?.screenSize?.width);
      const height = positive(value?.screenSize?.height);
      const scale = positive(value?.scale);
      if (width && height && scale) return { width, height, scale };
      this.older = true;
    }
    const screen = (await this.get('/wda/screen', ctx, true)) as { scale?: unknown } | null;
    const size = (await this.get('/window/size', ctx, true)) as { width?: unknown; height?: unknown } | null;
    const width = positive(size?.width);
    const height = positive(size?.height);
    const scale = positive(screen?.scale);
    if (!(width && height && scale)) throw new ToolError('INTERNAL', `WebDriverAgent on ${this.deviceId} reported no usable screen size or scale (/wda/screen, /window/size); update WebDriverAgent`);
    return { width, height, scale };
  }
}
