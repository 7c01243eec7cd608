/** The bridge: Hono HTTP + WebSocket JSON-RPC server around one engine (SPEC §6, §7; docs/protocol.md). */
export { Bridge, startBridge } from './server.js';
export type { BridgeOptions, BridgeStats } from './bridge-options.js';
export { defineMethod, defineExtensionMethod, MethodRegistry, type BridgeCore, type MethodContext, type MethodDef } from './registry.js';
export { outcomeOf, type ActivityEntry } from './hub.js';
export { bindProblem, isLoopbackHost, checkAccess, checkOrigin, type AccessPolicy } from './security.js';
export { validateScenario } from './methods/scenarios.js';
export type { Session } from './sessions.js';
