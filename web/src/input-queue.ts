import { inputsToCalls, type ScreenInput, type ToolCall } from './actions.js';

/** One input waiting, with what it must come after (a streamed finger's lift still on its way), if anything. */
interface Queued {
  input: ScreenInput;
  after: Promise<unknown> | undefined;
}

/**
 * Sends keys and gestures to the device in the order the user made them, one tool call at a
 * time. Keys typed while a call is running are merged into the next mobile_type_keys, so fast
 * typing becomes a few calls instead of one per character. One queue for both, because a tap
 * that moves the focus and the keys typed after it must not overtake each other: otherwise
 * the keys meant for a password field land in the field that had the focus before.
 */
export class InputQueue {
  private queued: Queued[] = [];
  private draining: Promise<void> | undefined;
  /** Inputs pushed and inputs sent (or dropped) so far: `sent()` waits for a count, not for an empty queue. */
  private pushed = 0;
  private done = 0;
  private waiters: { upTo: number; resolve: () => void }[] = [];

  /**
   * `send` reports its own failures; a rejection only stops the batch it belongs to. `after`, asked
   * when an input is made, is what must reach the device before it (the streamed finger's events sent
   * so far), so a click right after a drag or a held press is not tapped under a finger still down.
   */
  constructor(
    private readonly device: () => string | undefined,
    private readonly send: (call: ToolCall) => Promise<void>,
    private readonly after: () => Promise<unknown> | undefined = () => undefined,
  ) {}

  push(input: ScreenInput): void {
    // A held Backspace or arrow repeats faster than a slow device presses it: one repeat waiting is enough,
    // else the device kept deleting or moving for seconds after the key was let go.
    if (isRepeat(input) && sameKey(this.queued[this.queued.length - 1]?.input, input)) return;
    this.queued.push({ input, after: this.after() });
    this.pushed++;
    this.draining ??= this.drain().finally(() => {
      this.draining = undefined;
    });
  }

  /** Drop input not yet sent (device switched). */
  clear(): void {
    this.finished(this.queued.length);
    this.queued = [];
  }

  /** Resolves when everything queued so far was sent. */
  idle(): Promise<void> {
    return this.draining ?? Promise.resolve();
  }

  /**
   * Resolves once the inputs queued so far were sent, not waiting for ones made later: a streamed
   * finger going down waits for what the user did before it, and never for what it does while holding.
   */
  sent(): Promise<void> {
    const upTo = this.pushed;
    if (this.done >= upTo) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ upTo, resolve }));
  }

  private async drain(): Promise<void> {
    while (this.queued.length > 0) {
      const device = this.device();
      const batch = this.queued;
      this.queued = [];
      try {
        if (!device) continue;
        const before = batch.flatMap((q) => (q.after ? [q.after] : []));
        if (before.length > 0) await Promise.all(before);
        for (const call of inputsToCalls(device, batch.map((q) => q.input))) await this.send(call);
      } catch {
        // Already reported by send; later keys still go out.
      } finally {
        this.finished(batch.length);
      }
    }
  }

  private finished(count: number): void {
    this.done += count;
    const ready = this.waiters.filter((w) => w.upTo <= this.done);
    this.waiters = this.waiters.filter((w) => w.upTo > this.done);
    for (const w of ready) w.resolve();
  }
}

function isRepeat(input: ScreenInput): boolean {
  return (input.kind === 'key' || input.kind === 'button') && input.repeat === true;
}

function sameKey(a: ScreenInput | undefined, b: ScreenInput): boolean {
  if (a?.kind === 'key' && b.kind === 'key') return a.key === b.key;
  if (a?.kind === 'button' && b.kind === 'button') return a.button === b.button;
  return false;
}
