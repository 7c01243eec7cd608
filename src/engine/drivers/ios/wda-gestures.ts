/**
 * Gestures as W3C actions for WebDriverAgent's POST /actions, in points (the device divides its
 * pixels by the screen scale first). Pure: the device decides when and where they are sent.
 */
import type { TracePoint } from '../../driver.js';
import type { FingerPath } from '../../types.js';

/** One W3C actions input source: a touch pointer and its actions. */
export function touchSource(id: string, actions: object[]): object {
  return { type: 'pointer', id, parameters: { pointerType: 'touch' }, actions };
}

/** A touch at a point held for `holdMs`. */
export function pressAt(x: number, y: number, holdMs: number): object[] {
  return [
    { type: 'pointerMove', duration: 0, x, y },
    { type: 'pointerDown', button: 0 },
    { type: 'pause', duration: holdMs },
    { type: 'pointerUp', button: 0 },
  ];
}

/**
 * The sequence of WDA's own double-tap test (FBW3CTouchActionsIntegrationTests.m): one move, then two
 * presses. A second move would not start a new touch: FBBaseActionsSynthesizer keeps the lifted event
 * path current, and FBPointerMoveItem adds the move to it, after its lift (appium/WebDriverAgent#924:
 * a finger left held); the second pointerDown opens its own path at the same point.
 */
export function doubleTapAt(x: number, y: number): object[] {
  const press = pressAt(x, y, 50);
  return [...press, { type: 'pause', duration: 100 }, ...press.slice(1)];
}

/** Down, a short hold so XCTest sees a touch and not a flick, then a move of `durationMs`. */
export function swipeBetween(from: { x: number; y: number }, to: { x: number; y: number }, durationMs: number): object[] {
  return [
    { type: 'pointerMove', duration: 0, x: from.x, y: from.y },
    { type: 'pointerDown', button: 0 },
    { type: 'pause', duration: 50 },
    { type: 'pointerMove', duration: durationMs, x: to.x, y: to.y },
    { type: 'pointerUp', button: 0 },
  ];
}

/** Two touch pointers in one request: XCTest synthesizes them as one multi-touch event stream. */
export function pinchSources(fingers: readonly [FingerPath, FingerPath], durationMs: number, scale: number): object[] {
  const source = (id: string, f: FingerPath) =>
    touchSource(id, [
      { type: 'pointerMove', duration: 0, x: f.from.x / scale, y: f.from.y / scale },
      { type: 'pointerDown', button: 0 },
      { type: 'pointerMove', duration: durationMs, x: f.to.x / scale, y: f.to.y / scale },
      { type: 'pointerUp', button: 0 },
    ]);
  return [source('finger1', fingers[0]), source('finger2', fingers[1])];
}

/**
 * A finger path replayed as one gesture (WDA has no streamed touch), every step as long as it took: a finger
 * staying in place is a pause, so a hold before a drag reaches the phone as a long press, then the drag.
 * FBW3CActionsSynthesizer sets no limit on durations; the caller bounds the whole.
 */
export function tracedPath(path: readonly TracePoint[], scale: number): object[] {
  const actions: object[] = [{ type: 'pointerMove', duration: 0, x: path[0].x / scale, y: path[0].y / scale }, { type: 'pointerDown', button: 0 }];
  for (let i = 1; i < path.length; i++) {
    const duration = Math.max(0, Math.round(path[i].t - path[i - 1].t));
    const still = path[i].x === path[i - 1].x && path[i].y === path[i - 1].y;
    actions.push(still ? { type: 'pause', duration } : { type: 'pointerMove', duration, x: path[i].x / scale, y: path[i].y / scale });
  }
  actions.push({ type: 'pointerUp', button: 0 });
  return actions;
}
