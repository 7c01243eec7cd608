import type { Duplex } from 'node:stream';

const LOG_KEEP_CHARS = 8192;

/**
 * Lines InputManager.injectInputEvent (3.3.1) logs instead of throwing when injection fails: the first
 * two for a refused permission (at most once per 3 s), the third, with a stack trace, for anything else.
 * They are not why a server stops: the controller goes on with the next message.
 */
const INJECTION_FAILURE = /INJECT_EVENTS permission|^Make sure you have enabled "USB debugging|^Could not invoke method$/;

/**
 * The server's console: kept for reasons (`[server] ERROR: …`) and confirmations (`Device clipboard set`).
 * Through adbkit's `shell:` (no shell protocol) the server's stdout and stderr are one stream, so lines
 * arrive in the order the server wrote them.
 */
export class ServerLog {
  exited = false;
  /** Build.VERSION.RELEASE from the line Server.main prints first (`Device: [maker] brand model (Android 6.0.1)`). */
  androidRelease: string | undefined;
  private kept = '';
  private dropped = 0;
  /** The log position up to which the server recovered from what it printed (errorsRecovered). */
  private recoveredAt = 0;
  private partial = '';
  private readonly waiters = new Set<() => void>();
  private readonly lineListeners = new Set<(line: string) => void>();

  constructor(shell: Duplex) {
    shell.setEncoding('utf8');
    shell.on('data', (chunk: string) => {
      this.kept += chunk;
      if (this.kept.length > LOG_KEEP_CHARS) {
        this.dropped += this.kept.length - LOG_KEEP_CHARS;
        this.kept = this.kept.slice(-LOG_KEEP_CHARS);
      }
      this.splitLines(chunk);
      this.wake();
    });
    const done = () => {
      this.exited = true;
      this.wake();
    };
    shell.on('end', done);
    shell.on('close', done);
    shell.on('error', done);
  }

  get text(): string {
    return this.kept;
  }

  /** Where the log stands now: note it before acting, then wait for what the server prints after. */
  get position(): number {
    return this.dropped + this.kept.length;
  }

  since(position: number): string {
    return this.kept.slice(Math.max(0, position - this.dropped));
  }

  /**
   * Every complete line (without its line break), in order: `replay` first hands over those already
   * kept (the first may be cut where the kept window begins), then the listener gets each new one.
   */
  onLine(listener: (line: string) => void, replay = false): void {
    if (replay) {
      const complete = this.kept.slice(0, Math.max(0, this.kept.length - this.partial.length));
      for (const raw of complete.split('\n').slice(0, -1)) listener(raw.replace(/\r$/, ''));
    }
    this.lineListeners.add(listener);
  }

  /**
   * The server streams again after the errors printed so far (SurfaceEncoder restarted its encoder
   * after an error it retries, and a new configuration packet came): they are not why it may stop later.
   */
  errorsRecovered(): void {
    this.recoveredAt = this.position;
  }

  /**
   * The first error the server printed since it last recovered (version mismatch, exception), with the
   * exception line that follows it. Failed injections are left out: the server logs them and keeps running.
   */
  get error(): string | undefined {
    const from = Math.max(0, this.recoveredAt - this.dropped);
    // From the start of the line the mark falls in: a line still arriving then is a new one.
    const unrecovered = this.kept.slice(this.kept.lastIndexOf('\n', from - 1) + 1);
    for (const logged of unrecovered.matchAll(/\[server\] ERROR: ([^\n]*)(?:\n(\S+(?:Exception|Error)\b[^\n]*))?/g)) {
      const [, message, exception] = logged;
      if (INJECTION_FAILURE.test(message.trim())) continue;
      return exception && !exception.includes(message) ? `${message}: ${exception}` : message.trim();
    }
    return /^(Exception in thread .*|\S+Exception: .*)$/m.exec(unrecovered)?.[1].trim();
  }

  /** Resolves true once the log after `from` matches, false after `ms` or when the server exits first. */
  async waitFor(pattern: RegExp, from: number, ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    for (;;) {
      if (pattern.test(this.since(from))) return true;
      if (this.exited || Date.now() >= deadline) return false;
      await this.changed(deadline - Date.now());
    }
  }

  /** The Android release, waiting up to `ms` for the server to print it (it does before binding its socket). */
  async release(ms: number): Promise<string | undefined> {
    const deadline = Date.now() + ms;
    while (this.androidRelease === undefined && !this.exited && Date.now() < deadline) await this.changed(deadline - Date.now());
    return this.androidRelease;
  }

  /** Resolves at the next output or exit, or after `ms`. */
  changed(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, Math.max(1, ms));
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.waiters.add(done);
    });
  }

  private splitLines(chunk: string): void {
    const lines = (this.partial + chunk).split('\n');
    this.partial = lines.pop() ?? '';
    for (const raw of lines) {
      // An old adbd runs the shell on a pty, which ends lines with CR LF.
      const line = raw.replace(/\r$/, '');
      this.androidRelease ??= /^\[server\] INFO: Device: .*\(Android ([^)]+)\)$/.exec(line)?.[1];
      for (const listener of this.lineListeners) listener(line);
    }
  }

  private wake(): void {
    const waiters = [...this.waiters];
    this.waiters.clear();
    waiters.forEach((w) => w());
  }
}
