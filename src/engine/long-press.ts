import type { DeviceInfo } from './types.js';

/**
 * How long a finger must stay down before apps see a long press instead of a tap: Android's
 * ViewConfiguration long-press timeout (DEFAULT_LONG_PRESS_TIMEOUT 400 ms from Android 12, 500 ms on
 * older releases; the user's Accessibility "Touch & hold delay" raises it to 1 or 1.5 s), and UIKit's
 * UILongPressGestureRecognizer (minimumPressDuration 0.5 s). A shorter press is a tap: it opens what a
 * long press would have offered a menu for.
 */
export function longPressThresholdMs(info: Pick<DeviceInfo, 'os' | 'version'>): number {
  if (info.os !== 'Android') return 500;
  const major = Number.parseInt(info.version, 10);
  return Number.isFinite(major) && major >= 12 ? 400 : 500;
}

/** The result's words for a press of `durationMs` on a device: a long press, or what apps made of it. */
export function pressOutcome(info: Pick<DeviceInfo, 'os' | 'version'>, durationMs: number): { longPress: boolean; note?: string } {
  const threshold = longPressThresholdMs(info);
  if (durationMs >= threshold) return { longPress: true };
  const where = info.os === 'Android' ? `Android ${info.version} waits ${threshold} ms, longer when Accessibility's touch & hold delay is raised` : `iOS waits ${threshold} ms`;
  return { longPress: false, note: `${durationMs} ms is shorter than a long press (${where}), so apps took it as a tap; use a duration of at least ${threshold} ms for a long press` };
}
