import { StringDecoder } from 'node:string_decoder';
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

type Id = string | number;

/** The requests of one incoming batch still unanswered, and the answers so far. */
interface Batch {
  waiting: Set<Id>;
  answers: unknown[];
}

function idOf(value: unknown): Id | undefined {
  const id = (value as { id?: unknown } | null)?.id;
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}

function isRequest(value: unknown): boolean {
  return typeof (value as { method?: unknown } | null)?.method === 'string' && idOf(value) !== undefined;
}

/**
 * MCP over stdin/stdout, one JSON-RPC message per line, as the SDK's StdioServerTransport does it,
 * plus what that one drops without a word:
 * - a batch (a JSON array of messages), which MCP 2025-03-26 servers MUST accept: each message is
 *   handled and the answers go back together as one array, as JSON-RPC 2.0 asks; a client that
 *   negotiated 2025-03-26 and batches would otherwise wait forever;
 * - a message that is JSON but not JSON-RPC (no "jsonrpc": "2.0", say) and carries an id: it is
 *   answered -32600 Invalid Request, so that request does not hang either. A line that is not JSON
 *   at all has no id to answer; it is reported on stderr.
 */
/** The longest line read from stdin, in characters (UTF-16 units). */
const MAX_LINE_CHARS = 64 * 1024 * 1024;

export class LineTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private pending = '';
  private readonly decoder = new StringDecoder('utf8');
  private readonly batches: Batch[] = [];
  private closed = false;
  /** An over-long line is being dropped until its newline. */
  private skipping = false;

  constructor(
    private readonly input: Readable = process.stdin,
    private readonly output: Writable = process.stdout,
    private readonly maxLineChars = MAX_LINE_CHARS,
  ) {}

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('error', this.onInputError);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('error', this.onInputError);
    if (this.input.listenerCount('data') === 0) this.input.pause();
    this.onclose?.();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const id = 'method' in message ? undefined : idOf(message);
    const batch = id === undefined ? undefined : this.batches.find((b) => b.waiting.has(id));
    if (!batch) return this.write(message);
    batch.waiting.delete(id!);
    batch.answers.push(message);
    return this.flush(batch);
  }

  private readonly onInputError = (error: Error) => this.onerror?.(error);

  private readonly onData = (chunk: Buffer | string) => {
    let text = typeof chunk === 'string' ? chunk : this.decoder.write(chunk);
    if (this.skipping) {
      // The rest of an over-long line: dropped up to its end.
      const end = text.indexOf('\n');
      if (end < 0) return;
      this.skipping = false;
      text = text.slice(end + 1);
    }
    this.pending += text;
    // A long line arrives in many chunks: only a chunk with a newline can end one.
    if (text.includes('\n')) {
      for (let end = this.pending.indexOf('\n'); end >= 0; end = this.pending.indexOf('\n')) {
        const line = this.pending.slice(0, end).replace(/\r$/, '');
        this.pending = this.pending.slice(end + 1);
        if (line.trim()) this.line(line);
      }
    }
    // Past V8's string limit the next append would throw in this listener and end the process: a line this
    // long is no MCP message anyway (the bridge refuses messages over 1 MiB).
    if (this.pending.length > this.maxLineChars) {
      this.onerror?.(new Error(`a line on stdin is longer than ${this.maxLineChars} characters; it was dropped unread (no answer is sent for it)`));
      this.pending = '';
      this.skipping = true;
    }
  };

  private line(text: string): void {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      this.onerror?.(new Error(`a line on stdin is not JSON (${(err as Error).message}): ${text.slice(0, 200)}`));
      return;
    }
    if (!Array.isArray(value)) {
      const refusal = this.deliver(value);
      if (refusal) void this.write(refusal);
      return;
    }
    if (value.length === 0) {
      this.onerror?.(new Error('an empty batch ([]) on stdin'));
      return;
    }
    const batch: Batch = { waiting: new Set(value.filter(isRequest).map((v) => idOf(v)!)), answers: [] };
    this.batches.push(batch);
    for (const item of value) {
      const refusal = this.deliver(item);
      if (!refusal) continue;
      batch.waiting.delete(idOf(item)!);
      batch.answers.push(refusal);
    }
    void this.flush(batch);
  }

  /** Hands one message on; answers the refusal when it is not JSON-RPC but has an id to answer. */
  private deliver(value: unknown): JSONRPCMessage | undefined {
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (parsed.success) {
      this.forgetCancelled(parsed.data);
      this.onmessage?.(parsed.data);
      return undefined;
    }
    const id = idOf(value);
    if (id === undefined) {
      this.onerror?.(new Error(`a message on stdin is not JSON-RPC 2.0 and has no id to answer: ${JSON.stringify(value).slice(0, 200)}`));
      return undefined;
    }
    return { jsonrpc: '2.0', id, error: { code: ErrorCode.InvalidRequest, message: 'Invalid Request: not a JSON-RPC 2.0 message (it needs "jsonrpc": "2.0" and a string "method", or a result or error)' } };
  }

  /** A cancelled request is never answered (MCP cancellation): its batch must not wait for it. */
  private forgetCancelled(message: JSONRPCMessage): void {
    if (!('method' in message) || message.method !== 'notifications/cancelled') return;
    const id = idOf({ id: (message.params as { requestId?: unknown } | undefined)?.requestId });
    if (id === undefined) return;
    for (const batch of this.batches) if (batch.waiting.delete(id)) void this.flush(batch);
  }

  private async flush(batch: Batch): Promise<void> {
    const at = this.batches.indexOf(batch);
    if (batch.waiting.size || at < 0) return;
    this.batches.splice(at, 1);
    // A batch of notifications only is answered with nothing at all (JSON-RPC 2.0, "Batch").
    if (batch.answers.length) await this.write(batch.answers);
  }

  private write(message: unknown): Promise<void> {
    return new Promise((resolve) => {
      if (this.output.write(JSON.stringify(message) + '\n')) resolve();
      else this.output.once('drain', resolve);
    });
  }
}
