import type { SessionEvent } from './client-types.js';
import { isFailureResult, type HelloResult, type ScreenOptions, type SubscribeResult } from './methods.js';
import type { NotificationParams } from './notifications.js';

export interface KnownSubscription {
  device: string;
  screen?: ScreenOptions;
  elements: boolean;
}

/**
 * What the client remembers of its session so that a new connection can carry it on: the id and
 * resume token, how many notifications arrived (the resume cursor), and its subscriptions, which
 * are re-created when the server could not resume the session.
 */
export class ResumableSession {
  private sessionId?: string;
  private token?: string;
  /** Notifications received in the current session (the resume cursor). */
  private received = 0;
  /** Notifications received on the current connection before its hello answer. */
  private preHello = 0;
  /** By current subscription id. */
  readonly subscriptions = new Map<string, KnownSubscription>();

  /** The public session id, once a server gave one. */
  get id(): string | undefined {
    return this.sessionId;
  }

  newConnection(): void {
    this.preHello = 0;
  }

  /** `session.hello`'s params: a resume when there is a session to carry on. */
  helloParams(client: string | undefined): Record<string, unknown> {
    return {
      ...(client ? { client } : {}),
      ...(this.sessionId !== undefined ? { resume: this.sessionId, resume_token: this.token, received: this.received } : {}),
    };
  }

  /** A notification arrived, in the session (`afterHello`) or on a connection still saying hello. */
  notified(method: string, params: unknown, afterHello: boolean): void {
    if (afterHello) this.received++;
    else this.preHello++;
    if (method === 'subscription.ended') this.subscriptions.delete((params as NotificationParams['subscription.ended']).subscription);
  }

  /** Takes the hello answer: the resumed session's subscriptions, or a fresh session's cursor. */
  adopt(hello: HelloResult, initial: boolean): SessionEvent {
    this.sessionId = hello.session;
    this.token = hello.resume_token;
    const event: SessionEvent = {
      session: hello.session,
      resumed: hello.resumed,
      initial,
      replayed: hello.replayed ?? 0,
      dropped: hello.dropped ?? 0,
      resubscribed: [],
      lost: [],
    };
    if (hello.resumed) {
      // Replayed notifications follow this answer and advance the cursor one by one.
      this.received += hello.dropped ?? 0;
      this.subscriptions.clear();
      for (const s of hello.subscriptions) {
        const screen = s.screen && { maxFps: s.screen.maxFps, format: s.screen.format, quality: s.screen.quality, ...(s.screen.maxWidth === null ? {} : { maxWidth: s.screen.maxWidth }) };
        this.subscriptions.set(s.subscription, { device: s.device, screen, elements: s.elements });
      }
    } else {
      this.received = this.preHello;
      if (hello.resume_error) event.resumeError = hello.resume_error;
    }
    return event;
  }

  /** A fresh session after a failed resume: re-creates what the old one had, and tells `event` how it went. */
  async resubscribe(event: SessionEvent, subscribe: (sub: KnownSubscription) => Promise<SubscribeResult>): Promise<void> {
    const old = [...this.subscriptions];
    this.subscriptions.clear();
    for (const [id, sub] of old) {
      try {
        const result = await subscribe(sub);
        if (isFailureResult(result)) {
          event.lost.push({ subscription: id, device: sub.device, reason: result.message });
          continue;
        }
        this.subscriptions.set(result.subscription, sub);
        event.resubscribed.push({ old: id, new: result.subscription, device: sub.device });
      } catch (err) {
        event.lost.push({ subscription: id, device: sub.device, reason: (err as Error).message });
      }
    }
  }
}
