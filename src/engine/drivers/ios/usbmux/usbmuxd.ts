/**
 * A client of usbmuxd, the daemon that carries TCP connections to iPhones over USB (and Wi-Fi
 * pairings): the plist protocol of libimobiledevice's usbmuxd (client.c) and Apple's, as go-ios
 * speaks it (ios/usbmuxconnection.go, connect.go, listdevices.go). Each message is a 16-byte
 * little-endian header {length including the header, version 1, message 8 = plist, tag} and an
 * XML plist. After a successful Connect the same socket carries the device port's bytes.
 */
import { connect, type Socket } from 'node:net';

import { parsePlistDict, plistXml, type PlistDict } from './plist-xml.js';

export type UsbmuxdAddress = ({ path: string } | { host: string; port: number }) & { shown: string };

/**
 * Where usbmuxd listens, by go-ios's rules (GetUsbmuxdSocket): USBMUXD_SOCKET_ADDRESS as
 * `unix://path` or `tcp://host:port` (scheme in any case), or without a scheme a path, or host:port
 * when it has a colon; else /var/run/usbmuxd, or 127.0.0.1:27015 on Windows (Apple Mobile Device Service).
 */
export function usbmuxdAddress(setting: string | undefined = process.env.USBMUXD_SOCKET_ADDRESS, platform: NodeJS.Platform = process.platform): UsbmuxdAddress {
  const given = setting?.trim();
  if (!given) return platform === 'win32' ? { host: '127.0.0.1', port: 27015, shown: 'tcp://127.0.0.1:27015' } : { path: '/var/run/usbmuxd', shown: 'unix:///var/run/usbmuxd' };
  const scheme = /^([a-z]+):\/\//i.exec(given)?.[1]?.toLowerCase();
  const rest = scheme ? given.slice(scheme.length + 3) : given;
  if (scheme === 'unix' || (!scheme && !rest.includes(':'))) return { path: rest, shown: `unix://${rest}` };
  const hostPort = /^(.+):(\d{1,5})$/.exec(rest);
  if ((scheme === 'tcp' || !scheme) && hostPort && Number(hostPort[2]) > 0 && Number(hostPort[2]) < 65536) {
    return { host: hostPort[1].replace(/^\[(.*)\]$/, '$1'), port: Number(hostPort[2]), shown: `tcp://${rest}` };
  }
  throw new UsbmuxError('unreachable', `USBMUXD_SOCKET_ADDRESS "${given}" is neither unix://<path> nor tcp://<host>:<port>; fix or unset it`);
}

/**
 * `unreachable`: no usbmuxd at the address; `refused`: nothing listens on that port of the phone
 * (RESULT_CONNREFUSED); `gone`: usbmuxd no longer knows the device id (RESULT_BADDEV: unplugged);
 * `protocol`: an answer of another shape.
 */
export class UsbmuxError extends Error {
  constructor(
    readonly kind: 'unreachable' | 'refused' | 'gone' | 'protocol',
    message: string,
  ) {
    super(message);
    this.name = 'UsbmuxError';
  }
}

/** usbmuxd's result numbers (usbmuxd-proto.h enum usbmuxd_result). */
const RESULT_OK = 0;
const RESULT_BADDEV = 2;
const RESULT_CONNREFUSED = 3;
const RESULT_NAMES: Record<number, string> = { 1: 'bad command', 2: 'bad device', 3: 'connection refused', 6: 'bad version' };

const HEADER_BYTES = 16;
const PLIST_MESSAGE = 8;
/** usbmuxd's own input buffer (client.c CMD_BUF_SIZE); answers beyond a few device lists are not expected either. */
const MAX_MESSAGE_BYTES = 1 << 20;
const ANSWER_MS = 5000;

export interface UsbmuxDevice {
  deviceId: number;
  udid: string;
  /** "USB" or "Network" (a Wi-Fi pairing); absent from older daemons. */
  connectionType?: string;
}

/** One request and its answer on a fresh connection; `keep` leaves the socket open for what follows (Connect). */
async function exchange(address: UsbmuxdAddress, message: Record<string, string | number>, keep: boolean, slow: UsbmuxError, signal?: AbortSignal): Promise<{ answer: PlistDict; socket: Socket; rest: Buffer }> {
  const socket = connect('path' in address ? { path: address.path } : { host: address.host, port: address.port });
  try {
    const payload = Buffer.from(plistXml({ ...message, ClientVersionString: 'mobilebridge', ProgName: 'mobilebridge', kLibUSBMuxVersion: 3 }), 'utf8');
    const header = Buffer.alloc(HEADER_BYTES);
    header.writeUInt32LE(HEADER_BYTES + payload.length, 0);
    header.writeUInt32LE(1, 4);
    header.writeUInt32LE(PLIST_MESSAGE, 8);
    header.writeUInt32LE(1, 12);
    socket.write(Buffer.concat([header, payload]));
    const { body, rest } = await readMessage(socket, address, slow, signal);
    let answer: PlistDict;
    try {
      answer = parsePlistDict(body.toString('utf8'));
    } catch (err) {
      throw new UsbmuxError('protocol', `usbmuxd at ${address.shown} answered ${message.MessageType} with something other than a plist dictionary (${(err as Error).message})`);
    }
    if (!keep) socket.destroy();
    return { answer, socket, rest };
  } catch (err) {
    socket.destroy();
    throw err;
  }
}

