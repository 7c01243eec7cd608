/*
 * `dumpsys display` (DisplayManagerService.dumpInternal), read where the usual sources are missing:
 * it lists the logical displays ("Display 0:", then LogicalDisplay.dumpLocked's lines), whose
 * mOverrideDisplayInfo is the DisplayInfo the window manager set (setDisplayInfoOverrideFromWindowManager)
 * with the rotation applied and the display's power state (DisplayInfo.toString: ", rotation 1,",
 * ", state ON"). mBaseDisplayInfo always says rotation 0, and the override is "null" until the window
 * manager has set one: neither is taken for what the display shows.
 */

import type { ScreenSize } from '../../ui-tree.js';

/** Display 0's mOverrideDisplayInfo line, when set. */
function defaultDisplayOverride(out: string): string | undefined {
  const logical = /Logical Displays:[\s\S]*?^\s*Display 0:\s*$([\s\S]*)/m.exec(out)?.[1];
  const override = logical && /^\s*mOverrideDisplayInfo=(.*)$/m.exec(logical)?.[1];
  return override && override !== 'null' ? override : undefined;
}

/** The rotation (0–3) in a DisplayInfo line. */
function rotationIn(info: string): number | undefined {
  const rotation = /, rotation (\d)\b/.exec(info)?.[1];
  return rotation === undefined ? undefined : Number(rotation);
}

/** The rotation the default display shows (0–3); undefined when the dump does not say. */
export function parseDisplayManagerRotation(out: string): number | undefined {
  return rotationIn(defaultDisplayOverride(out) ?? '');
}

/**
 * Whether the default display is on (Display.stateToString: ON, or VR), not OFF or dozing (DOZE,
 * DOZE_SUSPEND, ON_SUSPEND: an always-on display, which drops taps as a sleeping screen does);
 * undefined when the dump does not say.
 */
export function parseDisplayManagerAwake(out: string): boolean | undefined {
  const state = /, state (\w+)/.exec(defaultDisplayOverride(out) ?? '')?.[1];
  return state === undefined ? undefined : state === 'ON' || state === 'VR';
}

/**
 * The default display's natural size as `wm size` gives it (an override set with `wm size WxH` in
 * effect): DisplayInfo.toString's "real W x H" is logicalWidth × logicalHeight, which the window
 * manager sets from its base size (the override, else the panel's) turned by the rotation
 * (DisplayContent.updateDisplayAndOrientation), so it is turned back. Not "app W x H", which leaves
 * out the system bars; undefined when the dump does not say.
 */
export function parseDisplayManagerSize(out: string): ScreenSize | undefined {
  const info = defaultDisplayOverride(out) ?? '';
  const real = /, real (\d+) x (\d+)/.exec(info);
  if (!real) return undefined;
  const [width, height] = [Number(real[1]), Number(real[2])];
  return (rotationIn(info) ?? 0) % 2 === 1 ? { width: height, height: width } : { width, height };
}
