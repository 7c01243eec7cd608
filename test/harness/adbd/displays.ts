/**
 * The emulated phone's physical displays, as `dumpsys SurfaceFlinger --display-id`, `dumpsys input`
 * and `screencap -d` show them.
 *
 * - One panel: the phone.
 * - `external`: the panel plus an external display (logical display 2, an EXTERNAL viewport).
 * - `folded` / `open`: a foldable's inner panel (HWC display 0, listed first) and outer panel. Only
 *   one is on; the default display (logical display 0) is shown on it. DisplayManagerService
 *   .configureDisplayLocked gives a panel without a logical display of its own the default display to
 *   mirror, so both panels have a `Viewport INTERNAL: displayId=0` line, told apart by isActive
 *   (populateViewportLocked: Display.isActiveState of the panel's state). The outer panel has the
 *   virtual phone's size; the inner one is larger (innerPanelSize), so a fold changes the default
 *   display's size as on a real book-style foldable. An off panel is captured as black.
 *
 * Viewport lines follow DisplayViewport::toString (frameworks/native include/input/DisplayViewport.h);
 * panel ids are LocalDisplayAdapter's "local:" + physical display id, the id screencap -d takes.
 */
export type DisplaySetup = 'single' | 'external' | 'folded' | 'open';

export interface PanelSize { width: number; height: number }

/**
 * A book-style foldable's inner panel, unrotated: as tall as the outer panel and twice as wide (a
 * Galaxy Z Fold5 has 904x2316 outside and 1812x2176 inside). Unfolded, the default display has this
 * size: `wm size`, `dumpsys input`, uiautomator, input and screencap all follow it.
 */
export function innerPanelSize(outer: PanelSize): PanelSize {
  return { width: outer.width * 2, height: outer.height };
}

export const MAIN_PANEL = '4619827259835644672';
const OUTER_PANEL = '4619827259835644673';
const EXTERNAL_DISPLAY = '4619827551948147201';

interface Panel {
  id: string;
  hwc: number;
  /** The logical display it shows, and whether its viewport is INTERNAL. */
  logical: number;
  internal: boolean;
  on: boolean;
}

function panels(setup: DisplaySetup): Panel[] {
  const main = { id: MAIN_PANEL, hwc: 0, logical: 0, internal: true, on: setup !== 'folded' };
  if (setup === 'external') return [main, { id: EXTERNAL_DISPLAY, hwc: 1, logical: 2, internal: false, on: true }];
  if (setup === 'single') return [main];
  return [main, { id: OUTER_PANEL, hwc: 1, logical: 0, internal: true, on: setup === 'folded' }];
}

/** `dumpsys SurfaceFlinger --display-id` (SurfaceFlinger::dumpDisplayIdentificationData): one line per physical display. */
export function displayIdLines(setup: DisplaySetup): string {
  return panels(setup).map((p) => `Display ${p.id} (HWC display ${p.hwc}): port=${p.hwc} pnpId=GGL displayName="EMU_display_${p.hwc}"\n`).join('');
}

/** The viewport lines of `dumpsys input` for the phone's rotation and its panels' natural sizes (`main`: the panel listed first). */
export function viewportLines(setup: DisplaySetup, rotation: number, natural: { main: PanelSize; outer: PanelSize }): string {
  return panels(setup).map((p) => {
    const size = p.id === OUTER_PANEL ? natural.outer : natural.main;
    const frame = rotation % 2 === 1 ? `${size.height}, ${size.width}` : `${size.width}, ${size.height}`;
    return `  Viewport ${p.internal ? 'INTERNAL' : 'EXTERNAL'}: displayId=${p.logical}, uniqueId=local:${p.id}, port=${p.hwc}, orientation=${p.internal ? rotation : 0}, ` +
      `logicalFrame=[0, 0, ${frame}], physicalFrame=[0, 0, ${frame}], deviceSize=[${size.width}, ${size.height}], isActive=[${p.on ? 1 : 0}]\n`;
  }).join('');
}

/**
 * What `screencap [-d id]` captures: `screen` (the phone's), `dark` (a panel that is off), or an
 * error for an id no display has. Without -d, Android 14's screencap takes the first of
 * getPhysicalDisplayIds, which SurfaceFlinger starts with the default display's panel, and warns
 * when there are several.
 */
export function capturedPanel(setup: DisplaySetup, id: string | undefined): { shows: 'screen' | 'dark'; warning: string; inner: boolean } | { error: string } {
  const all = panels(setup);
  const warning = id === undefined && all.length > 1 ? MULTIPLE_DISPLAYS_WARNING : '';
  const panel = id === undefined ? all.find((p) => p.logical === 0 && p.on) ?? all[0] : all.find((p) => p.id === id || (id === '0' && p === all[0]));
  if (!panel) return { error: `Display Id '${id}' is not valid.\n` };
  return { shows: panel.on ? 'screen' : 'dark', warning, inner: isFoldable(setup) && panel.id === MAIN_PANEL };
}

const isFoldable = (setup: DisplaySetup): boolean => setup === 'folded' || setup === 'open';

const MULTIPLE_DISPLAYS_WARNING =
  '[Warning] Multiple displays were found, but no display id was specified! Defaulting to the first display found, however this default is not guaranteed to be consistent across captures. A display id should be specified.\n' +
  'A display ID can be specified with the [-d display-id] option.\n' +
  'See "dumpsys SurfaceFlinger --display-id" for valid display IDs.\n';
