import type { Point } from './geometry.js';

export type TouchAction = 'down' | 'move' | 'up' | 'cancel';

/** The bridge's answer to one input.touch, or undefined when it failed (the sender reported it). */
export type TouchAnswer = { streamed: boolean; message?: string } | undefined;

/**
 * One drag on the device as input.touch events (issue 17). At most one move is on its way at a time;
 * moves made meanwhile collapse into the latest point, so a slow link or device is never more than one
 * move behind the pointer. The down goes first and the rest only if it was accepted; up and cancel are
 * sent at once (the bridge keeps arrival order), dropping a move still waiting to be sent.
 */
export class TouchStreamer {
  private active = false;
  private dead = false;
  private inFlight: Promise<unknown> | undefined;
  private waiting: Point | undefined;
  private last: Point = { x: 0, y: 0 };
  /** Notes already shown: a device that cannot stream says so once, not on every drag. */
  private readonly noted = new Set<string>();
  /** input.touch events sent in the current stream, by action (tests and the status line read it). */
  readonly sent = { down: 0, move: 0, up: 0, cancel: 0 };

  constructor(
    private readonly send: (action: TouchAction, p: Point) => Promise<TouchAnswer>,
    /** Told (once per distinct message) when the device cannot follow the finger (the path is replayed on release). */
    private readonly note: (message: string) => void,
  ) {}

  get streaming(): boolean {
    return this.active;
  }

  /**
   * `after`: what the user did before the finger went down (a tap, typed keys) must reach the device
   * first. A press held in place starts with `at` equal to `from`: no move to send yet.
   */
  start(from: Point, at: Point, after?: Promise<unknown>): void {
    this.active = true;
    this.dead = false;
    this.last = from;
    this.waiting = at.x === from.x && at.y === from.y ? undefined : at;
    // The previous stream's up must reach the bridge before this down.
    const prior = Promise.all([this.inFlight, after]);
    const down: Promise<unknown> = prior.then(() => this.emit('down', from)).then((answer) => {
      if (!answer) this.dead = true;
      else if (!answer.streamed && answer.message && !this.noted.has(answer.message)) {
        this.noted.add(answer.message);
        this.note(answer.message);
      }
      if (this.inFlight === down) this.inFlight = undefined;
      this.pump();
    });
    this.inFlight = down;
  }

  move(at: Point): void {
    if (!this.active || this.dead) return;
    this.waiting = at;
    this.last = at;
    if (this.inFlight) return;
    this.pump();
  }

  /** `lateMs`: the finger went down that late, so it lifts as late, counted from now. */
  end(at: Point, lateMs = 0): void {
    this.finish('up', at, lateMs > 0 ? new Promise((r) => setTimeout(r, lateMs)) : undefined);
  }

  cancel(at?: Point): void {
    this.finish('cancel', at);
  }

  /**
   * The connection dropped: the bridge lifted the finger itself (a drop cancels the session's
   * touches), so the rest of this drag has nothing to move or lift. Its events would only be
   * refused after the reconnect ("no touch is down"), in front of the user.
   */
  abandon(): void {
    if (!this.active) return;
    this.dead = true;
    this.waiting = undefined;
  }

  /** Resolves when nothing of the stream is still on its way (tests). */
  async idle(): Promise<void> {
    while (this.inFlight) await this.inFlight;
  }

  /**
   * Resolves once what was sent or is due so far (a lift still waiting its `lateMs`) reached the
   * bridge; undefined when nothing is on its way. It does not wait for events made later: a tap made
   * right after a release goes after the up, never under a finger still down on the device.
   */
  lifted(): Promise<unknown> | undefined {
    return this.inFlight;
  }

  private pump(): void {
    const at = this.waiting;
    this.waiting = undefined;
    if (!at || this.dead || !this.active) return;
    const move: Promise<unknown> = this.emit('move', at).then(() => {
      if (this.inFlight === move) this.inFlight = undefined;
      this.pump();
    });
    this.inFlight = move;
  }

  private finish(action: 'up' | 'cancel', at: Point | undefined, due?: Promise<unknown>): void {
    if (!this.active) return;
    this.active = false;
    const last = at ?? this.last;
    this.waiting = undefined;
    const before = Promise.all([this.inFlight, due]);
    // After the down was answered: a refused down means there is nothing to lift.
    const lift: Promise<unknown> = before.then(async () => {
      if (!this.dead) await this.emit(action, last);
      if (this.inFlight === lift) this.inFlight = undefined;
    });
    this.inFlight = lift;
  }

  private emit(action: TouchAction, p: Point): Promise<TouchAnswer> {
    this.sent[action]++;
    return this.send(action, p).catch(() => undefined);
  }
}
