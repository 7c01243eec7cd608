import type { TracePoint } from './driver.js';
import type { Point } from './types.js';

/** A finger path ready to replay on release, and how its hold fared. */
export interface ReplayPath {
  /** Device pixels; `t` ms after the finger went down. A hold is two points at the same place. */
  path: TracePoint[];
  /** How long the finger stayed in place before it moved off, as replayed. */
  holdMs: number;
  /** As the user held it, when the replay had to shorten the hold. */
  heldMs?: number;
  /** The moves after the hold were played faster than made, to fit `maxMs`. */
  sped?: boolean;
}

/**
 * The path of a finger that moved, as the phone should get it: the points before it left the slop are one
 * hold where it went down (jitter while holding is no drag), kept as long as it lasted, so an app sees a
 * long press and then the drag. The whole lasts at most `maxMs`: the hold gives way first, never below a
 * long press (`keepMs`) it was, then the moves play faster.
 */
export function replayPath(path: readonly TracePoint[], from: Point, slopPx: number, keepMs: number, maxMs: number): ReplayPath {
  const off = path.findIndex((p) => Math.hypot(p.x - from.x, p.y - from.y) > slopPx);
  const start = off > 0 ? off : 1;
  const hold = path[start - 1].t;
  const motion = path[path.length - 1].t - hold;
  let kept = hold;
  let factor = 1;
  if (hold + motion > maxMs) {
    kept = Math.max(Math.min(hold, keepMs), maxMs - motion);
    if (kept + motion > maxMs) factor = (maxMs - kept) / motion;
  }
  const out: TracePoint[] = [{ x: from.x, y: from.y, t: 0 }];
  if (kept > 0) out.push({ x: from.x, y: from.y, t: kept });
  for (const p of path.slice(start)) out.push({ x: p.x, y: p.y, t: Math.round(kept + (p.t - hold) * factor) });
  return { path: out, holdMs: kept, ...(kept < hold ? { heldMs: hold } : {}), ...(factor < 1 ? { sped: true } : {}) };
}
