import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { parsePlistDict, type PlistDict } from '../../../src/engine/drivers/ios/usbmux/plist-xml.js';
import type { FakePhone } from './fake-tools-config.js';

/*
 * usbmuxd on a unix socket, as libimobiledevice's usbmuxd (src/client.c) answers its plist protocol:
 * a 16-byte little-endian header {length, version, message, tag} and an XML plist. A header version
 * other than 0/1 gets Result 6 (BADVERSION); a plist without MessageType closes the connection;
 * ListDevices → {DeviceList: [{DeviceID, MessageType: Attached, Properties: {ConnectionSpeed,
 * ConnectionType, DeviceID, LocationID, ProductID, SerialNumber}}]}; Connect without DeviceID → 2
 * (BADDEV), without PortNumber → 1 (BADCOMMAND), to an unknown device → 2, to a port nothing
 * listens on → 3 (CONNREFUSED), else 0 and from then on the socket carries the port's bytes; any
 * other MessageType → 1. A device gets a new id at every plug-in (device.c), and unplugging it
 * closes the connections it carried. Apple's usbmuxd also lists a Wi-Fi pairing, as ConnectionType
 * "Network" with a NetworkAddress (data).
 *
 * The phone's ports: 8100 is its emulated WebDriverAgent, 9100 WDA's MJPEG server.
 */

const HEADER = 16;
const MAX_MESSAGE = 0x10000; // client.c CMD_BUF_SIZE: a longer message closes the connection

function plistOf(dict: Record<string, unknown>): string {
  const value = (v: unknown): string => {
    if (typeof v === 'number') return `<integer>${v}</integer>`;
    if (typeof v === 'string') return `<string>${v.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</string>`;
    if (Buffer.isBuffer(v)) return `<data>${v.toString('base64')}</data>`;
    if (Array.isArray(v)) return v.length ? `<array>\n${v.map(value).join('\n')}\n</array>` : '<array/>';
    return `<dict>\n${Object.entries(v as Record<string, unknown>).map(([k, x]) => `<key>${k}</key>\n${value(x)}`).join('\n')}\n</dict>`;
  };
  // libplist's plist_to_xml layout: declaration, doctype, tab-indented elements.
  return `<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n<plist version="1.0">\n${value(dict)}\n</plist>\n`;
}

export class EmulatedUsbmuxd {
  private server: Server | undefined;
  private readonly dir = mkdtempSync(join(tmpdir(), 'mb-usbmuxd-'));
  readonly path = join(this.dir, 'usbmuxd');
  /** usbmuxd numbers devices as they attach; a plug-in (udid, plug count, link) keeps its id. */
  private readonly ids = new Map<string, number>();
  private nextId = 1;
  private readonly carried = new Map<Socket, string>();
  private readonly clients = new Set<Socket>();
  /** Every Connect answered, as "<udid or ?>:<port> → <result>". */
  readonly connects: string[] = [];

  constructor(private readonly phones: () => FakePhone[]) {}

  /** The value for USBMUXD_SOCKET_ADDRESS. */
  get address(): string {
    return `unix://${this.path}`;
  }

  async start(): Promise<void> {
    this.server = createServer((client) => this.serve(client));
    await new Promise<void>((resolve) => this.server!.listen(this.path, () => resolve()));
  }

