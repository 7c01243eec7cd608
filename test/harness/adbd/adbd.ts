import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import net from 'node:net';
import {
  A_AUTH, A_CLSE, A_CNXN, A_OKAY, A_OPEN, A_WRTE, AUTH_TOKEN, encodePacket, MAX_PAYLOAD,
  PacketReader, VERSION_NO_CHECKSUM, type Packet,
} from './protocol.js';

/** One open service stream, seen from the device. adb 29 is stop-and-wait: each WRTE waits for its OKAY. */
export class DeviceStream extends EventEmitter {
  closed = false;
  private ackWaiter: (() => void) | null = null;

  constructor(
    readonly service: string,
    private readonly link: AdbdLink,
    readonly localId: number,
    readonly remoteId: number,
  ) {
    super();
  }

  async write(data: Buffer | string): Promise<void> {
    const bytes = typeof data === 'string' ? Buffer.from(data) : data;
    for (let at = 0; at < bytes.length; at += this.link.maxData) {
      if (this.closed) throw new Error(`stream ${this.service} closed by the host`);
      const acked = new Promise<void>((resolve) => (this.ackWaiter = resolve));
      this.link.send(A_WRTE, this.localId, this.remoteId, bytes.subarray(at, at + this.link.maxData));
      await acked;
    }
  }

  /** Ends the stream from the device side (the host sees end of output). */
  close(): void {
    if (this.closed) return;
    this.link.send(A_CLSE, this.localId, this.remoteId, Buffer.alloc(0));
    this.markClosed();
  }

  acked(): void {
    const waiter = this.ackWaiter;
    this.ackWaiter = null;
    waiter?.();
  }

  markClosed(): void {
    if (this.closed) return;
    this.closed = true;
    this.acked();
    this.emit('close');
  }
}

export type ServiceRunner = (stream: DeviceStream) => void | Promise<void>;

export interface AdbdFaults {
  /** Answer the host's CNXN with AUTH tokens forever: adb lists the device as `unauthorized`. */
  unauthorized?: boolean;
  /**
   * Answer the host's CNXN with an AUTH token, then never answer its signature (a device whose adbd
   * stalls while checking the key): adb lists it as `authorizing` and refuses calls with "device still authorizing".
   */
  authorizing?: boolean;
  /** Services matching are refused (CLSE right after OPEN), as adbd does for unknown services. */
  refuse?: RegExp;
  /** Services matching are accepted and then never answered. */
  stall?: RegExp;
  /**
   * Services matching get no answer to their OPEN at all, neither OKAY nor CLSE (a wedged adbd): the
   * adb server keeps the host's request waiting for its OKAY.
   */
  unanswered?: RegExp;
  /** Opening a matching service kills the whole TCP connection, like a cable pulled mid-call. */
  drop?: RegExp;
  /**
   * Matching services are accepted, and then the whole TCP connection dies before they answer (a cable
   * pulled while the command runs): the adb server flushes and closes the host's stream normally.
   */
  cut?: RegExp;
  /**
   * A matching service prints `output` (the start of what it prints: `pm path` before an `am force-stop`
   * that never ran) and then the whole TCP connection dies: the adb server flushes that and closes the
   * host's stream as if the command had ended.
   */
  cutAfter?: { service: RegExp; output: string };
  /** Matching services start only after `ms` (a phone busy or thermally throttled: it answers, slowly). */
  slow?: { service: RegExp; ms: number };
  /**
   * The largest packet payload this adbd takes, sent in its CNXN: 4096 (MAX_PAYLOAD_V1) before
   * Android 7. The adb server then aborts when asked to open a longer service on it
   * (sockets.cpp connect_to_remote: "destination oversized"), dropping every device.
   */
  maxPayload?: number;
}

export interface AdbdOptions {
  banner: { name: string; model: string; device: string };
  /** Returns how to run a service, or undefined to refuse it. */
  resolve(service: string): ServiceRunner | undefined;
  faults?: AdbdFaults;
}

/** What crossed the wire: services opened (each is one round trip through the adb server) and extra requests counted by services. */
export class AdbdStats {
  opened: string[] = [];
  extraRoundTrips = 0;
  /** Each chunk the host wrote to the monkey port, as it arrived. */
  monkeyInput: string[] = [];
  /**
   * Taps monkey injected where the app sees them (not to a dark or locked screen), with the event
   * times it gave them (uptimeMillis when each MotionEvent was made, here performance.now()): what
   * Android's GestureDetector judges a double tap by.
   */
  monkeyTaps: { x: number; y: number; down: number; up: number }[] = [];
  /** Time the emulated device spent running finished services (what a phone's own work would cost). */
  deviceMs = 0;
  get roundTrips(): number {
    return this.opened.length + this.extraRoundTrips;
  }
  reset(): void {
    this.opened = [];
    this.extraRoundTrips = 0;
    this.monkeyInput = [];
    this.monkeyTaps = [];
    this.deviceMs = 0;
  }
}

/** One TCP connection from the adb server. */
class AdbdLink {
  maxData = 4096;
  private checksummed = true;
  private online = false;
  private nextId = 1;
  private readonly streams = new Map<number, DeviceStream>();
  private readonly reader = new PacketReader();

