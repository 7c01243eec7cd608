import type { CallContext } from '../../driver.js';
import { ToolError } from '../../errors.js';
import { ListingCache } from '../../listing/cache.js';
import type { UiElement } from '../../types.js';
import { elementsFromTree, type ScreenSize } from '../../ui-tree.js';
import { firstLine, shellLacks } from './shell-output.js';
import { isNeverIdleDump, isTransientDumpFailure, isUiAutomationTaken, parseUiautomatorDump } from './uiautomator.js';

const DUMP_ATTEMPTS = 4;
const DUMP_RETRY_MS = 250;

/** What listing needs from its device (android-device.ts), with the device's error mapping. */
export interface ListingIo {
  serial: string;
  /** The hierarchy from the UiAutomator2 server, or undefined while it is not usable (a start begins in the background). */
  served(signal: AbortSignal): Promise<string | undefined>;
  /** Waits for a server start under way; whether the server runs now (false without a server). */
  serverReady(): Promise<boolean>;
  /** `uiautomator dump /dev/tty`, as printed. */
  dump(ctx: CallContext): Promise<string>;
  /** Wakes the screen or says it is locked; `doubt` makes the next check ask the phone again. */
  usable(ctx: CallContext): Promise<void>;
  doubt(): void;
  /** Unreadable output goes through the device's disconnect check. */
  parse<T>(ctx: CallContext, what: string, work: () => T): Promise<T>;
}

/** The screen as rotated now: `wm size` prints the natural size, rotation counts quarter turns from it. */
export function rotate(size: ScreenSize, rotation: number): ScreenSize {
  return rotation % 2 === 1 ? { width: size.height, height: size.width } : size;
}

/**
 * How far the first window of a hierarchy reaches (its right and bottom edges), unrotated: for a full-screen
 * app, the screen size uiautomator measured. A cheap look at the text, made before the tree is parsed.
 */
export function hierarchyExtent(text: string): ScreenSize | undefined {
  const edges = /bounds="\[-?\d+,-?\d+\]\[(\d+),(\d+)\]"/.exec(text);
  if (!edges) return undefined;
  const rotation = /<hierarchy\b[^>]*\brotation="(\d)"/.exec(text);
  return rotate({ width: Number(edges[1]), height: Number(edges[2]) }, rotation ? Number(rotation[1]) : 0);
}

/** The unrotated screen size to cut a listing to, given what its hierarchy measured (hierarchyExtent). */
export type SizeFor = (seen: ScreenSize | undefined) => Promise<ScreenSize>;

/**
 * The elements on screen: the UiAutomator2 server's source when it runs (one round trip), else one
 * `uiautomator dump` round trip, retried while uiautomator reports a transient "null root node" or
 * another client holds the phone's one UiAutomation connection.
 */
export class ElementListing {
  /** Parsed listings of recent dumps: an unchanged screen is not parsed again. */
  private readonly listings = new ListingCache();

  constructor(private readonly io: ListingIo) {}

  /** `sizeFor`: the unrotated screen size for what the hierarchy measured; elements are cut to it as rotated in the dump. */
  async list(sizeFor: SizeFor, ctx: CallContext): Promise<UiElement[]> {
    const io = this.io;
    await io.usable(ctx);
    const fromServer = async (): Promise<UiElement[] | undefined> => {
      const served = await io.served(ctx.signal);
      if (!served) return undefined;
      const natural = await sizeFor(hierarchyExtent(served));
      const { root, rotation } = await io.parse(ctx, 'UiAutomator2 server source', () => parseUiautomatorDump(served));
      return elementsFromTree(root, rotate(natural, rotation));
    };
    const served = await fromServer();
    if (served) return served;
    for (let attempt = 1; ; attempt++) {
      const out = await io.dump(ctx);
      if (isUiAutomationTaken(out)) {
        // One UI automation client at a time: our own server, starting in the background, took it
        // first (its source answers once it is up), or another tool holds it.
        if (await io.serverReady()) {
          const late = await fromServer();
          if (late) return late;
        }
        if (attempt < DUMP_ATTEMPTS) {
          await new Promise((r) => setTimeout(r, DUMP_RETRY_MS));
          continue;
        }
        throw new ToolError(
          'PERMISSION_DENIED',
          `${io.serial} lets one UI automation client read the screen at a time, and another one holds it (an Appium or UiAutomator test, an ATX agent, a screen reader tool): uiautomator dump cannot run; stop that tool and list again`,
        );
      }
      if (isNeverIdleDump(out)) {
        // The UiAutomator2 server reads the tree without waiting for idle: use it if it has come up meanwhile.
        if (await io.serverReady()) {
          const late = await fromServer();
          if (late) return late;
        }
        throw new ToolError(
          'UNSUPPORTED',
          `uiautomator dump on ${io.serial} gave no element tree: the screen kept changing for the 10 s it waits for a still moment ` +
            '("ERROR: could not get idle state.": an animation, a video or a view redrawn in a loop); list again once it settles, or take a screenshot',
        );
      }
      if (shellLacks(out, 'uiautomator')) {
        // Our UiAutomator2 server reads the tree without uiautomator: use it if it has come up meanwhile.
        if (await io.serverReady()) {
          const late = await fromServer();
          if (late) return late;
        }
        throw new ToolError(
          'UNSUPPORTED',
          `${io.serial} has no uiautomator ("${firstLine(out)}"), so its elements cannot be listed while the UiAutomator2 server does not run (see docs/android.md); take a screenshot instead`,
        );
      }
      if (isTransientDumpFailure(out) && attempt === 1) {
        // A sleeping or locked screen answers like this too: wake it, or say it is locked, before retrying.
        io.doubt();
        await io.usable(ctx);
      }
      if (isTransientDumpFailure(out) && attempt < DUMP_ATTEMPTS) {
        await new Promise((r) => setTimeout(r, DUMP_RETRY_MS));
        continue;
      }
      const physical = await sizeFor(hierarchyExtent(out));
      return io.parse(ctx, 'uiautomator dump', () =>
        this.listings.get(out, `${physical.width}x${physical.height}`, () => {
          const { root, rotation } = parseUiautomatorDump(out);
          return elementsFromTree(root, rotate(physical, rotation));
        }),
      );
    }
  }
}