/** The payload of the next message, and whatever bytes came after it (a connected port's first data). */
function readMessage(socket: Socket, address: UsbmuxdAddress, slow: UsbmuxError, signal?: AbortSignal): Promise<{ body: Buffer; rest: Buffer }> {
  return new Promise((resolve, reject) => {
    let received = Buffer.alloc(0);
    const finish = (outcome: () => void) => {
      clearTimeout(timer);
      socket.off('data', onData).off('error', onError).off('close', onClose);
      signal?.removeEventListener('abort', onAbort);
      outcome();
    };
    const fail = (err: Error) => finish(() => reject(err));
    const onData = (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (received.length < HEADER_BYTES) return;
      const length = received.readUInt32LE(0);
      if (length < HEADER_BYTES || length > MAX_MESSAGE_BYTES) return fail(new UsbmuxError('protocol', `usbmuxd at ${address.shown} sent a message of ${length} bytes, which is no usbmuxd message`));
      if (received.length < length) return;
      socket.pause();
      finish(() => resolve({ body: received.subarray(HEADER_BYTES, length), rest: received.subarray(length) }));
    };
    const onError = (err: NodeJS.ErrnoException) => {
      const why = err.code === 'ENOENT' || err.code === 'ECONNREFUSED' ? 'nothing listens there' : err.code === 'EACCES' ? 'permission denied' : err.message;
      fail(new UsbmuxError('unreachable', `usbmuxd is not reachable at ${address.shown} (${why})`));
    };
    const onClose = () => fail(new UsbmuxError('unreachable', `usbmuxd at ${address.shown} closed the connection without an answer`));
    const onAbort = () => fail(signal?.reason instanceof Error ? signal.reason : new Error('cancelled'));
    const timer = setTimeout(() => fail(slow), ANSWER_MS);
    if (signal?.aborted) return onAbort();
    socket.on('data', onData).on('error', onError).on('close', onClose);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** The attached devices (ListDevices: {DeviceList: [{DeviceID, Properties: {SerialNumber, ConnectionType, …}}]}). */
export async function listUsbmuxDevices(address: UsbmuxdAddress, signal?: AbortSignal): Promise<UsbmuxDevice[]> {
  const slow = new UsbmuxError('unreachable', `usbmuxd at ${address.shown} did not answer ListDevices within ${ANSWER_MS} ms`);
  const { answer } = await exchange(address, { MessageType: 'ListDevices' }, false, slow, signal);
  if (!Array.isArray(answer.DeviceList)) throw new UsbmuxError('protocol', `usbmuxd at ${address.shown} answered ListDevices without a DeviceList`);
  const devices: UsbmuxDevice[] = [];
  for (const entry of answer.DeviceList) {
    const props = typeof entry === 'object' && entry !== null && !Array.isArray(entry) && !Buffer.isBuffer(entry) ? entry.Properties : undefined;
    if (typeof props !== 'object' || props === null || Array.isArray(props) || Buffer.isBuffer(props)) continue;
    const id = (entry as PlistDict).DeviceID ?? props.DeviceID;
    if (typeof id !== 'number' || typeof props.SerialNumber !== 'string') continue;
    devices.push({ deviceId: id, udid: props.SerialNumber, connectionType: typeof props.ConnectionType === 'string' ? props.ConnectionType : undefined });
  }
  return devices;
}

/** UDIDs compared as go-ios prints them and as users type them (case, and the dash of 2018+ models). */
const sameUdid = (a: string, b: string) => a.replace(/-/g, '').toLowerCase() === b.replace(/-/g, '').toLowerCase();

/** The device id usbmuxd gives the phone now (it changes on every plug-in); USB before Wi-Fi, as it is faster. */
export async function findUsbmuxDevice(address: UsbmuxdAddress, udid: string, signal?: AbortSignal): Promise<number | undefined> {
  const matches = (await listUsbmuxDevices(address, signal)).filter((d) => sameUdid(d.udid, udid));
  return (matches.find((d) => d.connectionType === 'USB') ?? matches[0])?.deviceId;
}

/** A socket carrying the bytes of `port` on the device (Connect; PortNumber in network byte order, as usbmuxd reads it). */
export async function connectToDevicePort(address: UsbmuxdAddress, deviceId: number, port: number, signal?: AbortSignal): Promise<Socket> {
  const networkOrder = ((port & 0xff) << 8) | ((port >> 8) & 0xff);
  // usbmuxd answers a Connect once the phone answered the connection: a port that stays silent is the phone's, not usbmuxd's.
  const slow = new UsbmuxError('refused', `port ${port} of the device did not take the connection within ${ANSWER_MS} ms`);
  const { answer, socket, rest } = await exchange(address, { MessageType: 'Connect', DeviceID: deviceId, PortNumber: networkOrder }, true, slow, signal);
  const result = answer.MessageType === 'Result' ? answer.Number : undefined;
  if (result === RESULT_OK) {
    if (rest.length) socket.unshift(rest);
    return socket;
  }
  socket.destroy();
  if (result === RESULT_CONNREFUSED) throw new UsbmuxError('refused', `nothing listens on port ${port} of the device (usbmuxd refused the connection)`);
  if (result === RESULT_BADDEV) throw new UsbmuxError('gone', `usbmuxd no longer knows device ${deviceId} (unplugged)`);
  const what = typeof result === 'number' ? `result ${result}${RESULT_NAMES[result] ? ` (${RESULT_NAMES[result]})` : ''}` : `a ${String(answer.MessageType ?? 'nameless')} message`;
  throw new UsbmuxError('protocol', `usbmuxd at ${address.shown} answered Connect to port ${port} with ${what}`);
}
