import { inputsToCalls, type ScreenInput, type ToolCall } from './actions.js';

/**
 * Sends keys and gestures to the device in the order the user made them, one tool call at a
 * time. Keys typed while a call is running are merged into the next mobile_type_keys, so fast
 * typing becomes a few calls instead of one per character. One queue for both, because a tap
 * that moves the focus and the keys typed after it must not overtake each other: otherwise
 * the keys meant for a password field land in the field that had the focus before.
 */
export class InputQueue {
  private queued: ScreenInput[] = [];
  private draining: Promise<void> | undefined;

  /** `send` reports its own failures; a rejection only stops the batch it belongs to. */
  constructor(
    private readonly device: () => string | undefined,
    private readonly send: (call: ToolCall) => Promise<void>,
  ) {}

  push(input: ScreenInput): void {
    // A held Backspace or arrow repeats faster than a slow device presses it: one repeat waiting is enough,
    // else the device kept deleting or moving for seconds after the key was let go.
    if (isRepeat(input) && sameKey(this.queued[this.queued.length - 1], input)) return;
    this.queued.push(input);
    this.draining ??= this.drain().finally(() => {
      this.draining = undefined;
    });
  }

  /** Drop input not yet sent (device switched). */
  clear(): void {
    this.queued = [];
  }

  /** Resolves when everything queued so far was sent. */
  idle(): Promise<void> {
    return this.draining ?? Promise.resolve();
  }

  private async drain(): Promise<void> {
    while (this.queued.length > 0) {
      const device = this.device();
      const batch = this.queued;
      this.queued = [];
      if (!device) continue;
      try {
        for (const call of inputsToCalls(device, batch)) await this.send(call);
      } catch {
        // Already reported by send; later keys still go out.
      }
    }
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
