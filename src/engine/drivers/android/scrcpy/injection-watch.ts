import { untilAborted } from '../../../deadline.js';
import type { ServerLog } from './server-log.js';

/**
 * A private-use character. No key character map has keys for it, so an INJECT_TEXT of it makes
 * Controller.injectText log `Could not inject char u+e000` (WARN) and inject nothing. The controller
 * handles messages one at a time and logs refused injections to the same stream (stderr) as it
 * goes, so once this line shows, every line the earlier messages caused has shown before it.
 */
export const PROBE_TEXT = '\ue000';
const PROBE_LINE = '[server] WARN: Could not inject char u+e000';
const SERVER_LINE = /^\[server\] (\w+): (.*)$/;
/**
 * Controller.getEventPointAndDisplayId (3.3.1) drops a touch or scroll made for another video size, and
 * says so only at log_level=verbose: the capture restarted at a new size (the phone rotated or folded)
 * before we read the new configuration packet.
 */
const DROPPED = /^Ignore positional event generated for size (\d+x\d+) \(current size is (\d+x\d+)\)$/;
/** Controller.injectText (3.3.1): a character the device's key character map has no keys for is logged and skipped, the rest typed. */
const SKIPPED_CHAR = /^Could not inject char (u\+[0-9a-f]{4})$/;
/** Skipped characters kept to name in an error. */
const SKIPPED_KEPT = 16;

/** How far the log had got: what a later confirmation compares with. */
export interface InjectionMark {
  failures: number;
  skipped: number;
}

/**
 * Reads the server's log for what InputManager.injectInputEvent (3.3.1) does instead of throwing when
 * injection fails: it logs and returns false, and the controller carries on, so the control socket
 * stays open and the video keeps running. A refused permission (MIUI without "USB debugging (Security
 * settings)") is logged at most once per 3 s; anything else as `Could not invoke method` with the stack.
 */
export class InjectionWatch {
  /** The first refusal the server logged. The permission does not come back while it runs (scrcpy asks for a reboot). */
  refused: string | undefined;
  /** Failures other than a refusal, and the last one's cause. */
  failures = 0;
  lastFailure: string | undefined;
  /** Positional events the server ignored as made for another video size, and the last such line's sizes. */
  dropped = 0;
  lastDrop: { sent: string; current: string } | undefined;
  /** Characters of INJECT_TEXT messages the server skipped, and the last few of them (`u+xxxx`). */
  skipped = 0;
  lastSkipped: string[] = [];
  private probesSeen = 0;
  /** The lines of a `Could not invoke method` report being read (its stack trace follows it). */
  private report: string[] | undefined;

  constructor(private readonly log: ServerLog) {
    // From the server's first line: Controller.control presses POWER on a screen that is off before it
    // reads any message, so a refusal may be logged before this watch exists, and not again for 3 s.
    log.onLine((line) => this.read(line), true);
  }

  mark(): InjectionMark {
    return { failures: this.failures, skipped: this.skipped };
  }

  /** The characters skipped since `mark`, as far as they are kept (the count says how many in all). */
  skippedSince(mark: InjectionMark): { count: number; chars: string[] } {
    const count = this.skipped - mark.skipped;
    return { count, chars: this.lastSkipped.slice(-Math.min(count, SKIPPED_KEPT)) };
  }

  /** Resolves true once `count` probes have shown in the log, false after `ms` or when the server exits first. */
  async waitForProbes(count: number, ms: number, signal: AbortSignal): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (this.probesSeen < count) {
      if (signal.aborted) throw signal.reason;
      if (this.log.exited || Date.now() >= deadline) return false;
      await untilAborted(signal, this.log.changed(deadline - Date.now()));
    }
    return true;
  }

  private read(line: string): void {
    const logged = SERVER_LINE.exec(line);
    if (!logged) {
      this.report?.push(line);
      return;
    }
    const [, level, message] = logged;
    // Ln.e prints the message and then the stack in separate writes, and at log_level=verbose other threads
    // (DisplaySizeMonitor on every display event) log between them: only the controller's own next line,
    // never verbose or debug, ends a report.
    if (level !== 'VERBOSE' && level !== 'DEBUG') this.endReport();
    if (line === PROBE_LINE) this.probesSeen++;
    else if (level === 'WARN' && SKIPPED_CHAR.test(message)) {
      this.skipped++;
      this.lastSkipped.push(SKIPPED_CHAR.exec(message)![1]);
      if (this.lastSkipped.length > SKIPPED_KEPT) this.lastSkipped.shift();
    }
    else if (level === 'VERBOSE' && DROPPED.test(message)) {
      const [, sent, current] = DROPPED.exec(message)!;
      this.dropped++;
      this.lastDrop = { sent, current };
    }
    else if (level === 'ERROR' && message.includes('INJECT_EVENTS permission')) this.refused ??= message.trim();
    else if (level === 'ERROR' && message.trim() === 'Could not invoke method') this.report = [];
  }

  private endReport(): void {
    const report = this.report;
    this.report = undefined;
    // Other wrappers (settings, displays, activities) log the same words; only the injector's stack counts.
    if (!report?.some((l) => l.includes('wrappers.InputManager.injectInputEvent'))) return;
    this.failures++;
    const cause = report.filter((l) => l.startsWith('Caused by: ')).pop() ?? report[0];
    this.lastFailure = cause?.replace(/^Caused by: /, '').trim() || 'Could not invoke method';
  }
}
