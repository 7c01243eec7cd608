import { defineMethod, type MethodDef } from '../registry.js';

/**
 * input.touch and input.key (issue 17): the viewer's live control. Both mutate the device, so a
 * device locked by another session refuses them like mutating tools; both go through the engine's
 * device queue, and a touch stream is one `device.activity` entry (tool `input.touch`) when it ends.
 * A finger never outlives its session's socket: the drop lifts it (server.ts), resume or not, and so
 * does a resume on another socket while the old one looked open (session.ts).
 */
export const inputMethods: MethodDef[] = [
  defineMethod('input.touch', async (p, ctx) => {
    const refusal = ctx.lockRefusal(p.device, `input.touch ${p.action}`);
    if (refusal) {
      // The holder took over mid-drag: the refused caller's finger must not stay down.
      if (p.action !== 'down') ctx.engine.cancelTouches(ctx.session.id);
      return refusal;
    }
    const result = await ctx.engine.touchEvent(p.device, p.action, { x: p.x, y: p.y }, { origin: ctx.session.id });
    // The socket dropped before this event ran (a notification still runs after its close): the
    // drop lifted the fingers it found, so this one goes too.
    if (!ctx.session.connection) ctx.engine.cancelTouches(ctx.session.id);
    return result;
  }),

  defineMethod('input.key', (p, ctx) => {
    const refusal = ctx.lockRefusal(p.device, `input.key ${p.key}`) ?? ctx.engine.fingerRefusal(p.device, ctx.session.id);
    if (refusal) return refusal;
    return ctx.engine.pressKey(p.device, p.key, { origin: ctx.session.id }, p.modifiers);
  }),
];
