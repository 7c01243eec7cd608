import { randomBytes } from 'node:crypto';
import type { EffectiveScreenOptions, FrameFormat, Participant, StreamSource, SubscriptionInfo } from '../protocol/index.js';
import type { Connection } from './connection.js';
import type { EncodedFrame } from './encoded-frame.js';
import { ownText, SharedNotification, type OutgoingText } from './outgoing.js';
import { ReplayBudget, type ReplayHolder } from './replay-budget.js';
import { tokensEqual } from './security.js';

export interface SessionLimits {
  /** How long a session whose socket dropped waits to be resumed. */
  graceMs: number;
  /** Bound of the notification replay buffer, in messages and in bytes. */
  replayMessages: number;
  replayBytes: number;
  /** Most sessions kept waiting for a resume at once; the oldest goes first. */
  maxDetached: number;
  /** Bound of all sessions' replay rings together, in bytes held (a shared body counts once). */
  replayTotalBytes?: number;
}

interface Remembered {
  index: number;
  message: OutgoingText;
  /** An element diff: not worth keeping for a session waiting for a resume (see dropElementDiffs). */
  elements: boolean;
}

const ELEMENTS_CHANGED = 'elements.changed';

/**
 * What a client holds across reconnects: subscriptions and the stream of
 * notifications. Every notification gets the next index of that stream and is kept in a bounded
 * ring, so a client that says how many it received can get the rest replayed after a drop —
 * including those lost in flight on a socket that died before anyone noticed.
 */
export class Session implements ReplayHolder {
  readonly id = `s-${randomBytes(6).toString('hex')}`;
  /** Secret; only the owner can resume. The id itself is public (activity, lock holder). */
  readonly resumeToken = randomBytes(24).toString('base64url');
  client?: string;
  connection?: Connection<Session>;
  readonly subscriptions = new Map<string, Subscription>();
  /**
   * Requests of this session still running, by JSON-RPC id: `requests.cancel` and the session's end
   * abort them. A set per id: JSON-RPC does not forbid a client to reuse an id while a request
   * with it still runs, and a cancel must reach all of them, not only the newest.
   */
  readonly running = new Map<string | number, Set<AbortController>>();
  ended = false;
  detachedAt?: number;
  graceTimer?: NodeJS.Timeout;
  private readonly values = new Map<unknown, unknown>();
  private readonly endHooks: ((reason: string) => void)[] = [];
  private ring: Remembered[] = [];
  private bytesInRing = 0;
  private nextIndex = 0;

  constructor(
    private readonly limits: SessionLimits,
    private readonly budget?: ReplayBudget,
  ) {}

  get ringBytes(): number {
    return this.bytesInRing;
  }

  get participant(): Participant {
    return this.client ? { session: this.id, client: this.client } : { session: this.id };
  }

  /**
   * Per-session state of a method group (e.g. an agent's recordings), created on first use and
   * dropped with the session. Use a module-private key (a symbol or an object).
   */
  state<T>(key: unknown, create: () => T): T {
    if (!this.values.has(key)) this.values.set(key, create());
    return this.values.get(key) as T;
  }

  /** Runs when the session ends (bye, grace period over, shutdown): cancel its work, free its state. */
  onEnd(hook: (reason: string) => void): void {
    this.endHooks.push(hook);
  }

  /** Called once by SessionStore.end. */
  runEndHooks(reason: string, log: (line: string) => void): void {
    for (const hook of this.endHooks.splice(0)) {
      try {
        hook(reason);
      } catch (err) {
        // A method group's cleanup bug must not keep the session (or the others' cleanup) alive.
        log(`bridge: cleanup of session ${this.id} failed: ${(err as Error).stack ?? String(err)}`);
      }
    }
    this.values.clear();
  }

  ownedBy(token: string | undefined): boolean {
    return token !== undefined && tokensEqual(token, this.resumeToken);
  }

  notify(method: string, params: unknown): void {
    this.deliver(method, () => ownText(JSON.stringify({ jsonrpc: '2.0', method, params })));
  }

  /** A notification serialised once for many sessions; `value` is this session's per-session field (its subscription id). */
  notifyShared(message: SharedNotification, value?: unknown): void {
    this.deliver(message.method, () => message.to(value));
  }

  /**
   * The socket dropped: element diffs are let go, kept and later ones alike (a resume counts them
   * in `dropped`), and a resume starts each element subscription over with a `reset` of the screen
   * as it is then (DeviceHub.resumeSession). Hundreds of diffs of screens long gone are no use to
   * a client coming back, and fifty viewers' worth held the last 8–9 MB of a load for the whole
   * resume grace (issue 16).
   */
  dropElementDiffs(): void {
    const kept: Remembered[] = [];
    for (const r of this.ring) {
      if (!r.elements) kept.push(r);
      else {
        this.bytesInRing -= r.message.size;
        this.budget?.forgotten(r.message);
      }
    }
    this.ring = kept;
  }

  /** `make` runs only when the message is kept: an element diff for a session away takes its index and nothing else. */
  private deliver(method: string, make: () => OutgoingText): void {
    if (this.ended) return;
    const elements = method === ELEMENTS_CHANGED;
    if (elements && this.detachedAt !== undefined) return void this.nextIndex++;
    const message = make();
    this.ring.push({ index: this.nextIndex++, message, elements });
    this.bytesInRing += message.size;
    this.budget?.remembered(message);
    while (this.ring.length > this.limits.replayMessages || (this.bytesInRing > this.limits.replayBytes && this.ring.length > 1)) this.forgetOldest();
    this.budget?.enforce();
    this.connection?.send(message);
  }

