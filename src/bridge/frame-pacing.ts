import type { Subscription } from './sessions.js';

/**
 * Milliseconds until the subscriber may be sent its next frame. Captures keep to the fastest
 * subscriber's maxFps on a schedule of their own, so a subscriber at that rate gets each screen
 * at a fixed phase of its own grid, and a screen that came just before its grid point waited
 * nearly an interval (frame ages of 40 ms at 20 fps). A screen up to a quarter interval early
 * goes at once; the grid still advances one interval per send, so the average rate never
 * exceeds maxFps, and two sends are never less than half an interval apart.
 */
export function dueIn(sub: Subscription, now: number): number {
  const interval = sub.minIntervalMs;
  return Math.max(sub.lastSentAt + interval * 0.75, sub.sentAt + interval / 2) - now;
}

/** Records a send at `now`: the subscriber's maxFps grid moves on. */
export function markSent(sub: Subscription, now: number): void {
  // lastSentAt is the send's place on a maxFps grid, not the clock: a frame that finishes encoding
  // a little late then does not push the next one later, which at a capture rate equal to maxFps
  // made every jittery frame replace the one waiting in the slot (26 of 30 delivered). Up to half
  // an interval of lateness is absorbed; the average rate never exceeds maxFps.
  sub.lastSentAt = Math.max(sub.lastSentAt + sub.minIntervalMs, now - sub.minIntervalMs / 2);
  sub.sentAt = now;
}