  async stop(): Promise<void> {
    for (const socket of [...this.clients, ...this.carried.keys()]) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** The phone was unplugged: the connections usbmuxd carried to it close (device_remove). */
  unplugged(udid: string): void {
    for (const [socket, owner] of this.carried) if (owner === udid) socket.destroy();
  }

  private entries(): { id: number; phone: FakePhone; link: 'USB' | 'Network' }[] {
    const out: { id: number; phone: FakePhone; link: 'USB' | 'Network' }[] = [];
    for (const phone of this.phones()) {
      if (phone.unplugged) continue;
      for (const link of phone.wifi ? (['USB', 'Network'] as const) : (['USB'] as const)) {
        const key = `${phone.udid}/${phone.plugged ?? 0}/${link}`;
        if (!this.ids.has(key)) this.ids.set(key, this.nextId++);
        out.push({ id: this.ids.get(key)!, phone, link });
      }
    }
    return out;
  }

  private serve(client: Socket): void {
    this.clients.add(client);
    client.on('close', () => this.clients.delete(client));
    client.on('error', () => client.destroy());
    let buffered = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      while (buffered.length >= HEADER) {
        const length = buffered.readUInt32LE(0);
        if (length < HEADER || length > MAX_MESSAGE) return void client.destroy();
        if (buffered.length < length) return;
        const message = buffered.subarray(0, length);
        buffered = buffered.subarray(length);
        if (this.command(client, message, onData) === 'connected') return;
      }
    };
    client.on('data', onData);
  }

  private reply(client: Socket, tag: number, dict: Record<string, unknown>): void {
    const payload = Buffer.from(plistOf(dict), 'utf8');
    const header = Buffer.alloc(HEADER);
    header.writeUInt32LE(HEADER + payload.length, 0);
    header.writeUInt32LE(1, 4);
    header.writeUInt32LE(8, 8);
    header.writeUInt32LE(tag, 12);
    client.write(Buffer.concat([header, payload]));
  }

  private command(client: Socket, message: Buffer, onData: (b: Buffer) => void): 'connected' | void {
    const version = message.readUInt32LE(4);
    const tag = message.readUInt32LE(12);
    const result = (n: number) => this.reply(client, tag, { MessageType: 'Result', Number: n });
    if (version !== 0 && version !== 1) return result(6);
    if (message.readUInt32LE(8) !== 8) return result(1);
    let dict: PlistDict;
    try {
      dict = parsePlistDict(message.subarray(HEADER).toString('utf8'));
    } catch {
      return void client.destroy();
    }
    if (typeof dict.MessageType !== 'string') return void client.destroy();
    if (dict.MessageType === 'ListDevices') {
      const list = this.entries().map(({ id, phone, link }) => ({
        DeviceID: id,
        MessageType: 'Attached',
        Properties:
          link === 'USB'
            ? { ConnectionSpeed: 480000000, ConnectionType: 'USB', DeviceID: id, LocationID: 0x14100000 + id, ProductID: 0x12a8, SerialNumber: phone.udid }
            : { ConnectionType: 'Network', DeviceID: id, InterfaceIndex: 15, NetworkAddress: Buffer.from([0x10, 0x02, 0, 0, 192, 168, 1, 23, 0, 0, 0, 0, 0, 0, 0, 0]), SerialNumber: phone.udid },
      }));
      return this.reply(client, tag, { DeviceList: list });
    }
    if (dict.MessageType !== 'Connect') return result(1);
    if (typeof dict.DeviceID !== 'number') return result(2);
    if (typeof dict.PortNumber !== 'number') return result(1);
    const port = ((dict.PortNumber & 0xff) << 8) | ((dict.PortNumber >> 8) & 0xff);
    const entry = this.entries().find((e) => e.id === dict.DeviceID);
    const answered = (n: number) => {
      this.connects.push(`${entry?.phone.udid ?? '?'}:${port} → ${n}`);
      result(n);
    };
    if (!entry) return answered(2);
    const target = port === 8100 ? Number(new URL(entry.phone.wda.url).port) : port === 9100 ? entry.phone.wda.mjpeg.portNumber : undefined;
    if (target === undefined) return answered(3);
    client.off('data', onData);
    client.pause();
    const upstream = connect(target, '127.0.0.1');
    upstream.once('error', () => {
      answered(3);
      client.on('data', onData);
      client.resume();
    });
    upstream.once('connect', () => {
      upstream.removeAllListeners('error');
      answered(0);
      this.carried.set(client, entry.phone.udid);
      client.on('close', () => {
        this.carried.delete(client);
        upstream.destroy();
      });
      upstream.on('error', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
      client.pipe(upstream);
      upstream.pipe(client);
      client.resume();
    });
    return 'connected';
  }
}
