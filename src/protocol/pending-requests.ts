import { RpcError, type RequestId, type RpcResponse } from './jsonrpc.js';

interface Pending {
  resolve(value: unknown): void;
  reject(err: Error): void;
  timer?: ReturnType<typeof setTimeout>;
}

/** The client's requests that await their answer, by id: each response settles its caller's promise. */
export class PendingRequests {
  private readonly byId = new Map<RequestId, Pending>();

  /** `timeoutMs`: how long a request may go unanswered before it is rejected; 0 waits as long as the connection lives. */
  constructor(private readonly timeoutMs: number) {}

  expect(id: RequestId, method: string): Promise<unknown> {
    return new Promise<unknown>((resolve, reject) => {
      const entry: Pending = { resolve, reject };
      const timeout = this.timeoutMs;
      if (timeout > 0) {
        entry.timer = setTimeout(() => {
          this.byId.delete(id);
          reject(new Error(`${method} got no answer within ${timeout} ms`));
        }, timeout);
      }
      this.byId.set(id, entry);
    });
  }

  has(id: RequestId): boolean {
    return this.byId.has(id);
  }

  /** Resolves (or, for a JSON-RPC error, rejects with RpcError) the request `response` answers; an answer nobody waits for is dropped. */
  settle(response: RpcResponse): void {
    const entry = this.byId.get(response.id);
    if (!entry) return;
    this.byId.delete(response.id);
    clearTimeout(entry.timer);
    if ('error' in response) entry.reject(new RpcError(response.error.code, response.error.message, response.error.data));
    else entry.resolve(response.result);
  }

  /** Rejects every request still waiting: its connection is gone. */
  failAll(err: Error): void {
    for (const [id, entry] of this.byId) {
      clearTimeout(entry.timer);
      entry.reject(err);
      this.byId.delete(id);
    }
  }
}
