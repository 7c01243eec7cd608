import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * One full garbage collection once frame streaming has stopped for a while. Under load the bridge
 * turns over hundreds of MB of screens, notifications and sockets; once everyone leaves, nothing
 * allocates any more, so V8 never collects that garbage and RSS stays at its peak (issue 16:
 * 140 MB of heap and 145 MB of ArrayBuffers still there 45 s after load, 21 MB and 0.2 MB after
 * one collection). The pause (tens of ms) falls when nobody watches a screen.
 *
 * V8 hands out `gc` only to contexts made after `--expose-gc` is set, hence the new context
 * (the same way jest's leak detector gets it).
 */
let collect: (() => void) | undefined | null;

function collector(): (() => void) | null {
  if (collect !== undefined) return collect;
  try {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as () => void;
  } catch {
    collect = null;
  }
  return collect;
}

export class IdleCollector {
  private timer?: NodeJS.Timeout;
  private dueAt = 0;
  /** Full collections run so far. */
  runs = 0;

  constructor(private readonly afterMs: number) {}

  /**
   * Something was made or let go now: collect once `ms` (default `afterMs`) have passed, and not
   * before any later time an earlier call asked for.
   */
  touch(ms = this.afterMs): void {
    this.dueAt = Math.max(this.dueAt, performance.now() + ms);
    if (!this.timer) this.arm(ms);
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(ms: number): void {
    this.timer = setTimeout(() => {
      const left = this.dueAt - performance.now();
      if (left > 0) {
        this.arm(left);
        return;
      }
      this.timer = undefined;
      const gc = collector();
      if (!gc) return;
      gc();
      this.runs++;
    }, ms);
    this.timer.unref();
  }
}
