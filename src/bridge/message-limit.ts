import type WebSocket from 'ws';
import type { RequestId } from '../protocol/index.js';

/**
 * A number an answer carries back as it came: finite, and when an integer, within 2^53 − 1 (a
 * larger one was rounded by JSON.parse, so the answer's id would differ from the request's).
 */
export const isCarriedNumber = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x) && (!Number.isInteger(x) || Number.isSafeInteger(x));

/** How far into an oversized message the bridge looks for its id: clients put `"id"` near the start. */
const ID_SCAN_BYTES = 512;

/**
 * The top-level `"id"` of a single request, read from the first bytes of a message too large to
 * parse, so that its refusal can be matched by the caller (an answer with id null leaves the
 * request pending forever). A small scanner, not a regex: an `"id"` inside `params`, or inside a
 * string, is not the request's. Undefined when it is not there or not a plain number or string, or a number
 * the answer could not carry back as sent (isCarriedNumber).
 */
export function peekRequestId(head: Buffer): RequestId | undefined {
  const text = head.subarray(0, ID_SCAN_BYTES).toString('latin1');
  let depth = 0;
  let i = 0;
  const skipSpace = () => {
    while (i < text.length && ' \t\r\n'.includes(text[i])) i++;
  };
  const stringEnd = (from: number): number => {
    for (let j = from + 1; j < text.length; j++) {
      if (text[j] === '\\') j++;
      else if (text[j] === '"') return j;
    }
    return -1;
  };
  skipSpace();
  if (text[i] !== '{') return undefined;
  for (; i < text.length; i++) {
    const c = text[i];
    if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
    else if (c === '"') {
      const end = stringEnd(i);
      if (end < 0) return undefined;
      const key = text.slice(i, end + 1);
      i = end;
      if (depth !== 1 || key !== '"id"') continue;
      i++;
      skipSpace();
      if (text[i] !== ':') continue;
      i++;
      skipSpace();
      const token = text[i] === '"' ? (stringEnd(i) > 0 ? text.slice(i, stringEnd(i) + 1) : '') : (/^-?\d+(\.\d+)?([eE][+-]?\d+)?(?=[\s,}])/.exec(text.slice(i))?.[0] ?? '');
      if (!token) return undefined;
      try {
        const id: unknown = JSON.parse(Buffer.from(token, 'latin1').toString('utf8'));
        return isCarriedNumber(id) || typeof id === 'string' ? id : undefined;
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/**
 * `ws` closes a connection whose message passes its hard cap with 1009 and no reason. The close
 * is given one here (the size and the limits), ahead of `ws`'s own, which then finds the socket
 * closing and adds nothing. `ws` keeps the receiver private: without it, its bare close stays.
 */
export function explainOversizeClose(ws: WebSocket, limit: number, hardLimit: number, close: (code: number, reason: string) => void): void {
  const receiver = (ws as unknown as { _receiver?: { prependListener?: (e: string, fn: (err: Error & { code?: string }) => void) => void; _totalPayloadLength?: unknown } })._receiver;
  receiver?.prependListener?.('error', (err) => {
    if (err.code !== 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') return;
    const seen = typeof receiver._totalPayloadLength === 'number' ? receiver._totalPayloadLength : undefined;
    close(1009, `message ${seen ? `of ${seen} bytes ` : ''}over ${hardLimit} bytes; the limit is ${limit} bytes`);
  });
}
