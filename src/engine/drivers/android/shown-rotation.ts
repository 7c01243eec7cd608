import type { CallContext } from '../../driver.js';
import { ToolError } from '../../errors.js';
import { parseDisplayManagerRotation } from './display-manager-dump.js';
import { parseRotation } from './shell-output.js';

/*
 * Where the display's rotation is read when `dumpsys input` does not show it (a build without the
 * input service's dump, a restricted dumpsys, a device emulation). Only what shows the rotation the
 * window manager applied is trusted: settings' user_rotation is what was asked for, which an app
 * that fixes its orientation overrides (DisplayRotation.rotationForOrientation), so it is not read.
 */

/** uiautomator's hierarchy: `rotation` on <hierarchy> is the default display's (UiDevice.getDisplayRotation). */
export function parseHierarchyRotation(dump: string): number | undefined {
  const rotation = /<hierarchy\b[^>]*\brotation="(\d)"/.exec(dump)?.[1];
  return rotation === undefined ? undefined : Number(rotation);
}

export interface ShownRotationIo {
  serial: string;
  text(command: string, ctx: CallContext, what: string): Promise<string>;
  /** The element tree's XML (UiAutomator2 server source or `uiautomator dump`), as printed. */
  hierarchy(ctx: CallContext): Promise<string>;
}

/** No source shows the rotation: the orientation is not guessed. */
export class RotationUnreadable extends ToolError {
  constructor(serial: string) {
    super('UNSUPPORTED', `${serial} shows its display rotation in none of \`dumpsys input\`, \`dumpsys display\` and its UI hierarchy (\`uiautomator dump\`), so its orientation cannot be read`);
  }
}

/**
 * The rotation shown now, from `dumpsys input` (`dumpsysInput` when it was just read with the size);
 * where that shows none, `dumpsys display`, else the UI hierarchy (a dump costs a second or two, so it
 * comes last). A phone's `dumpsys input` shows it: only a device that lacks it pays for the others.
 */
export async function shownRotation(io: ShownRotationIo, ctx: CallContext, dumpsysInput?: string): Promise<number> {
  const input = parseRotation(dumpsysInput ?? (await io.text('dumpsys input', ctx, 'reading the orientation')));
  return input ?? (await otherRotation(io, ctx));
}

/** The rotation from `dumpsys display` or the UI hierarchy, for a device whose `dumpsys input` showed none. */
export async function otherRotation(io: ShownRotationIo, ctx: CallContext): Promise<number> {
  const display = parseDisplayManagerRotation(await io.text('dumpsys display', ctx, 'reading the orientation'));
  const rotation = display ?? parseHierarchyRotation(await io.hierarchy(ctx));
  if (rotation === undefined) throw new RotationUnreadable(io.serial);
  return rotation;
}
