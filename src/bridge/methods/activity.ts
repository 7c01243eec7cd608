import { defineMethod, type MethodDef } from '../registry.js';

/**
 * activity.recent: what a viewer opening a device late needs for pair debugging — the device's
 * last 50 activity entries (oldest first; ids match the device.activity notifications, so a
 * client merges both by id) and who holds its lock.
 */
export const activityMethods: MethodDef[] = [
  defineMethod('activity.recent', (p, ctx) => ({
    device: p.device,
    entries: ctx.bridge.hub.feed.recent(p.device),
    lock: ctx.bridge.locks.info(p.device) ?? null,
  })),
];