  forgetOldest(): boolean {
    const oldest = this.ring.shift();
    if (!oldest) return false;
    this.bytesInRing -= oldest.message.size;
    this.budget?.forgotten(oldest.message);
    return true;
  }

  /** The session ended: its ring goes (and with it its share of the replay budget). */
  forgetAll(): void {
    while (this.forgetOldest());
  }

  /** How many notifications this session has numbered so far (what a client that missed none has received). */
  get sent(): number {
    return this.nextIndex;
  }

  /** The notifications after the first `received`, and how many of those the ring no longer has. */
  missedSince(received: number): { messages: OutgoingText[]; dropped: number } {
    const from = Math.max(0, Math.min(received, this.nextIndex));
    const messages = this.ring.filter((r) => r.index >= from).map((r) => r.message);
    // Not only the oldest go: element diffs leave gaps (dropElementDiffs).
    return { messages, dropped: this.nextIndex - from - messages.length };
  }
}

/** All sessions: creation, attach/detach of sockets, the resume grace period, the end. */
export class SessionStore {
  private readonly sessions = new Map<string, Session>();
  /** All replay rings together (default 64 MiB held). */
  readonly replayBudget: ReplayBudget;

  constructor(
    private readonly limits: SessionLimits,
    private readonly onEnd: (session: Session, reason: string) => void,
    private readonly log: (line: string) => void = () => undefined,
  ) {
    this.replayBudget = new ReplayBudget(limits.replayTotalBytes ?? 64 * 1024 * 1024, () => this.sessions.values());
  }

  get size(): number {
    return this.sessions.size;
  }

  all(): IterableIterator<Session> {
    return this.sessions.values();
  }

  get(id: string): Session | undefined {
    return this.sessions.get(id);
  }

  create(): Session {
    const session = new Session(this.limits, this.replayBudget);
    this.sessions.set(session.id, session);
    return session;
  }

  attach(session: Session, connection: Connection<Session>): void {
    clearTimeout(session.graceTimer);
    session.graceTimer = undefined;
    session.detachedAt = undefined;
    session.connection = connection;
    connection.session = session;
  }

  /** The socket went away: keep the session for the grace period. False when it had moved on (resumed elsewhere, ended). */
  detach(session: Session, connection: Connection<Session>): boolean {
    if (session.connection !== connection || session.ended) return false;
    session.connection = undefined;
    session.detachedAt = Date.now();
    session.dropElementDiffs();
    session.graceTimer = setTimeout(() => this.end(session, 'resume grace period expired'), this.limits.graceMs);
    session.graceTimer.unref();
    const detached = [...this.sessions.values()].filter((s) => s.detachedAt !== undefined);
    if (detached.length > this.limits.maxDetached) {
      detached.sort((a, b) => a.detachedAt! - b.detachedAt!);
      for (const s of detached.slice(0, detached.length - this.limits.maxDetached)) this.end(s, 'too many sessions waiting for a resume');
    }
    return true;
  }

  end(session: Session, reason: string): void {
    if (session.ended) return;
    this.onEnd(session, reason);
    session.runEndHooks(reason, this.log);
    session.ended = true;
    // Nobody can receive their answers any more: a verb waiting for an element stops now, not at its timeout.
    for (const controllers of session.running.values()) for (const controller of controllers) controller.abort(new Error(`the session ended (${reason})`));
    session.running.clear();
    session.forgetAll();
    clearTimeout(session.graceTimer);
    this.sessions.delete(session.id);
  }

  broadcast(method: string, params: Record<string, unknown>): void {
    const message = new SharedNotification(method, params);
    for (const s of this.sessions.values()) s.notifyShared(message);
  }

  endAll(reason: string): void {
    for (const s of [...this.sessions.values()]) this.end(s, reason);
  }
}

/** One `devices.subscribe`: what it wants, and its delivery state. */
export class Subscription {
  readonly id = `sub-${randomBytes(5).toString('hex')}`;

  // Frames: a single latest-frame slot; at most one frame in the socket at a time.
  slot?: EncodedFrame;
  inFlight = false;
  /** When the frame in flight was sent (performance.now()). */
  inFlightSince = 0;
  /** The maxFps grid point of the last send (see FramePipeline.flush). */
  lastSentAt = Number.NEGATIVE_INFINITY;
  /** When the last send really happened (performance.now()). */
  sentAt = Number.NEGATIVE_INFINITY;
  /** Set while a frame waits in the slot for the subscriber's maxFps interval to pass. */
  dueTimer?: NodeJS.Timeout;
  /** Seq of the newest frame this subscriber was given (slot or sent). */
  lastSeq = -1;

  /** Screen: where its frames come from now (the device's video or screenshots) and why not video. */
  stream?: { format: FrameFormat; source: StreamSource; fallbackReason?: string };
  /** Set once the subscribe answer went out: frames before it would name an unknown subscription. */
  delivering = false;
  /** Video: nothing is sent until the next key frame (just joined without one cached, or fell behind). */
  needsKey = true;

  /** Elements: false until this subscriber got its first (reset) snapshot. */
  primed = false;

  constructor(
    readonly session: Session,
    readonly device: string,
    readonly screen: EffectiveScreenOptions | undefined,
    readonly elements: boolean,
  ) {}

  get minIntervalMs(): number {
    return this.screen ? 1000 / this.screen.maxFps : Number.POSITIVE_INFINITY;
  }

  info(): SubscriptionInfo {
    const info: SubscriptionInfo = { subscription: this.id, device: this.device, elements: this.elements };
    if (this.screen) info.screen = { ...this.screen };
    if (this.stream) {
      info.format = this.stream.format;
      info.source = this.stream.source;
      if (this.stream.fallbackReason) info.fallback_reason = this.stream.fallbackReason;
    }
    return info;
  }
}
