import { setTimeout as sleep } from 'node:timers/promises';
import type { CallContext } from '../../driver.js';
import { ToolError } from '../../errors.js';
import type { Orientation } from '../../types.js';
import type { ScreenSize } from '../../ui-tree.js';
import type { ScreenState } from './screen-state.js';

/*
 * Rotation numbers count quarter turns from the display's natural orientation, which `wm size`
 * prints: portrait on phones, landscape on most tablets, TV boxes and Chromebooks. So rotation 0
 * is landscape there, and turning to portrait takes rotation 1.
 */
const naturallyLandscape = (natural: ScreenSize): boolean => natural.width > natural.height;

export function orientationAt(rotation: number, natural: ScreenSize): Orientation {
  return (rotation % 2 === 1) !== naturallyLandscape(natural) ? 'landscape' : 'portrait';
}

/** The user_rotation that shows `orientation` (0 when it is the natural one). */
export function rotationFor(orientation: Orientation, natural: ScreenSize): 0 | 1 {
  return (orientation === 'landscape') !== naturallyLandscape(natural) ? 1 : 0;
}

/** A phone turns its display in about half a second; this leaves room for a slow one. */
export const ROTATION_WAIT_MS = 2000;
const ROTATION_POLL_MS = 100;

export interface RotationIo {
  serial: string;
  /** What the display shows now (`dumpsys input`). */
  shown(ctx: CallContext): Promise<Orientation>;
  /** The package in front, for the message; undefined when it cannot be read. */
  front(ctx: CallContext): Promise<string | undefined>;
  /** Whether the screen is on and unlocked (read only: nothing is woken or dismissed); undefined when it cannot be read. */
  screen(ctx: CallContext): Promise<ScreenState | undefined>;
}

/**
 * Waits until the display shows `wanted` after user_rotation was set: the window manager turns it
 * after the settings command returns, and not at all while the app in front fixes its orientation
 * (DisplayRotation.rotationForOrientation lets a portrait-only activity win over user_rotation).
 * That refusal is reported, not passed off as a rotation.
 */
export async function awaitRotation(io: RotationIo, wanted: Orientation, ctx: CallContext, waitMs = ROTATION_WAIT_MS): Promise<void> {
  const deadline = performance.now() + waitMs;
  for (;;) {
    const shown = await io.shown(ctx);
    if (shown === wanted) return;
    if (performance.now() >= deadline) {
      const screen = await io.screen(ctx);
      // A phone's lock screen keeps portrait (config_enableLockScreenRotation is off on phones), and it is not an app's doing.
      if (screen && (screen.locked || !screen.awake)) {
        throw new ToolError(
          'PERMISSION_DENIED',
          `${io.serial} still shows ${shown} ${waitMs / 1000} s after rotation was locked to ${wanted}: ${screen.awake ? 'the lock screen is showing' : 'the screen is off'}, and it does not turn; ` +
            `unlock the phone (by hand if it has a PIN, pattern or password) and rotate again`,
        );
      }
      const front = await io.front(ctx);
      throw new ToolError(
        'UNSUPPORTED',
        `${io.serial} still shows ${shown} ${waitMs / 1000} s after rotation was locked to ${wanted}: ` +
          `${front ? `the app in front (${front})` : 'the app in front'} fixes its orientation, and Android does not turn such an app. ` +
          `The setting stays, so the screen turns when an app that allows ${wanted} comes to the front`,
      );
    }
    await sleep(ROTATION_POLL_MS, undefined, { signal: ctx.signal });
  }
}
