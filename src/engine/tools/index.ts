
import { appTools } from './app-tools.js';
import type { GlobalToolDef, ToolDef } from './define.js';
import { inputTools } from './input-tools.js';
import { params } from './params.js';
import { pinchTool } from './pinch-tool.js';
import { screenTools } from './screen-tools.js';

const listDevices: GlobalToolDef = {
  name: 'mobile_list_available_devices',
  description:
    'List connected devices, simulators, emulators and virtual devices: {devices: [{id, os, model, version}]}. Call this first and pass the chosen id as `device` to every other tool.',
  params: params({}),
  mutates: false,
  global: true,
  async handler(_p, ctx) {
    return { devices: await ctx.listDevices() };
  },
};

/** The 20 tools of the seed (§4.2), SPEC §2's three extensions, and the two-finger pinch. */
export const TOOLS: readonly ToolDef[] = [listDevices, ...appTools, ...screenTools, ...inputTools, pinchTool];

export const TOOL_NAMES = TOOLS.map((t) => t.name);

export function findTool(name: string): ToolDef | undefined {
  return TOOLS.find((t) => t.name === name);
}

export type { ToolDef } from './define.js';
