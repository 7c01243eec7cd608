/**
 * A port on 127.0.0.1 whose connections are carried by usbmuxd to one port of an iPhone (its
 * WebDriverAgent, or WDA's MJPEG server). It does what `ios forward` did, except that go-ios listens
 * on 0.0.0.0 (ios/forward/forward.go), which let anyone on the network drive the phone through it.
 * Like a go-ios forward it stays with the usbmuxd device id it was opened for: a replugged phone
 * gets a new id, and the driver opens a new relay then.
 */
import { createServer, type Server, type Socket } from 'node:net';

import { connectToDevicePort, UsbmuxError, type UsbmuxdAddress } from './usbmuxd.js';

export class DeviceRelay {
  private readonly open = new Set<Socket>();
  /** Why the last connection through it failed, until one succeeds again. */
  failure: UsbmuxError | undefined;
  /** usbmuxd said the device id is gone: every later connection is dropped at once. */
  gone = false;

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async open(address: UsbmuxdAddress, deviceId: number, devicePort: number): Promise<DeviceRelay> {
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const relay = new DeviceRelay(server, (server.address() as { port: number }).port);
    server.on('connection', (client) => relay.carry(client, address, deviceId, devicePort));
    // An accept that fails (out of file descriptors) must not take the process down: the connection is just not made.
    server.on('error', (err) => (relay.failure = new UsbmuxError('protocol', `the relay on 127.0.0.1:${relay.port} failed: ${err.message}`)));
    return relay;
  }

  private carry(client: Socket, address: UsbmuxdAddress, deviceId: number, devicePort: number): void {
    if (this.gone) return void client.destroy();
    this.open.add(client);
    client.on('close', () => this.open.delete(client));
    // Bytes the client sends before the device answers wait in the socket until it is piped.
    client.pause();
    client.on('error', () => client.destroy());
    connectToDevicePort(address, deviceId, devicePort).then(
      (device) => {
        this.failure = undefined;
        if (client.destroyed) return void device.destroy();
        this.open.add(device);
        device.on('close', () => {
          this.open.delete(device);
          client.destroy();
        });
        device.on('error', () => device.destroy());
        client.on('close', () => device.destroy());
        client.pipe(device);
        device.pipe(client);
        device.resume();
        client.resume();
      },
      (err: unknown) => {
        this.failure = err instanceof UsbmuxError ? err : new UsbmuxError('protocol', String(err));
        if (this.failure.kind === 'gone') this.gone = true;
        client.destroy();
      },
    );
  }

  close(): void {
    this.server.close();
    for (const socket of this.open) socket.destroy();
    this.open.clear();
  }
}
