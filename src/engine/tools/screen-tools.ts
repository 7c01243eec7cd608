import { ToolError } from '../errors.js';
import { identifiable, showsAs } from '../listed-elements.js';
import { listingNote } from '../listing/listing-note.js';
import { extname } from 'node:path';
import { captureScreen, jpegOf, pngOf } from '../screen/capture.js';
import type { ElementListing } from '../driver.js';
import type { UiElement } from '../types.js';
import { cutAtListEdge } from '../list-edge.js';
import { readableName } from '../readable-name.js';
import { textInside } from '../resolve/on-screen.js';
import { deviceTool, success, type ToolContext } from './define.js';
import { device, oneOf, params, requiredString } from './params.js';

const listElements = (ctx: ToolContext): Promise<ElementListing> => ctx.device.listElements(ctx);

function fullyOnScreen(e: UiElement, width: number, height: number): boolean {
  return e.x >= 0 && e.y >= 0 && e.x + e.width <= width && e.y + e.height <= height;
}

/** Swipes that scroll by about half a screen: big enough to make progress, small enough not to skip items. */
async function scrollHalfScreen(ctx: ToolContext, revealBelow: boolean): Promise<void> {
  const { width, height } = await ctx.screenSize();
  const x = Math.round(width / 2);
  const a = Math.round(height * 0.7);
  const b = Math.round(height * 0.3);
  await ctx.device.swipe(x, revealBelow ? a : b, x, revealBelow ? b : a, 300, ctx);
}

const MAX_SCROLLS_EACH_WAY = 15;
/** Short scrolls to bring in an element found cut at an edge. */
const MAX_NUDGES = 3;
/**
 * Added to a short scroll: a list starts moving only once the finger has moved past the touch slop
 * (8 dp, ~24 px on phones), and a shorter stroke is a tap on whatever is under it.
 */
const SLOP_PX = 32;

interface Cut {
  edge: 'top' | 'bottom';
  /** Pixels of the element not shown. */
  missing: number;
  /** Its full height, as far as the listing tells. */
  height: number;
  by: string;
  /** Where a finger can scroll it: the middle of its list, else of the screen. */
  at: { x: number; y: number; top: number; bottom: number };
}

/** Where `e` is cut off, by its list's edge or by the screen's, or undefined when all of it shows. */
function cutOff(e: UiElement, elements: readonly UiElement[], width: number, height: number): Cut | undefined {
  const list = cutAtListEdge(e, elements);
  if (list) {
    const l = list.list;
    return { edge: list.edge, missing: list.missing, height: list.height, by: 'its list', at: { x: l.center.x, y: l.center.y, top: l.y, bottom: l.y + l.height } };
  }
  if (fullyOnScreen(e, width, height)) return undefined;
  const edge = e.y < 0 ? 'top' : 'bottom';
  const missing = edge === 'top' ? -e.y : e.y + e.height - height;
  return { edge, missing: Math.max(1, missing), height: e.height, by: 'the screen', at: { x: Math.round(width / 2), y: Math.round(height / 2), top: 0, bottom: height } };
}

/** One short scroll in the middle of the element's list, by what is missing and a quarter of it more. */
async function nudge(ctx: ToolContext, cut: Cut, width: number, height: number): Promise<void> {
  const room = Math.max(1, Math.floor((cut.at.bottom - cut.at.top) * 0.8));
  const distance = Math.min(room, cut.missing + Math.round(cut.height / 4) + SLOP_PX);
  // Finger up (content up) brings in what is cut at the bottom.
  const up = cut.edge === 'bottom';
  const from = Math.min(height - 1, Math.max(0, Math.round(cut.at.y + (up ? distance : -distance) / 2)));
  const to = Math.min(height - 1, Math.max(0, from + (up ? -distance : distance)));
  await ctx.device.swipe(Math.min(width - 1, cut.at.x), from, Math.min(width - 1, cut.at.x), to, 300, ctx);
}

/** How one way of a search went: its scrolls, whether the list stopped moving, what showed last at that end. */
interface SearchWay {
  below: boolean;
  scrolls: number;
  stopped: boolean;
  last?: string;
}

const signatureOf = (elements: readonly UiElement[]): string => elements.map((e) => `${e.id}@${e.y}`).join('|');

/** The row (else the text) nearest the end a way reached, by its text, label or title. */
function endName(elements: readonly UiElement[], below: boolean): string | undefined {
  const rows = elements.filter((e) => e.type === 'listitem');
  const named = (rows.length ? rows : elements.filter((e) => e.type === 'text')).flatMap((e) => {
    const name = readableName(e) ?? textInside(e, elements);
    return name ? [{ name, y: e.center.y }] : [];
  });
  named.sort((a, b) => (below ? b.y - a.y : a.y - b.y));
  return named[0]?.name;
}