  constructor(
    private readonly socket: net.Socket,
    private readonly adbd: EmulatedAdbd,
  ) {
    socket.setNoDelay(true);
    socket.on('data', (chunk) => {
      let packets: Packet[];
      try {
        packets = this.reader.push(chunk);
      } catch {
        socket.destroy();
        return;
      }
      packets.forEach((p) => this.handle(p));
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      for (const s of this.streams.values()) s.markClosed();
      this.streams.clear();
    });
  }

  send(command: number, arg0: number, arg1: number, data: Buffer): void {
    if (!this.socket.destroyed) this.socket.write(encodePacket(command, arg0, arg1, data, this.checksummed));
  }

  destroy(): void {
    this.socket.destroy();
  }

  private handle(p: Packet): void {
    const faults = this.adbd.faults;
    switch (p.command) {
      case A_CNXN: {
        if (faults.unauthorized || faults.authorizing) return this.sendAuthToken();
        const version = Math.min(p.arg0, VERSION_NO_CHECKSUM);
        this.checksummed = version < VERSION_NO_CHECKSUM;
        this.maxData = Math.min(p.arg1, faults.maxPayload ?? MAX_PAYLOAD);
        this.online = true;
        const { name, model, device } = this.adbd.options.banner;
        this.send(A_CNXN, version, this.maxData, Buffer.from(`device::ro.product.name=${name};ro.product.model=${model};ro.product.device=${device};features=`));
        return;
      }
      case A_AUTH:
        // A signature or public key we never accept: the user "has not confirmed the dialog".
        if (p.arg0 !== 3 && !faults.authorizing) this.sendAuthToken();
        return;
      case A_OPEN:
        if (this.online) this.open(p.arg0, p.data.toString('utf8').replace(/\0$/, ''));
        return;
      case A_OKAY:
        this.streams.get(p.arg1)?.acked();
        return;
      case A_WRTE: {
        const stream = this.streams.get(p.arg1);
        if (!stream) return;
        this.send(A_OKAY, stream.localId, stream.remoteId, Buffer.alloc(0));
        stream.emit('data', Buffer.from(p.data));
        return;
      }
      case A_CLSE: {
        const stream = this.streams.get(p.arg1);
        this.streams.delete(p.arg1);
        stream?.markClosed();
        return;
      }
    }
  }

  private sendAuthToken(): void {
    this.send(A_AUTH, AUTH_TOKEN, 0, randomBytes(20));
  }

  private open(remoteId: number, service: string): void {
    const faults = this.adbd.faults;
    // The end mark the driver echoes after every shell command (android-device.ts text()) is left out of what tests compare.
    this.adbd.stats.opened.push(service.replace(/; echo __mb_end__$/, ''));
    this.adbd.emit('service', service);
    if (faults.drop?.test(service)) return this.destroy();
    if (faults.unanswered?.test(service)) return;
    const runner = faults.refuse?.test(service) ? undefined : this.adbd.options.resolve(service);
    if (!runner) return this.send(A_CLSE, 0, remoteId, Buffer.alloc(0));
    const localId = this.nextId++;
    const stream = new DeviceStream(service, this, localId, remoteId);
    this.streams.set(localId, stream);
    stream.on('close', () => this.streams.delete(localId));
    this.send(A_OKAY, localId, remoteId, Buffer.alloc(0));
    if (faults.stall?.test(service)) return;
    if (faults.cut?.test(service)) return void setTimeout(() => this.destroy(), 20);
    if (faults.cutAfter?.service.test(service)) {
      void stream.write(faults.cutAfter.output).then(() => setTimeout(() => this.destroy(), 20));
      return;
    }
    const started = performance.now();
    const delay = faults.slow?.service.test(service) ? faults.slow.ms : 0;
    // Unref'd: a test that has moved on is not kept alive by a phone still "thinking".
    (delay > 0 ? new Promise((resolve) => setTimeout(resolve, delay).unref()) : Promise.resolve())
      .then(() => runner(stream))
      .then(() => void (this.adbd.stats.deviceMs += performance.now() - started))
      .catch((err: unknown) => stream.write(`${(err as Error).message}\n`).catch(() => undefined))
      .finally(() => stream.close());
  }
}

/**
 * A TCP endpoint that speaks the device side of the ADB transport, so the real adb
 * server can `adb connect` to it. What each service does is up to `options.resolve`.
 */
export class EmulatedAdbd extends EventEmitter {
  readonly stats = new AdbdStats();
  faults: AdbdFaults;
  private server: net.Server | null = null;
  private readonly links = new Set<AdbdLink>();
  port = 0;

  constructor(readonly options: AdbdOptions) {
    super();
    this.faults = options.faults ?? {};
  }

  /** Listens on 127.0.0.1; `port` 0 picks a free one, which stays outside adb's emulator range 5555–5585 in practice. */
  async listen(port = 0): Promise<number> {
    const server = net.createServer((socket) => {
      const link = new AdbdLink(socket, this);
      this.links.add(link);
      socket.on('close', () => this.links.delete(link));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.port = (server.address() as net.AddressInfo).port;
    if (this.port >= 5555 && this.port <= 5585) {
      await this.close();
      return this.listen(0);
    }
    return this.port;
  }

  get serial(): string {
    return `127.0.0.1:${this.port}`;
  }

  /** Kills every open connection (the adb server marks the device offline) but keeps listening. */
  dropConnections(): void {
    for (const link of this.links) link.destroy();
  }

  async close(): Promise<void> {
    this.dropConnections();
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
