import * as v from 'valibot';
import { failure, type ToolFailure } from '../../engine/errors.js';
import { AgentSession } from '../../engine/agent/agent-session.js';
import { VerbError } from '../../engine/verbs/index.js';
import { APP_STATES } from '../../validate/index.js';
import { jsonObject } from '../../protocol/methods.js';
import type { MethodContext, MethodDef } from '../registry.js';

/**
 * agent.assert, recording.start, recording.stop, recording.status, recording.adopt, recording.discard
 * (docs/protocol.md, "Agents: live verbs, assertions and recording"), and the per-session
 * AgentSession that `verbs.run` also uses.
 * Each WebSocket session gets its own AgentSession, the same class the MCP server uses locally, so a
 * recording behaves the same over both transports: a verb is recorded with the agent's own
 * description, and assertions after it can see the screen from before it.
 */

const device = v.pipe(v.string('device must be a device id from devices.list'), v.minLength(1, 'device must not be empty'), v.maxLength(500));
const text = (name: string, max = 2000) => v.pipe(v.string(`${name} must be a string`), v.maxLength(max, `${name} must be at most ${max} characters`));

const AssertParams = v.strictObject({
  device,
  assertion: jsonObject(
    v.looseObject({ type: v.string('assertion.type must be one of the 27 assertion types, e.g. "element_exists"'), description: v.optional(text('assertion.description')) }),
    'assertion must be a JSON object such as {"type": "element_exists", "element_description": "the OK button"}, not an array',
  ),
});
const StartParams = v.strictObject({
  device,
  name: v.pipe(text('name', 200), v.minLength(1, 'name must not be empty: it becomes the scenario name')),
  description: v.optional(text('description')),
  app_package: v.optional(text('app_package', 300)),
  app_state: v.optional(v.picklist(APP_STATES, `app_state must be one of ${APP_STATES.join(', ')}`)),
  environment: v.optional(text('environment', 100)),
  /** false: a recording left on the device by an ended session refuses the start instead of being adopted. */
  adopt: v.optional(v.boolean('adopt must be true or false')),
});
const DeviceParams = v.strictObject({ device });
const StatusParams = v.strictObject({
  /** false: recordings left by ended sessions are listed (`orphans`), not adopted, so a user can be asked first. */
  adopt: v.optional(v.boolean('adopt must be true or false')),
});

/** Verbs that only look: they need no lock. */
export const READ_ONLY_VERBS = new Set(['wait_for_element', 'wait_for_element_gone', 'wait_for_loading_complete', 'capture_value']);

/** Key of the per-session AgentSession (Session.state); it is closed when the session ends. */
const AGENT = Symbol('agent session');
/** The same AgentSessions, to look one up without creating it. */
const existing = new WeakMap<MethodContext['session'], AgentSession>();

export function agentOf(ctx: MethodContext): AgentSession {
  const { session, bridge } = ctx;
  return session.state(AGENT, () => {
    const agent = new AgentSession(ctx.engine, session.id, { store: bridge.recordings });
    session.onEnd(() => {
      const left = bridge.recordings ? agent.recordings() : [];
      agent.close();
      // Kept on disk for someone to continue or discard: whoever watches the device is told, and asks recording.status.
      for (const r of left) for (const s of bridge.hub.participants(r.device)) s.notify('recording.left', { ...r, by: session.participant });
    });
    existing.set(session, agent);
    return agent;
  });
}

/** The session's AgentSession if it has one (it records only after recording.start made it). */
export function existingAgentOf(session: MethodContext['session']): AgentSession | undefined {
  return existing.get(session);
}

/** What a cancelled request answers, as verbs.run's outcome does (`error.code: "CANCELLED"`). */
interface Cancelled {
  status: 'error';
  code: 'CANCELLED';
  message: string;
}

function failed(err: unknown): ToolFailure | Cancelled {
  if (!(err instanceof VerbError)) throw err;
  // Not UNSUPPORTED: the platform can do it, its caller gave up (requests.cancel, or its session ended).
  if (err.code === 'CANCELLED') return { status: 'error', code: 'CANCELLED', message: err.message };
  return failure(err.code === 'NEEDS_MANUAL' ? 'UNSUPPORTED' : err.code, err.message);
}

