import { deviceNotFoundMessage, failure } from '../../engine/errors.js';
import { defineMethod, type MethodDef } from '../registry.js';

/**
 * activity.recent: what a viewer opening a device late needs for pair debugging — the device's
 * last 50 activity entries (oldest first; ids match the device.activity notifications, so a
 * client merges both by id) and who holds its lock.
 */
export const activityMethods: MethodDef[] = [
  defineMethod('activity.recent', async (p, ctx) => {
    const feed = ctx.bridge.hub.feed;
    // An empty history for a misspelled id would read as "nothing happened there". A device that
    // went away after being acted on is still known: its history is what a late joiner asks for.
    if (!feed.knows(p.device)) {
      const devices = await ctx.engine.listDevices();
      if (!devices.some((d) => d.id === p.device)) return failure('DEVICE_NOT_FOUND', deviceNotFoundMessage(p.device, devices.map((d) => d.id)));
    }
    return { device: p.device, entries: feed.recent(p.device), lock: ctx.bridge.locks.info(p.device) ?? null };
  }),
];
