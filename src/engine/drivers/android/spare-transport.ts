/**
 * Every adb command is a new connection to the adb server: connect, `host:transport:<serial>`,
 * then the service. The first two do not involve the device, so they can happen before the next
 * command is asked for: after each command one connection is opened and switched to the device,
 * and the next command starts at its service request (about half of a short command's round
 * trip on loopback, measured 0.64 → 0.35 ms).
 *
 * A spare that the server closed meanwhile (device unplugged, server restarted) is noticed by its
 * `close` and not used. One that the server refuses a service on (`FAIL`: the device went away
 * or offline while it waited) is retried once on a new connection by the caller (`fresh`), which
 * then reports the server's own answer; the device never ran anything on a refused request.
 */
import type { Connection, TransportSource } from './adb-client.js';

interface Spare {
  connection: Connection;
  dead: boolean;
}

export class SpareTransport implements TransportSource {
  private next: Promise<Spare | undefined> | undefined;
  private readonly spares = new WeakSet<Connection>();
  private closed = false;

  constructor(private readonly device: { transport(): PromiseLike<Connection> }) {}

  /** The spare when it is alive (waiting for it if it is still opening), else a new connection. */
  async transport(): Promise<Connection> {
    const pending = this.next;
    this.next = undefined;
    const spare = pending && (await pending);
    const connection = spare && !spare.dead ? spare.connection : undefined;
    if (connection) connection.socket.ref();
    else spare?.connection.end();
    return this.handOut(connection ?? (await this.device.transport()));
  }

  fresh(): Promise<Connection> {
    return Promise.resolve(this.device.transport()).then((c) => this.handOut(c));
  }

  isSpare(connection: Connection): boolean {
    return this.spares.has(connection);
  }

  /** Ends the spare; later commands open their own connections. */
  close(): void {
    this.closed = true;
    const pending = this.next;
    this.next = undefined;
    void pending?.then((spare) => spare?.connection.end());
  }

  /** When the command on `connection` is over, the next one's connection is opened. */
  private handOut(connection: Connection): Connection {
    connection.socket.once('close', () => this.prepare());
    return connection;
  }

  private prepare(): void {
    if (this.closed || this.next) return;
    this.next = Promise.resolve(this.device.transport()).then(
      (connection) => {
        const spare: Spare = { connection, dead: false };
        this.spares.add(connection);
        // An idle spare must not keep the process alive, nor crash it with an unheard error.
        connection.socket.unref();
        connection.on('error', () => (spare.dead = true));
        connection.socket.once('close', () => (spare.dead = true));
        connection.socket.once('end', () => (spare.dead = true));
        if (this.closed) connection.end();
        return spare;
      },
      // The device is gone or refused: the next command opens its own connection and reports why.
      () => undefined,
    );
  }
}
