import { failure, isToolFailure } from '../../engine/errors.js';
import { defineMethod, type MethodDef } from '../registry.js';

/** devices.list / subscribe / unsubscribe / lock / unlock. */
export const deviceMethods: MethodDef[] = [
  defineMethod('devices.list', async (_p, ctx) => {
    const devices = await ctx.engine.listDevices();
    const notes = ctx.engine.sourceProblems();
    const bridges = ctx.bridge.peers?.reaches();
    return { devices, ...(notes.length ? { notes } : {}), ...(bridges ? { bridges } : {}) };
  }),

  defineMethod('devices.subscribe', async (p, ctx) => {
    const outcome = await ctx.bridge.hub.subscribe(ctx.session, p);
    if (isToolFailure(outcome)) return outcome;
    // Frames and the first elements.changed follow the answer that names the subscription.
    ctx.afterResponse(outcome.start);
    return outcome.sub.info();
  }),

  defineMethod('devices.unsubscribe', (p, ctx) => {
    const sub = ctx.session.subscriptions.get(p.subscription);
    if (!sub) {
      const mine = [...ctx.session.subscriptions.keys()];
      return failure('INVALID_PARAMETER', `subscription ${JSON.stringify(p.subscription)} is not one of this session's (${mine.length ? mine.join(', ') : 'it has none'})`);
    }
    ctx.bridge.hub.unsubscribe(sub);
    return {};
  }),

  defineMethod('devices.lock', async (p, ctx) => {
    // A lock on a misspelled id would guard nothing and hide the typo.
    const devices = await ctx.engine.listDevices();
    // Kept under the listed id, whichever name of the phone was given (`serial@lab` of one listed `serial`).
    const device = ctx.engine.ids.listedId(p.device);
    if (!devices.some((d) => d.id === device)) {
      return failure('DEVICE_NOT_FOUND', ctx.engine.deviceNotFoundMessage(p.device, devices));
    }
    return ctx.bridge.locks.acquire(device, ctx.session, p.takeover);
  }),

  defineMethod('devices.unlock', async (p, ctx) => {
    const device = ctx.engine.ids.listedId(p.device);
    const holder = ctx.bridge.locks.holder(device);
    if (holder && holder !== ctx.session) {
      return failure('PERMISSION_DENIED', `device ${device} is locked by session ${holder.id}, not by this session; only the holder can unlock it (or take it over with devices.lock takeover: true)`);
    }
    if (!holder) {
      // "released: false" for a misspelled id would let the caller believe its lock is gone.
      const devices = await ctx.engine.listDevices();
      if (!devices.some((d) => d.id === device)) return failure('DEVICE_NOT_FOUND', ctx.engine.deviceNotFoundMessage(p.device, devices));
    }
    // Unlocked under its own run, the device would take anyone's taps between the run's steps.
    if (holder && ctx.bridge.locks.runHolds(device, ctx.session)) {
      return failure('INVALID_PARAMETER', `device ${device} is held by a scenario run of this session, not by a lock to release: the lock goes when the run ends; cancel the run (scenarios.cancel) to end it sooner`);
    }
    return { device, released: ctx.bridge.locks.release(device, ctx.session) };
  }),
];
