import type * as v from 'valibot';
import type { RecordingStore } from '../engine/verbs/recording-store.js';
import type { Engine } from '../engine/engine.js';
import type { ToolFailure } from '../engine/errors.js';
import {
  METHOD_PARAMS,
  type MethodName,
  type NotificationName,
  type NotificationParams,
  type Participant,
  type ResultOf,
  type ServerLimits,
  type ValidParamsOf,
} from '../protocol/index.js';
import type { Connection } from './connection.js';
import type { ActivityEntry, DeviceHub } from './hub.js';
import type { LockTable } from './locks.js';
import type { PeerRouter } from './peers/router.js';
import type { RunFiles } from './run-files.js';
import type { Session, SessionStore } from './sessions.js';

/** What every method handler can reach: the shared state of the running bridge. */
export interface BridgeCore {
  readonly engine: Engine;
  readonly hub: DeviceHub;
  readonly locks: LockTable;
  readonly sessions: SessionStore;
  /** Present when the bridge aggregates peer bridges: calls on their devices go there. */
  readonly peers?: PeerRouter;
  readonly server: { name: string; version: string };
  readonly limits: ServerLimits;
  /** Where agents' recordings persist (absent: in memory only). */
  readonly recordings?: RecordingStore;
  /** Screenshots of runs started over this bridge, served to the viewer (GET /api/runs/…). */
  readonly runFiles: RunFiles;
  /** Aborted when the bridge starts shutting down: long work (a scenario run) should wind up. */
  readonly shutdownSignal: AbortSignal;
  /** Shows an action to every participant of the device (`device.activity`), e.g. a verb the runner ran. */
  activity(device: string, actor: Participant, entry: ActivityEntry): void;
  log(line: string): void;
}

/** Per call: the caller's session and connection, plus the bridge. */
export interface MethodContext {
  readonly bridge: BridgeCore;
  readonly engine: Engine;
  readonly session: Session;
  readonly connection: Connection<Session>;
  readonly signal: AbortSignal;
  /** A notification to the caller's session (buffered for resume like every other). */
  notify<N extends NotificationName>(method: N, params: NotificationParams[N]): void;
  /** PERMISSION_DENIED when another session holds the device's lock, else undefined. Check before mutating. */
  lockRefusal(device: string, what: string): ToolFailure | undefined;
  /** Runs after this call's response was sent (to send notifications that must follow it). */
  afterResponse(fn: () => void): void;
}

export interface MethodDef {
  readonly name: string;
  readonly params: v.GenericSchema;
  handler(params: unknown, ctx: MethodContext): unknown;
}

/**
 * A method of the protocol table (src/protocol/methods.ts): its params are validated with the
 * protocol's own schema before the handler runs, so the handler sees typed, defaulted input.
 */
export function defineMethod<M extends MethodName>(
  name: M,
  handler: (params: ValidParamsOf<M>, ctx: MethodContext) => ResultOf<M> | Promise<ResultOf<M>>,
): MethodDef {
  return { name, params: METHOD_PARAMS[name], handler: handler as MethodDef['handler'] };
}

/**
 * A method outside the protocol table (an extension such as `agent.assert`): it brings its own params
 * schema. Prefer adding the method to src/protocol/methods.ts when clients should get its types.
 */
export function defineExtensionMethod<S extends v.GenericSchema>(
  name: string,
  params: S,
  handler: (params: v.InferOutput<S>, ctx: MethodContext) => unknown,
): MethodDef {
  return { name, params, handler: handler as MethodDef['handler'] };
}

export class MethodRegistry {
  private readonly methods = new Map<string, MethodDef>();

  constructor(groups: readonly (readonly MethodDef[])[] = []) {
    for (const group of groups) this.addAll(group);
  }

  add(def: MethodDef): void {
    if (this.methods.has(def.name)) throw new Error(`bridge method ${def.name} is registered twice`);
    this.methods.set(def.name, def);
  }

  addAll(defs: readonly MethodDef[]): void {
    for (const d of defs) this.add(d);
  }

  get(name: string): MethodDef | undefined {
    return this.methods.get(name);
  }

  names(): string[] {
    return [...this.methods.keys()].sort();
  }
}
