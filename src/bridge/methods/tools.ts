import { findTool } from '../../engine/tools/index.js';
import { defineMethod, type MethodDef } from '../registry.js';
import { existingAgentOf } from './agent.js';

/** tools.list and tools.call: the engine tools, with the device lock enforced for mutating ones. */
export function toolMethods(): MethodDef[] {
  return [
    // The engine builds the list once; the copy only gives the protocol type its mutable array.
    defineMethod('tools.list', (_p, ctx) => ({ tools: [...ctx.engine.listTools()] })),

    defineMethod('tools.call', (p, ctx) => {
      const device = p.parameters.device;
      if (findTool(p.tool)?.mutates && typeof device === 'string') {
        // Like verbs.run and input.touch: a tap or key under another caller's drag would land in the middle of it.
        const refusal = ctx.lockRefusal(device, p.tool) ?? ctx.engine.fingerRefusal(device, ctx.session.id);
        if (refusal) return refusal;
        // A recording names a coordinate tap by the element there. A viewer lists nothing itself, and
        // the list it was shown may trail the screen: list it right before the tap, in the device queue.
        existingAgentOf(ctx.session)?.listBeforePointTool(p.tool, device, true);
      }
      // No await before engine.call: calls reach the device queue in arrival order.
      return ctx.engine.call(p.tool, p.parameters, { origin: ctx.session.id, signal: ctx.signal });
    }),
  ];
}
