import { ConnectionClosedError } from '../../src/protocol/client-types.js';

/**
 * "<what>: <why>." for a request that got no answer, with "check the connection and try again" only
 * when the connection did close: a message refused before sending (over the bridge's size limit)
 * fails the same way every time, and that advice would send the user after a fault that is not there.
 */
export function requestFailedText(what: string, err: unknown): string {
  const why = err instanceof Error ? err.message : String(err);
  return `${what}: ${why}.${err instanceof ConnectionClosedError ? ' Check the connection and try again.' : ''}`;
}
