/**
 * A text message on its way to a session: a head of its own and, for a notification that goes to
 * many sessions, a body serialised once and shared by all of them (the socket sends, the replay
 * rings keep the same object). The message is `head` + `body`.
 */
export interface OutgoingText {
  head: string;
  body?: string | Buffer;
  /** Its size for the replay ring's byte bound (UTF-16 units of strings, bytes of a Buffer). */
  size: number;
  /** The shared body's owner: how many replay rings hold it (the memory is counted once). */
  shared?: SharedNotification;
}

/** Bodies at least this long are kept as UTF-8 bytes (a Buffer of their own, not a slice of Node's 8 KiB pool). */
const BYTES_FROM = 4096;

export function ownText(text: string): OutgoingText {
  return { head: text, size: text.length };
}

/**
 * A notification serialised once for every session it goes to (issue 16). Under load each element
 * diff went to the ~12 viewers of its device: serialised, turned into bytes and kept in each
 * session's replay ring once per viewer, it was a third of what the event loop allocated and most
 * of what stayed on the heap. `perSession` names the one field that differs per session (the
 * subscription id): it leads `params` and goes in the head, so the head is a few dozen bytes and
 * the rest is shared. The field order is that of a plain `JSON.stringify` of the same params.
 */
export class SharedNotification {
  readonly body: string | Buffer;
  readonly bodySize: number;
  /** Replay-ring entries holding this body now (ReplayBudget counts its bytes while this is above 0). */
  holders = 0;
  private readonly headStart: string;
  private readonly hasRest: boolean;
  private readonly whole?: OutgoingText;

  constructor(
    readonly method: string,
    /** The params without the per-session field. */
    params: Record<string, unknown>,
    perSession?: string,
  ) {
    const rest = JSON.stringify(params);
    this.hasRest = rest.length > 2;
    const start = `{"jsonrpc":"2.0","method":${JSON.stringify(method)},"params":`;
    let bodyText: string;
    if (perSession === undefined) {
      this.headStart = '';
      bodyText = `${start}${rest}}`;
    } else {
      this.headStart = `${start}{${JSON.stringify(perSession)}:`;
      // `{"a":1}` → `"a":1}}`: the rest of params after the head's field, and the message's closing brace.
      bodyText = `${rest.slice(1)}}`;
    }
    this.body = bodyText.length >= BYTES_FROM ? Buffer.from(bodyText) : bodyText;
    this.bodySize = this.body.length;
    if (perSession === undefined) this.whole = { head: '', body: this.body, size: this.bodySize, shared: this };
  }

  /** The message for one session; `value` is its per-session field (ignored without one). */
  to(value?: unknown): OutgoingText {
    if (this.whole) return this.whole;
    const head = `${this.headStart}${JSON.stringify(value)}${this.hasRest ? ',' : ''}`;
    return { head, body: this.body, size: head.length + this.bodySize, shared: this };
  }
}

/** The whole message as one string (tests, logs). */
export function textOf(message: OutgoingText): string {
  return message.head + (message.body === undefined ? '' : message.body.toString());
}
