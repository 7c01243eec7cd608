import { ToolError } from '../../errors.js';
import type { LackingRoutes } from './wda-lacking.js';
import { WdaRouteMissing } from './wda-refusals.js';

/** An unlocked screen is trusted this long: the input we send keeps the phone awake, so a burst of taps costs one check. */
const CONFIRMED_FOR_MS = 5000;

/** A WebDriverAgent route outside any session (`/wda/locked`, `/wda/unlock`). */
export type WdaRoute = (method: 'GET' | 'POST', path: string) => Promise<unknown>;

/**
 * Checks the lock screen before input, as the Android driver's ScreenGuard does. XCTest synthesizes
 * touches and keys on whatever is in front, and WDA answers success for them, so on a locked phone a
 * tap would be reported done while only the lock screen saw it. GET /wda/locked (FBCustomCommands.m
 * handleIsLocked) answers from SpringBoard's "com.apple.springboard.lockstate" notifications
 * (XCUIDevice+FBHelpers.m); POST /wda/unlock presses Home twice and waits up to 5 s for the lock to
 * go, which works without a passcode and fails with one ("Timed out while waiting until the screen
 * gets unlocked"). WDA learns the lock state from those notifications only, so a phone that was
 * locked before WDA started reads as unlocked until it is locked again: that case is not caught.
 */
export class LockGuard {
  private confirmedAt = -Infinity;
  /**
   * Why Home could not unlock the phone, until WDA reports it unlocked: a passcode does not go by pressing
   * Home again, and each try costs about 7 s and two Home presses (an element watcher lists every second).
   */
  private keptLocked: string | undefined;

  constructor(
    private readonly deviceId: string,
    /** A WDA lacking GET /wda/locked is not asked it again, so input pays no round trip for nothing. */
    private readonly lacking: LackingRoutes,
  ) {}

  /**
   * `route` reaches WDA within the caller's deadline. `read`: what the lock screen would spoil is a read (a
   * listing), which does not keep the phone awake, so its check does not stand for the input after it.
   * True when the phone was locked and WDA unlocked it (what was read meanwhile showed the lock screen).
   */
  async ensureUnlocked(what: string, route: WdaRoute, read?: { blocked: string }): Promise<boolean> {
    if (performance.now() - this.confirmedAt < CONFIRMED_FOR_MS) return false;
    const locked = await this.isLocked(route);
    if (locked !== true) this.keptLocked = undefined;
    if (locked === true) await this.unlock(route, read?.blocked ?? `${what} would only reach the lock screen`);
    // Unknown (a WDA without the route, or it failed): input is not blocked on it, nor asked again for a while.
    if (!read) this.confirmedAt = performance.now();
    return locked === true;
  }

  /** GET /wda/locked: undefined when WDA does not say (no such route, or it failed); a gone phone or a deadline is thrown. */
  async isLocked(route: WdaRoute): Promise<boolean | undefined> {
    if (this.lacking.has('GET /wda/locked')) return undefined;
    try {
      const value = await route('GET', '/wda/locked');
      return typeof value === 'boolean' ? value : undefined;
    } catch (err) {
      if (err instanceof WdaRouteMissing) this.lacking.add(err.route);
      else if (err instanceof ToolError && err.code !== 'INTERNAL') throw err; // the phone is gone, or the call ran out of time
      return undefined;
    }
  }

  private async unlock(route: WdaRoute, blocked: string): Promise<void> {
    // A WDA without /wda/unlock is asked again each time: the answer advises updating it, and it may have been.
    let noUnlockRoute = false;
    if (this.keptLocked === undefined) {
      try {
        await route('POST', '/wda/unlock');
        if ((await this.isLocked(route)) !== true) return;
        this.keptLocked = '';
      } catch (err) {
        if (err instanceof WdaRouteMissing) noUnlockRoute = true;
        else if (err instanceof ToolError && err.code !== 'INTERNAL') throw err;
        else this.keptLocked = err instanceof Error ? `: ${err.message}` : '';
      }
    }
    if (noUnlockRoute) {
      throw new ToolError('PERMISSION_DENIED', `${this.deviceId} is locked, and its WebDriverAgent lacks POST /wda/unlock, so nothing tried to unlock it and ${blocked}: unlock it by hand (or update WebDriverAgent, whose unlock presses Home twice)`);
    }
    throw new ToolError(
      'PERMISSION_DENIED',
      `${this.deviceId} is locked and WebDriverAgent could not unlock it (it pressed Home twice; a passcode keeps the lock${this.keptLocked}), so ${blocked}: ` +
        'unlock it by hand, or turn the passcode off on test phones (Settings › Face ID & Passcode)',
    );
  }
}
