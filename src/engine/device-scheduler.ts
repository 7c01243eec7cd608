import { untilDeadline, withDeadline } from './deadline.js';
import type { DeviceHealth } from './device-health.js';
import { DeviceHold } from './device-hold.js';
import { KeyedQueue } from './device-queue.js';
import { CallCancelled, ToolError } from './errors.js';
import { CancelWatch } from './cancel-watch.js';
import { DeviceLines, waitedBehind } from './device-line.js';

/** How a piece of work takes its turn: inside a verb's hold, cancellable by its caller, and whose it is. */
export interface TurnOptions {
  hold?: DeviceHold;
  cancel?: AbortSignal;
  origin?: string;
}

/**
 * When work runs on a device and for how long: one piece at a time per device in arrival order,
 * each under a deadline that counts from its arrival, and holds that keep the device for one verb.
 * Whether the device answered in time goes into its health record.
 */
export class DeviceScheduler {
  private readonly queue = new KeyedQueue();
  private readonly lines = new DeviceLines();

  /** `name`: how a caller is named in messages (a bridge names its sessions' clients). */
  constructor(
    private readonly health: DeviceHealth,
    private readonly name: (origin: string | undefined) => string,
  ) {}

  /**
   * The deadline counts from the call's arrival, queue time included (issue 16): behind a hung
   * device every caller still gets TIMEOUT within its deadline. A call whose time ran out while it
   * waited never touches the device; a running call that ignores its abort signal gives up its
   * slot at the deadline, and the device is listed `not_responding` until a call succeeds.
   *
   * `cancel`: the caller gave up (CallCancelled). Still queued, the call answers at once and never
   * runs. Running, its work is told to stop and has CANCEL_GRACE_MS to settle: what it settles
   * with stands (done is done; an install says it abandoned its session), else the call answers
   * that it was cancelled while it ran and gives up its slot.
   */
  async run<T>(id: string, what: string, timeoutMs: number, work: (signal: AbortSignal, deadline: number) => Promise<T>, { hold, cancel, origin }: TurnOptions = {}): Promise<T> {
    const arrived = performance.now();
    let started: number | undefined;
    const label = `${what} on ${id}`;
    // A call inside a verb's hold takes no place in the line: the hold has it.
    const ticket = hold?.covers(id) ? undefined : this.lines.join(id, what, origin);
    const enqueue = <R>(task: () => Promise<R>) => (ticket ? this.queue.run(id, task) : hold!.run(task));
    const stop = cancel && new CancelWatch(cancel, label, id, () => started !== undefined);
    try {
      const result = await withDeadline(timeoutMs, label, (deadlineSignal, deadline) => {
        // Marked when the deadline falls, not when the call answers a turn later (untilDeadline): the calls
        // queued behind it give up at once then, and their answers say the device may be hung.
        deadlineSignal.addEventListener('abort', () => started !== undefined && this.health.timedOut(id, what), { once: true });
        const signal = stop ? stop.signalWith(deadlineSignal) : deadlineSignal;
        const turn = enqueue(() => {
          // Too little time left to do anything but pile one more request onto a stuck device.
          if (signal.aborted || performance.now() - arrived > timeoutMs - Math.min(250, timeoutMs * 0.1)) {
            return Promise.reject(new ToolError('TIMEOUT', 'expired in the queue'));
          }
          started = performance.now();
          if (ticket) ticket.started = started;
          const running = untilDeadline(deadlineSignal, work(signal, deadline));
          return stop ? Promise.race([running, stop.given]) : running;
        });
        return stop ? Promise.race([turn, stop.given]) : turn;
      });
      this.health.answered(id);
      return result;
    } catch (err) {
      // A cancelled call says nothing of the device's health. Its work's own account stands when
      // it says what became of the work (settled); the bare cancel reason or any other error does not.
      if (stop?.cancelled && (err instanceof CallCancelled || !(err instanceof ToolError && err.settled))) throw stop.error();
      if (err instanceof ToolError && err.code === 'TIMEOUT') {
        if (started === undefined) {
          const behind = ticket ? waitedBehind(id, ticket, { stillThere: (t) => this.lines.has(id, t), hung: this.health.hungOn(id), name: this.name }) : `it waited behind earlier calls of its own verb on ${id}`;
          throw new ToolError('TIMEOUT', `${label} did not start within ${timeoutMs} ms: ${behind}`);
        }
        this.health.timedOut(id, what);
        if (started - arrived > 1) throw new ToolError('TIMEOUT', `${err.message} (${Math.round(started - arrived)} ms of it waiting behind earlier calls on ${id})`, err.settled);
      } else if (!(err instanceof ToolError && err.code === 'DEVICE_NOT_FOUND')) this.health.answered(id);
      throw err;
    } finally {
      if (ticket) this.lines.leave(id, ticket);
      stop?.dispose();
    }
  }

  /**
   * Engine.hold: `work` keeps the device's turn until it ends or `maxMs` from arrival ran out.
   * `cancel` ends a hold still waiting for its turn at once; once it holds the device, `work`
   * watches the caller's signal itself (a verb stops at its waits), with the same grace as a call.
   */
  async hold<T>(id: string, what: string, work: (hold: DeviceHold) => Promise<T>, maxMs: number, { cancel, origin }: Omit<TurnOptions, 'hold'> = {}): Promise<T> {
    const hold = new DeviceHold(id);
    const ticket = this.lines.join(id, what, origin);
    const stop = cancel && new CancelWatch(cancel, `${what} on ${id}`, id, () => hold.active);
    try {
      return await withDeadline(maxMs, `${what} on ${id}`, (signal) => {
        const turn = this.queue.run(id, () => {
          if (signal.aborted) return Promise.reject(signal.reason as Error);
          if (stop?.cancelled) return Promise.reject(stop.error());
          hold.active = true;
          ticket.started = performance.now();
          return untilDeadline(signal, work(hold));
        });
        return stop ? Promise.race([turn, stop.given]) : turn;
      });
    } finally {
      hold.active = false;
      this.lines.leave(id, ticket);
      stop?.dispose();
    }
  }

  /** Resolves when every piece of work queued so far has settled. */
  idle(): Promise<void> {
    return this.queue.idle();
  }
}
