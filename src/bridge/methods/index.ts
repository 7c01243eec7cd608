import type { MethodDef } from '../registry.js';
import { activityMethods } from './activity.js';
import { agentMethods } from './agent.js';
import { deviceMethods } from './devices.js';
import { inspectMethods } from './inspect.js';
import { inputMethods } from './input.js';
import { leaseMethods } from './lease.js';
import { runnerMethods } from './runner.js';
import { scenarioMethods } from './scenarios.js';
import { sessionMethods } from './session.js';
import { toolMethods } from './tools.js';

/**
 * Every method group the bridge serves. A group is a list of `defineMethod(...)` entries in its
 * own module; add a group by adding it here (see docs/protocol.md, "Adding methods").
 */
export function methodGroups(): MethodDef[][] {
  return [sessionMethods, toolMethods(), deviceMethods, scenarioMethods, runnerMethods(), agentMethods(), leaseMethods(), inspectMethods, inputMethods, activityMethods];
}
