import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

export interface PeerRequest {
  method: string;
  params: Record<string, unknown>;
  /** Which connection it came on (the aggregator's shared link, or one per session). */
  connection: number;
}

/**
 * A stand-in peer bridge that speaks just enough JSON-RPC to be aggregated (session.hello,
 * devices.list, anything else answered `{}`), and can be told to stop answering requests and pings
 * — what a stopped or frozen bridge looks like from outside, without stopping a real process.
 */
export class ScriptedPeer {
  /** Requests go unanswered (they are still recorded). */
  silent = false;
  /** Pings go unanswered. */
  deaf = false;
  /** A request of this method is read, then every socket drops (the peer crashed while running it). */
  crashOn?: string;
  /**
   * Requests of these methods go unanswered until `answerHeld` (a bridge stuck in one method while
   * its link and other calls work); `answers` gives their result then.
   */
  readonly held = new Set<string>();
  answers: Record<string, unknown> = {};
  private readonly waiting: { method: string; reply: (result: unknown) => void }[] = [];
  /** More of the session.hello answer (a real bridge's: the CLI's client reads its limits). */
  hello: Record<string, unknown> = {};
  readonly requests: PeerRequest[] = [];
  readonly closed: number[] = [];
  private readonly sockets = new Set<WebSocket>();
  private connections = 0;

  private constructor(
    private readonly wss: WebSocketServer,
    readonly devices: { id: string; os: 'Android' | 'iOS'; model: string; version: string }[],
  ) {
    wss.on('connection', (ws) => this.accept(ws));
  }

  static async start(devices = [{ id: 'scripted-phone', os: 'Android' as const, model: 'Scripted', version: '1' }]): Promise<ScriptedPeer> {
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, autoPong: false, perMessageDeflate: false });
    await new Promise<void>((resolve, reject) => {
      wss.once('listening', resolve);
      wss.once('error', reject);
    });
    return new ScriptedPeer(wss, devices);
  }

  get url(): string {
    return `ws://127.0.0.1:${(this.wss.address() as AddressInfo).port}/ws`;
  }

  async close(): Promise<void> {
    for (const ws of this.sockets) ws.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }

  /** Answers the held requests of `method` with `result`; how many there were. */
  answerHeld(method: string, result: unknown): number {
    const due = this.waiting.filter((w) => w.method === method);
    for (const w of due) {
      this.waiting.splice(this.waiting.indexOf(w), 1);
      w.reply(result);
    }
    return due.length;
  }

  private accept(ws: WebSocket): void {
    const connection = ++this.connections;
    this.sockets.add(ws);
    ws.on('close', () => {
      this.sockets.delete(ws);
      this.closed.push(connection);
    });
    ws.on('ping', (data) => {
      if (!this.deaf) ws.pong(data);
    });
    ws.on('message', (data) => {
      const msg = JSON.parse(String(data)) as { id?: number; method: string; params?: Record<string, unknown> };
      this.requests.push({ method: msg.method, params: msg.params ?? {}, connection });
      if (msg.method === this.crashOn) {
        for (const s of this.sockets) s.terminate();
        return;
      }
      if (this.silent || msg.id === undefined) return;
      const reply = (result: unknown) => ws.send(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result }));
      if (this.held.has(msg.method)) {
        this.waiting.push({ method: msg.method, reply });
        return;
      }
      reply(msg.method === 'session.hello' ? { ...this.hello, session: `scripted-${connection}` } : msg.method === 'devices.list' ? { devices: this.devices } : (this.answers[msg.method] ?? {}));
    });
  }
}