function wayWords(w: SearchWay): string {
  const at = w.last ? `, at ${JSON.stringify(w.last)}` : '';
  const scrolls = `${w.scrolls} scroll${w.scrolls === 1 ? '' : 's'} towards content ${w.below ? 'below' : 'above'}`;
  if (!w.stopped) return `${scrolls} (the most each way) with the list still moving${at}`;
  if (w.scrolls <= 1) return `${scrolls} moved nothing${at}`;
  return `${scrolls} until the list stopped moving at its ${w.below ? 'bottom' : 'top'}${at}`;
}

/**
 * The file format a saveTo name asks for. mobile-mcp writes JPEG for .jpg, so an agent moving over
 * expects the same; PNG bytes under a .jpg or .webp name would open as the wrong type. A name
 * without an extension keeps the seed's PNG.
 */
function savedFormat(saveTo: string): 'png' | 'jpeg' {
  const ext = extname(saveTo).toLowerCase();
  if (ext === '' || ext === '.png') return 'png';
  if (ext === '.jpg' || ext === '.jpeg') return 'jpeg';
  throw new ToolError('INVALID_PARAMETER', `saveTo ${JSON.stringify(saveTo)}: screenshots are saved as PNG (.png) or JPEG (.jpg, .jpeg), not ${ext}; give the file one of those extensions`);
}

/** The screen as a JPEG, from raw pixels where the driver has them (the pooled slot given back after). */
async function jpegOfScreen(ctx: ToolContext): Promise<Buffer> {
  const cap = await captureScreen(ctx.device, ctx);
  return jpegOf(cap).finally(() => cap.raw?.release?.());
}