function method<S extends v.GenericSchema>(name: string, params: S, handler: (p: v.InferOutput<S>, ctx: MethodContext) => Promise<unknown>): MethodDef {
  return { name, params, handler: (p, ctx) => handler(p as v.InferOutput<S>, ctx).catch(failed) };
}

export function agentMethods(): MethodDef[] {
  return [
    method('agent.assert', AssertParams, async (p, ctx) => {
      // A check that failed because another session changed the screen says so (as verbs.run does).
      const others = ctx.engine.othersActed(p.device, ctx.session.id);
      const result = await agentOf(ctx).assert(p.device, p.assertion as never, ctx.signal);
      return others ? { ...result, others_acted: others } : result;
    }),

    method('recording.start', StartParams, async ({ adopt, ...p }, ctx) => {
      if (p.app_state) {
        const refusal = ctx.lockRefusal(p.device, `recording.start with app_state ${p.app_state}`);
        if (refusal) return refusal;
      }
      const recording = await agentOf(ctx).startRecording(p, { adopt, startedBy: ctx.session.participant, signal: ctx.signal }).catch(naming(ctx, p.device));
      return { recording };
    }),

    // Its answer is the only copy of the scenario: one lost with a dropped connection would be a whole
    // recording session lost, so the resumed session can ask again and get it (AgentSession keeps it).
    method('recording.stop', DeviceParams, async (p, ctx) => agentOf(ctx).stopRecording(p.device)),

    method('recording.status', StatusParams, async (p, ctx) => {
      const agent = agentOf(ctx);
      if (p.adopt !== false) await agent.recoverRecordings();
      return { recordings: agent.recordings(), orphans: await agent.orphanedRecordings(), others: othersRecordings(ctx) };
    }),

    method('recording.adopt', DeviceParams, async (p, ctx) => ({ recording: await agentOf(ctx).adoptRecording(p.device).catch(naming(ctx, p.device)) })),

    method('recording.discard', DeviceParams, async (p, ctx) => ({ device: p.device, discarded: await agentOf(ctx).discardRecording(p.device).catch(naming(ctx, p.device)) })),
  ];
}

/**
 * A refusal because another session of this bridge records the device says which session, and what
 * ends its hold: the engine's own wording ("stop it in that session") cannot know that the session is
 * a bridge client, nor that its connection dropped, when the way on is to wait and adopt.
 */
function naming(ctx: MethodContext, device: string): (err: unknown) => never {
  return (err) => {
    const held = othersRecordings(ctx).find((r) => r.device === device);
    if (!(err instanceof VerbError) || err.code !== 'INVALID_PARAMETER' || !held) throw err;
    const who = `session ${held.by.session}${held.by.client ? ` (${held.by.client})` : ''}`;
    const ends = held.kept_for_ms === undefined
      ? `${who} holds it while connected: ask it to call recording.stop, or wait until it ends`
      : `${who} holds it, but its connection dropped: it is kept ${Math.ceil(held.kept_for_ms / 1000)} s more for a resume, after which the recording is left and recording.adopt continues it (recording.status lists it under orphans)`;
    throw new VerbError(err.code, `${err.message}; ${ends}`);
  };
}

/**
 * Recordings other sessions of this bridge hold, and for a session whose connection dropped how much
 * longer it is kept for a resume: after that its recording is left for others to continue or discard.
 */
function othersRecordings(ctx: MethodContext) {
  const graceMs = ctx.bridge.limits.resume_grace_ms;
  return [...ctx.bridge.sessions.all()].flatMap((s) => {
    const agent = s === ctx.session ? undefined : existingAgentOf(s);
    const away = s.detachedAt === undefined ? {} : { kept_for_ms: Math.max(0, s.detachedAt + graceMs - Date.now()) };
    return (agent?.recordings() ?? []).map((r) => ({ ...r, by: s.participant, connected: Boolean(s.connection), ...away }));
  });
}
