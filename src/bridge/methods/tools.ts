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
        const refusal = ctx.lockRefusal(device, p.tool);
        if (refusal) return refusal;
        // A viewer's coordinate tap means the element it was shown there: a recording needs that list.
        const shown = ctx.bridge.hub.elementsOf(device);
        if (shown) existingAgentOf(ctx.session)?.seeScreen(device, shown);
      }
      // No await before engine.call: calls reach the device queue in arrival order.
      return ctx.engine.call(p.tool, p.parameters, { origin: ctx.session.id });
    }),
  ];
}