export const screenTools = [
  deviceTool({
    name: 'mobile_take_screenshot',
    description:
      'Capture the screen as a base64 PNG: {image, format: "png", dimensions: {width, height}} in device pixels, the same pixels as element bounds and tap coordinates. Prefer mobile_list_elements_on_screen to find things; use screenshots to check how the screen looks.',
    params: params({ device }),
    mutates: false,
    async handler(_p, ctx) {
      // A viewer's capture of moments ago, when nothing changed since, spares the device a capture.
      const kept = ctx.keptCapture?.();
      // The kept capture lends a pooled pixel slot: given back once encoded.
      const shot = kept ? { png: await pngOf(kept).finally(() => kept.raw?.release?.()), width: kept.width, height: kept.height } : await ctx.device.screenshot(ctx);
      return { image: shot.png.toString('base64'), format: 'png', dimensions: { width: shot.width, height: shot.height } };
    },
  }),
  deviceTool({
    name: 'mobile_save_screenshot',
    description:
      'Capture the screen and write it as a file on the machine running mobilebridge (atomically, into an existing folder): PNG for a .png name (or none), JPEG for .jpg/.jpeg; other extensions are refused. saveTo must be under the working directory, the temp directory or a folder allowed with --allow-path (else PERMISSION_DENIED). A full disk answers DISK_FULL. Returns {status, path}.',
    params: params({ device, saveTo: requiredString('saveTo', 'file path ending in .png, .jpg or .jpeg, e.g. ./shots/home.png') }),
    mutates: false,
    async handler(p, ctx) {
      const format = savedFormat(p.saveTo);
      await ctx.allowedPath(p.saveTo, 'saveTo');
      const bytes = format === 'png' ? (await ctx.device.screenshot(ctx)).png : await jpegOfScreen(ctx);
      const file = await ctx.files.write(p.saveTo, 'saveTo', bytes);
      return { status: 'success', path: file };
    },
  }),
  deviceTool({
    name: 'mobile_list_elements_on_screen',
    description:
      'List the interactive elements visible now: [{id, text, type, accessibility_label, x, y, width, height, visible, enabled, center: {x, y}, ...}] in device pixels. ' +
      'To tap an element, pass its center to mobile_click_on_screen_at_coordinates. Elements scrolled off screen are not listed: swipe or use mobile_scroll_to_element, then list again.',
    params: params({ device }),
    mutates: false,
    async handler(_p, ctx) {
      const elements = await listElements(ctx);
      ctx.listed?.remember(elements);
      // The note leaves the array as its own field: JSON drops properties of arrays.
      const note = listingNote(elements);
      return note ? { elements: [...elements], note } : { elements };
    },
  }),
  deviceTool({
    name: 'mobile_get_screen_size',
    description: 'Return the screen size in device pixels for the current orientation: {width, height}.',
    params: params({ device }),
    mutates: false,
    async handler(_p, ctx) {
      return ctx.device.screenSize(ctx);
    },
  }),
  deviceTool({
    name: 'mobile_get_orientation',
    description: 'Return the current screen orientation: {orientation: "portrait" | "landscape"}.',
    params: params({ device }),
    mutates: false,
    async handler(_p, ctx) {
      return { orientation: await ctx.device.getOrientation(ctx) };
    },
  }),
  deviceTool({
    name: 'mobile_set_orientation',
    description: 'Rotate the screen to portrait or landscape. Width and height swap; list elements again afterwards because every position changes.',
    params: params({ device, orientation: oneOf('orientation', ['portrait', 'landscape'] as const, 'The orientation to lock the screen in.') }),
    mutates: true,
    async handler(p, ctx) {
      await ctx.device.setOrientation(p.orientation, ctx);
      ctx.forgetScreenSize();
      return success(`set orientation of ${p.device} to ${p.orientation}`);
    },
  }),
  deviceTool({
    name: 'mobile_scroll_to_element',
    description:
      'Scroll until the element with this id (from an earlier mobile_list_elements_on_screen, or a resource-based id such as item_17) is on screen: first towards content below, then above. ' +
      `Errors: ELEMENT_NOT_FOUND when it never appears (at most ${MAX_SCROLLS_EACH_WAY} scrolls each way, fewer when the list stops moving; the message says how many went each way and what showed where the list ended).`,
    params: params({ device, element: requiredString('element', 'an element id from mobile_list_elements_on_screen') }),
    mutates: true,
    timeoutMs: 90_000,
    async handler(p, ctx) {
      const { width, height } = await ctx.screenSize();
      // The element the caller saw under this id: the id may name another row by now (a scrolled list).
      const listed = ctx.listed?.seen(p.element);
      const pick = (elements: UiElement[]): UiElement | undefined => {
        const atId = elements.find((e) => e.id === p.element);
        if (!listed || (atId && showsAs(atId, listed))) return atId;
        const same = identifiable(listed) ? elements.filter((e) => showsAs(e, listed)) : [];
        return same.length === 1 ? same[0] : undefined;
      };
      let elements: UiElement[] = await listElements(ctx);
      const first = elements as ElementListing;
      let hit = pick(elements);
      // What a listing said it may be missing (iOS: WDA's snapshot depth), for the not-found message.
      let incomplete = first.note;
      const ways: SearchWay[] = [];
      for (const below of [true, false]) {
        if (hit) break;
        const way: SearchWay = { below, scrolls: 0, stopped: false };
        ways.push(way);
        let previous = signatureOf(elements);
        while (!hit && way.scrolls < MAX_SCROLLS_EACH_WAY) {
          await scrollHalfScreen(ctx, below);
          way.scrolls++;
          const listing = await listElements(ctx);
          elements = listing;
          hit = pick(listing);
          incomplete ??= listing.note;
          way.last = endName(elements, below);
          // An unchanged listing means the end of the content in this direction.
          const signature = signatureOf(elements);
          if (signature === previous) {
            way.stopped = true;
            break;
          }
          previous = signature;
        }
      }
      const scrolls = ways.reduce((n, w) => n + w.scrolls, 0);
      const what = listed && identifiable(listed) ? `element "${p.element}" (${JSON.stringify(listed.text || listed.label)} when it was listed)` : `element "${p.element}"`;
      if (!hit) {
        throw new ToolError(
          'ELEMENT_NOT_FOUND',
          `${what} did not appear on ${p.device}: ${ways.map(wayWords).join(', then ')}; list elements again, the id may have changed${incomplete ? `; ${incomplete}` : ''}`,
        );
      }
      // Found, but maybe only a sliver of it: cut by its list's edge (listings clip bounds to what shows)
      // or by the screen's. Short scrolls by what is missing bring it in, each checked by a new listing.
      let nudges = 0;
      for (let cut = cutOff(hit, elements, width, height); cut; cut = cutOff(hit, elements, width, height)) {
        if (nudges === MAX_NUDGES) {
          const shown = `${hit.height} of about ${cut.height} px`;
          return success(`${what} is only partly on screen on ${p.device} (${shown} show, cut at the ${cut.edge} of ${cut.by}) after ${scrolls + nudges} scrolls: its list may not scroll further; tap within what shows, or scroll by hand`);
        }
        await nudge(ctx, cut, width, height);
        nudges++;
        elements = await listElements(ctx);
        const again = pick(elements);
        if (!again) {
          throw new ToolError('ELEMENT_NOT_FOUND', `${what} was on screen on ${p.device} but is gone after a short scroll to bring it fully in (the list moved further than asked); list elements again`);
        }
        hit = again;
      }
      const moved = hit.id !== p.element ? `; it is listed as "${hit.id}" now (ids follow the element's place on screen), list elements again before using ids` : '';
      const count = scrolls + nudges;
      return success(`scrolled to ${what} on ${p.device}${count ? ` (${count} scrolls)` : ''}${moved}`);
    },
  }),
];

