import { RPC_ERRORS, RpcError } from './jsonrpc.js';

/** The bridge's default message limit (docs/protocol.md, Limits), until its hello says otherwise. */
export const DEFAULT_MAX_MESSAGE_BYTES = 1024 * 1024;

/**
 * The bridge answers a message over its size limit without parsing it: only an id within its
 * first bytes is read, else the answer's id is null and a request sent anyway would wait forever. The client refuses it before anything
 * is sent, with this error, against the limit the bridge announced (1 MiB until it said).
 */
export function oversizeError(text: string, what: string, limit = DEFAULT_MAX_MESSAGE_BYTES): RpcError | undefined {
  // UTF-8 takes at most 3 bytes per UTF-16 unit: most messages need no encoding to be measured.
  if (text.length * 3 <= limit) return undefined;
  const bytes = new TextEncoder().encode(text).length;
  if (bytes <= limit) return undefined;
  return new RpcError(
    RPC_ERRORS.INVALID_REQUEST,
    `${what} not sent: the message would be ${bytes} bytes, over the bridge's limit of ${limit} (limits.max_message_bytes); send less in one request (split the text or the batch)`,
  );
}

/** The bridge's default batch limit (docs/protocol.md, Limits), until its hello says otherwise. */
export const DEFAULT_MAX_BATCH = 100;

/**
 * A batch over the bridge's limit is answered with one error whose id is null, so none of its
 * requests would ever get an answer: refused here before sending, like an oversized message.
 */
export function batchSizeError(count: number, limit = DEFAULT_MAX_BATCH): RpcError | undefined {
  if (count <= limit) return undefined;
  return new RpcError(
    RPC_ERRORS.INVALID_REQUEST,
    `a batch of ${count} not sent: the bridge takes at most ${limit} requests in one batch (limits.max_batch); split it into several batches`,
  );
}
