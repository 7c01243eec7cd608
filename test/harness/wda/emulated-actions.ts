import type { CallContext } from '../../../src/engine/driver.js';
import type { VirtualDevice } from '../../../src/engine/drivers/virtual/index.js';
import { wdaNsError } from './wda-failure.js';

/*
 * W3C actions (POST /actions) as WDA's FBW3CActionsSynthesizer plays them, acted out on the virtual phone (points → pixels).
 * A refused chain is FBResponseWithUnknownError (FBTouchActionCommands.m): 500 "unknown error" quoting the NSError.
 */

interface PointerAction {
  type: string;
  x?: number;
  y?: number;
  duration?: number;
}

interface PointerSource {
  type?: string;
  parameters?: { pointerType?: string };
  actions?: PointerAction[];
}

const ctx = (): CallContext => ({ signal: new AbortController().signal });

/** Moves the virtual phone's time on, as XCTest plays pauses and timed moves over real time. */
export type GestureClock = { advance(ms: number): void };

/**
 * W3C pointer actions: a down and up at one place is a tap (two make a double tap, a long hold a long press); a move
 * while down is a drag, played on the phone's finger with its pauses and durations, so a hold before it is a long press.
 */
export async function performActions(device: VirtualDevice, scale: number, actions: unknown, clock?: GestureClock): Promise<null> {
  if (Array.isArray(actions) && actions.length === 2) return twoFingers(device, scale, actions as PointerSource[]);
  const source = Array.isArray(actions) ? (actions[0] as PointerSource) : undefined;
  // FBW3CActionsSynthesizer.m: a pointer source without parameters.pointerType is a mouse, which WDA refuses too.
  const pointerType = source?.parameters?.pointerType ?? 'mouse';
  if (source?.type === 'pointer' && pointerType !== 'touch') {
    throw wdaNsError('unknown error', 500, `Only pointer type 'touch' is supported. '${pointerType}' is given instead for action with id '${(source as { id?: string }).id ?? ''}'`);
  }
  if (source?.type !== 'pointer' || !Array.isArray(source.actions)) throw wdaNsError('unknown error', 500, 'the emulated WebDriverAgent plays one pointer source or two touch ones');
  const s = scale;
  const d = device;
  let x = 0;
  let y = 0;
  let down: { x: number; y: number; held: number; moved: boolean; path: Step[] } | undefined;
  const taps: { x: number; y: number; held: number }[] = [];
  // FBBaseActionsSynthesizer keeps a lifted event path current, and FBPointerMoveItem adds a move to it
  // after its lift: what XCTest makes of that is not defined (appium/WebDriverAgent#924 saw a finger left
  // held). Here the presses of such a chain are not taken as one double tap.
  let lifted = false;
  let strayMove = false;
  for (const a of source.actions) {
    if (a.type === 'pointerMove') {
      x = a.x ?? x;
      y = a.y ?? y;
      if (lifted && !down) strayMove = true;
      if (down) {
        down.moved = true;
        down.path.push({ x, y, after: down.held + (a.duration ?? 0) });
        down.held = 0;
      }
    } else if (a.type === 'pointerDown') down = { x, y, held: 0, moved: false, path: [{ x, y, after: 0 }] };
    else if (a.type === 'pause' && down) down.held += a.duration ?? 0;
    else if (a.type === 'pointerUp' && down) {
      // XCTest synthesizes the whole path as one event stream: the content follows every point.
      if (down.moved) await follow(device, down.path.map((p) => ({ x: Math.round(p.x * s), y: Math.round(p.y * s), after: p.after })), clock);
      else taps.push({ x: down.x, y: down.y, held: down.held });
      down = undefined;
      lifted = true;
    }
  }
  if (taps.length === 2 && strayMove) for (const t of taps) await d.tap(t.x * s, t.y * s, ctx());
  else if (taps.length === 2) await d.doubleTap(taps[0].x * s, taps[0].y * s, ctx());
  else if (taps.length === 1 && taps[0].held >= 500) await d.longPress(taps[0].x * s, taps[0].y * s, taps[0].held, ctx());
  else if (taps.length === 1) await d.tap(taps[0].x * s, taps[0].y * s, ctx());
  return null;
}

/**
 * Two touch pointer sources (FBW3CActionsSynthesizer turns each into its own XCPointerEventPath,
 * played as one multi-touch gesture): where each finger went down and where it was lifted reach
 * the phone as a pinch. Anything else with two sources is refused, not guessed at.
 */
async function twoFingers(device: VirtualDevice, scale: number, sources: PointerSource[]): Promise<null> {
  const s = scale;
  const path = (source: PointerSource) => {
    if (source?.type !== 'pointer' || source.parameters?.pointerType !== 'touch' || !Array.isArray(source.actions)) {
      throw wdaNsError('unknown error', 500, 'the emulated WebDriverAgent plays two sources only as two touch pointers');
    }
    let at: { x: number; y: number } | undefined;
    let from: { x: number; y: number } | undefined;
    let to: { x: number; y: number } | undefined;
    for (const a of source.actions) {
      if (a.type === 'pointerMove') at = { x: a.x ?? at?.x ?? 0, y: a.y ?? at?.y ?? 0 };
      else if (a.type === 'pointerDown') from = at;
      else if (a.type === 'pointerUp') to = at;
    }
    if (!from || !to) throw wdaNsError('unknown error', 500, 'the emulated WebDriverAgent plays two fingers only when each goes down and up');
    return { from: { x: Math.round(from.x * s), y: Math.round(from.y * s) }, to: { x: Math.round(to.x * s), y: Math.round(to.y * s) } };
  };
  await device.pinch([path(sources[0]), path(sources[1])], 0, ctx());
  return null;
}

/** How long XCTest takes to play the chains (FBW3CGestureItemsChain adds up each item's duration; the sources play together). */
export function gestureMs(actions: unknown): number {
  const sources = Array.isArray(actions) ? (actions as PointerSource[]) : [];
  return Math.max(0, ...sources.map((s) => (s?.actions ?? []).reduce((sum, a) => sum + (a.duration ?? 0), 0)));
}

/** A point of a drag, reached `after` ms after the one before it. */
interface Step {
  x: number;
  y: number;
  after: number;
}

/** One finger along the path on the virtual phone (device pixels), in the phone's time when a clock is given. */
async function follow(device: VirtualDevice, path: Step[], clock: GestureClock | undefined): Promise<void> {
  const d = device;
  await d.touch('down', path[0].x, path[0].y, ctx());
  for (const p of path.slice(1)) {
    clock?.advance(p.after);
    await d.touch('move', p.x, p.y, ctx());
  }
  const last = path[path.length - 1];
  await d.touch('up', last.x, last.y, ctx());
}
