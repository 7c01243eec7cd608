import WebSocket from 'ws';
import { startBridge, type Bridge, type BridgeOptions } from '../../src/bridge/index.js';
import { createEngine } from '../../src/engine/create.js';
import sharp from 'sharp';
import type { DeviceHandle, Driver } from '../../src/engine/driver.js';
import { ToolError } from '../../src/engine/errors.js';
import type { VirtualDriverOptions } from '../../src/engine/drivers/virtual/index.js';
import { decodeFrame, type DecodedFrame } from '../../src/protocol/index.js';

export const ANDROID = 'virtual-android-1';
export const IOS = 'virtual-ios-1';

/** A bridge on a free loopback port over fresh in-memory virtual phones; logs are kept for assertions. */
export async function testBridge(
  options: Partial<BridgeOptions> & { virtual?: VirtualDriverOptions; extraDrivers?: Driver[] } = {},
): Promise<{ bridge: Bridge; logs: string[] }> {
  const logs: string[] = [];
  const { virtual, extraDrivers, ...rest } = options;
  const bridge = await startBridge({
    engine: createEngine({ virtual: virtual ?? {}, extraDrivers }),
    host: '127.0.0.1',
    port: 0,
    webRoot: '/nonexistent-mobilebridge-web',
    log: (line) => logs.push(line),
    ...rest,
  });
  return { bridge, logs };
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export async function until<T>(what: string, probe: () => T | undefined | false, timeoutMs = 5000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = probe();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

export interface Json {
  [k: string]: unknown;
}

/**
 * A bare `ws` client that speaks raw JSON-RPC, for conformance tests that must send what the typed
 * client never would (malformed JSON, bad envelopes, batches, binary).
 */
export class RawClient {
  readonly texts: unknown[] = [];
  readonly frames: DecodedFrame[] = [];
  /** performance.now() at the arrival of each frame in `frames`. */
  readonly frameTimes: number[] = [];
  closeEvent?: { code: number; reason: string };
  private nextId = 1;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data, isBinary) => {
      if (isBinary) {
        this.frames.push(decodeFrame(data as Buffer));
        this.frameTimes.push(performance.now());
      }
      else this.texts.push(JSON.parse(String(data)));
    });
    ws.on('close', (code, reason) => {
      this.closeEvent = { code, reason: reason.toString() };
    });
  }

  static open(url: string, options: WebSocket.ClientOptions = {}): Promise<RawClient> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, { perMessageDeflate: false, ...options });
      ws.once('open', () => resolve(new RawClient(ws)));
      ws.once('error', reject);
      ws.once('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => reject(Object.assign(new Error(`HTTP ${res.statusCode}: ${body.trim()}`), { status: res.statusCode })));
      });
    });
  }

  send(value: unknown): void {
    this.ws.send(typeof value === 'string' ? value : JSON.stringify(value));
  }

  /** Waits for a text message matching `pred` (searching what already arrived first), and removes it. */
  async next(pred: (msg: Json) => boolean, timeoutMs = 5000): Promise<Json> {
    const hit = await until(
      'a matching message',
      () => {
        const i = this.texts.findIndex((m) => typeof m === 'object' && m !== null && !Array.isArray(m) && pred(m as Json));
        return i >= 0 ? this.texts.splice(i, 1)[0] : undefined;
      },
      timeoutMs,
    );
    return hit as Json;
  }

  async nextBatch(timeoutMs = 5000): Promise<Json[]> {
    const hit = await until(
      'a batch response',
      () => {
        const i = this.texts.findIndex((m) => Array.isArray(m));
        return i >= 0 ? this.texts.splice(i, 1)[0] : undefined;
      },
      timeoutMs,
    );
    return hit as Json[];
  }

  response(id: unknown, timeoutMs?: number): Promise<Json> {
    return this.next((m) => m.id === id && ('result' in m || 'error' in m), timeoutMs);
  }

  notification(method: string, pred: (params: Json) => boolean = () => true, timeoutMs?: number): Promise<Json> {
    return this.next((m) => m.method === method && !('id' in m) && pred(m.params as Json), timeoutMs).then((m) => m.params as Json);
  }

  async call(method: string, params?: unknown): Promise<Json> {
    const id = this.nextId++;
    this.send({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
    const res = await this.response(id);
    if (res.error) throw Object.assign(new Error(`${method}: ${(res.error as Json).message as string}`), { rpc: res.error });
    return res.result as Json;
  }

  close(): Promise<void> {
    if (this.ws.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      this.ws.once('close', () => resolve());
      this.ws.close();
    });
  }
}

/** The raw clients a test file opens, closed together after each test (before its bridge). */
export class OpenedClients {
  private readonly list: RawClient[] = [];

  async open(url: string): Promise<RawClient> {
    const c = await RawClient.open(url);
    this.list.push(c);
    return c;
  }

  async closeAll(): Promise<void> {
    for (const c of this.list.splice(0)) await c.close();
  }
}

/**
 * A hot-pluggable driver with one tiny device, for devices.changed and device-gone paths.
 * Only what the bridge touches is implemented.
 */
export class PluggableDriver implements Driver {
  readonly name = 'pluggable';
  private present = new Set<string>();
  private listener?: (change: { added: { id: string; os: 'Android'; model: string; version: string }[]; removed: string[] }) => void;

  plug(id: string): void {
    this.present.add(id);
    this.listener?.({ added: [this.info(id)], removed: [] });
  }

  unplug(id: string): void {
    this.present.delete(id);
    this.listener?.({ added: [], removed: [id] });
  }

  /** Gone without a device event (a frozen transport): calls fail, the list does not say so. */
  vanish(id: string): void {
    this.present.delete(id);
  }

  reappear(id: string): void {
    this.present.add(id);
  }

  private info(id: string) {
    return { id, os: 'Android' as const, model: 'Pluggable', version: '1' };
  }

  async listDevices() {
    return [...this.present].map((id) => this.info(id));
  }

  async open(id: string) {
    if (!this.present.has(id)) return undefined;
    const png = await sharp({ create: { width: 8, height: 16, channels: 3, background: '#336699' } }).png().toBuffer();
    const gone = () => {
      if (!this.present.has(id)) throw new ToolError('DEVICE_NOT_FOUND', `device ${id} was unplugged`);
    };
    return {
      info: this.info(id),
      screenshot: async () => (gone(), { png, width: 8, height: 16 }),
      screenSize: async () => (gone(), { width: 8, height: 16 }),
      listElements: async () => (gone(), []),
    } as unknown as DeviceHandle;
  }

  watch(listener: NonNullable<typeof this.listener>): () => void {
    this.listener = listener;
    return () => (this.listener = undefined);
  }

  async close(): Promise<void> {}
}

/** Keeps the virtual list scrolling so that nearly every capture is a new screen, until stopped (resolves to the swipes made). */
export function scrollChurn(client: RawClient): { stop(): Promise<number> } {
  let running = true;
  let count = 0;
  const loop = (async () => {
    await client.call('tools.call', { tool: 'mobile_open_url', parameters: { device: ANDROID, url: 'mbdemo://screen/home' } });
    for (let i = 0; running; i++) {
      const direction = Math.floor(i / 10) % 2 === 0 ? 'up' : 'down';
      const r = (await client.call('tools.call', { tool: 'mobile_swipe_on_screen', parameters: { device: ANDROID, direction, distance: 60 } })) as { status?: string };
      if (r.status !== 'success') throw new Error(`swipe failed while churning: ${JSON.stringify(r)}`);
      count++;
      await sleep(20);
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return count;
    },
  };
}
