import * as v from 'valibot';

/**
 * JSON-RPC 2.0 envelopes (https://www.jsonrpc.org/specification) as the bridge speaks them.
 * Browser-safe: no Node imports, so the viewer bundles this file unchanged.
 */

export const JSONRPC = '2.0';

/** Protocol faults only. A device or tool failure is a normal result with `status: "error"`. */
export const RPC_ERRORS = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
  /** Too many messages on this connection; `data.retry_after_ms` says when to try again. */
  RATE_LIMITED: -32000,
  /** The bridge is shutting down and takes no new requests. */
  SHUTTING_DOWN: -32001,
} as const;
export type RpcErrorCode = (typeof RPC_ERRORS)[keyof typeof RPC_ERRORS];

export type RequestId = string | number | null;

export const RequestIdSchema = v.union([v.string(), v.number(), v.null()]);

/**
 * A request or notification as received: only the envelope is checked here; each method's
 * params are checked against its own schema in methods.ts.
 */
export const RequestEnvelopeSchema = v.object({
  jsonrpc: v.literal(JSONRPC, 'jsonrpc must be "2.0"'),
  method: v.pipe(v.string('method must be a string'), v.minLength(1, 'method must not be empty')),
  // JSON-RPC 2.0 §4: params, when present, MUST be a structured value; a string, number, boolean
  // or null there makes the whole request invalid (-32600), answered even when it has no id.
  params: v.optional(
    v.custom<object>(
      (x) => typeof x === 'object' && x !== null,
      (issue) => `params must be a JSON object of named parameters, or left out (not ${issue.input === null ? 'null' : `a ${typeof issue.input}`})`,
    ),
  ),
  id: v.optional(RequestIdSchema),
});
export type RequestEnvelope = v.InferOutput<typeof RequestEnvelopeSchema>;

export interface RpcRequest<P = unknown> {
  jsonrpc: '2.0';
  id: RequestId;
  method: string;
  params?: P;
}

export interface RpcNotification<P = unknown> {
  jsonrpc: '2.0';
  method: string;
  params?: P;
}

export interface RpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export interface RpcSuccess<R = unknown> {
  jsonrpc: '2.0';
  id: RequestId;
  result: R;
}

export interface RpcFailure {
  jsonrpc: '2.0';
  id: RequestId;
  error: RpcErrorObject;
}

export type RpcResponse<R = unknown> = RpcSuccess<R> | RpcFailure;

export function isResponse(msg: unknown): msg is RpcResponse {
  return typeof msg === 'object' && msg !== null && 'id' in msg && ('result' in msg || 'error' in msg) && !('method' in msg);
}

export function isNotification(msg: unknown): msg is RpcNotification {
  return typeof msg === 'object' && msg !== null && typeof (msg as { method?: unknown }).method === 'string' && !('id' in msg);
}

/** A JSON-RPC error carried as an exception (server handlers throw it; the client rejects with it). */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'RpcError';
  }

  toJSON(): RpcErrorObject {
    return this.data === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, data: this.data };
  }
}
