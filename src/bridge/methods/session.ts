import { PROTOCOL_VERSION, RPC_ERRORS, RpcError, type HelloResult } from '../../protocol/index.js';
import type { OutgoingText } from '../outgoing.js';
import { defineMethod, type MethodDef } from '../registry.js';

/** session.hello (with resume) and session.bye. */
export const sessionMethods: MethodDef[] = [
  defineMethod('session.hello', (p, ctx) => {
    const { bridge, connection } = ctx;
    let resumed = false;
    let resumeError: string | undefined;
    let missed: { messages: OutgoingText[]; dropped: number } | undefined;
    if (p.resume !== undefined && p.resume !== connection.session.id) {
      const target = bridge.sessions.get(p.resume);
      if (!target) {
        resumeError = `session ${p.resume} is unknown or expired (a session is kept ${Math.round(bridge.limits.resume_grace_ms / 1000)} s after its connection drops); this connection stays on session ${connection.session.id}`;
      } else if (!target.ownedBy(p.resume_token)) {
        resumeError =
          p.resume_token === undefined
            ? `resuming session ${p.resume} needs its resume_token (the one its session.hello answered with; session ids are public, device.activity shows them); this connection stays on session ${connection.session.id}`
            : `resume_token does not match session ${p.resume}; this connection stays on session ${connection.session.id}`;
      } else if ((p.received ?? 0) > target.sent) {
        // A cursor past the end is a client that miscounted: resuming from it would report nothing
        // missed while the notifications it never got are skipped. Refused before anything moves, so
        // the session still waits for a resume with the right count.
        throw new RpcError(
          RPC_ERRORS.INVALID_PARAMS,
          `invalid params for session.hello: received is ${p.received}, but session ${p.resume} has sent only ${target.sent} notifications; count the notifications received in the session (after its hello answer) and resume again`,
          { issues: [{ path: 'received', message: `received must be at most ${target.sent}` }] },
        );
      } else {
        const fresh = connection.session;
        const previous = target.connection;
        if (previous && previous !== connection) {
          bridge.sessions.detach(target, previous);
          previous.replaced = true;
          previous.close(4000, 'session resumed on another connection');
          // The old socket's drag ends with it, as when a socket drops (server.ts). Its locks stay:
          // they are the session's, and the session goes on here.
          bridge.engine.cancelTouches(target.id);
          bridge.peers?.liftFingers(target);
        }
        // The connection's own new session was never used for anything worth keeping.
        bridge.sessions.end(fresh, 'replaced by a resumed session');
        bridge.sessions.attach(target, connection);
        missed = target.missedSince(p.received ?? 0);
        resumed = true;
      }
    }
    const session = connection.session;
    if (p.client !== undefined) session.client = p.client;
    const result: HelloResult = {
      session: session.id,
      resume_token: session.resumeToken,
      server: bridge.server,
      protocol: PROTOCOL_VERSION,
      limits: bridge.limits,
      resumed,
      subscriptions: [...session.subscriptions.values()].map((s) => s.info()),
    };
    if (resumeError) result.resume_error = resumeError;
    if (missed) {
      result.replayed = missed.messages.length;
      result.dropped = missed.dropped;
      const messages = missed.messages;
      ctx.afterResponse(() => {
        for (const message of messages) connection.send(message);
        bridge.hub.resumeSession(session);
        bridge.peers?.resumeSession(session);
      });
    }
    return result;
  }),

  defineMethod('requests.cancel', (p, ctx) => {
    // Only the session's own requests: ids are the client's, so another session's may be equal.
    // Every running request with that id (a client may reuse one), but not this cancel itself.
    let cancelled = false;
    for (const controller of ctx.session.running.get(p.id) ?? []) {
      if (controller.signal === ctx.signal) continue;
      controller.abort(new Error(`cancelled by requests.cancel`));
      cancelled = true;
    }
    return { cancelled };
  }),

  defineMethod('session.bye', (_p, ctx) => {
    ctx.bridge.sessions.end(ctx.session, 'session.bye');
    ctx.afterResponse(() => ctx.connection.close(1000, 'bye'));
    return {};
  }),
];
