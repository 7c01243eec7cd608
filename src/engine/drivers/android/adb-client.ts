import type { Socket } from 'node:net';
import type { Readable } from 'node:stream';
import { createRequire } from 'node:module';
import type adbkit from '@devicefarmer/adbkit';
import { untilAborted } from '../../deadline.js';
import { ToolError } from '../../errors.js';
import type { AdbAddress } from './adb-address.js';
import { singleServerStart } from './adb-server-start.js';

export type AdbClient = ReturnType<typeof adbkit.Adb.createClient>;
export type AdbDeviceClient = ReturnType<AdbClient['getDevice']>;
/** adbkit's connection to the adb server (socket and reply parser). */
export type Connection = Awaited<ReturnType<AdbDeviceClient['transport']>>;

/** What running a command needs of a device: a connection to the adb server switched to it. */
export interface TransportSource {
  transport(): PromiseLike<Connection>;
  /** A new connection, never one opened ahead of time: for asking again after such a one was refused. */
  fresh?(): PromiseLike<Connection>;
  /** Whether `connection` was opened ahead of time (spare-transport.ts). */
  isSpare?(connection: Connection): boolean;
}

/**
 * adbkit runs `<bin> start-server` on each refused connection; a path that does not exist turns
 * that into a plain refusal, and the start, when wanted, is ours (adb-server-start.ts).
 */
const NO_SERVER_START = '/nonexistent/mobilebridge-does-not-start-adb';

/** `startServer`: the adb binary that starts a local server when none answers (the CLI's "adb"). */
export function createAdbClient(address: AdbAddress, startServer: string | undefined): AdbClient {
  // Required when the first client is made, not at import: adbkit costs ~110 ms to load, which
  // every command paid even when it drove only virtual phones. CommonJS, hence require.
  const { Adb } = createRequire(import.meta.url)('@devicefarmer/adbkit') as typeof adbkit;
  const client = Adb.createClient({ host: address.host, port: address.port, bin: NO_SERVER_START });
  if (startServer === undefined) return client;
  const start = singleServerStart(startServer, address);
  const connect = client.connection.bind(client);
  const connection = async () => {
    try {
      return await connect();
    } catch (err) {
      if (!refusedHere(err)) throw err;
      // A start that failed because another program started a server at that moment still leaves one up.
      let startError: unknown;
      await start().catch((e: unknown) => (startError = e));
      try {
        return await connect();
      } catch (again) {
        throw startError ?? again;
      }
    }
  };
  client.connection = connection as unknown as AdbClient['connection'];
  return client;
}

/** adbkit's refusal once it tried (and failed) to run NO_SERVER_START. */
function refusedHere(err: unknown): boolean {
  const e = err as NodeJS.ErrnoException | undefined;
  return e?.code === 'ECONNREFUSED' || (e?.code === 'ENOENT' && String(e.message).includes(NO_SERVER_START));
}

export function serverUnreachable(address: AdbAddress, err: unknown): ToolError {
  let why = err instanceof Error ? err.message : String(err);
  // adbkit reports its failed `<bin> start-server` rather than the refusal that led to it.
  if (why.includes(NO_SERVER_START)) why = 'nothing listens there';
  else if (/spawn adb ENOENT/.test(why)) why = 'nothing listens there, and no `adb` on PATH could start a server: install Android platform-tools (Debian: apt-get install adb)';
  else if (/start-server/.test(why)) why = startFailure(why);
  return new ToolError(
    'DEVICE_NOT_FOUND',
    `the adb server at ${address.host}:${address.port} (from ${address.source}) is not reachable (${why}); start it with "adb start-server", or point mobilebridge at another one with --adb host:port`,
  );
}

/**
 * A failed `adb start-server` prints its whole start-up log; what matters is its fatal lines
 * ("adb F … main.cpp:144] could not install *smartsocket* listener: Address already in use").
 */
function startFailure(output: string): string {
  const fatal = [...output.matchAll(/^adb F [^\]]*\] (.+)$/gm)].map((m) => m[1].trim());
  const errors = [...output.matchAll(/^error: (.+)$/gm)].map((m) => m[1].trim());
  const said = [...new Set([...fatal, ...errors])];
  return `nothing listens there, and \`adb start-server\` failed${said.length ? `: ${said.join('; ')}` : ''}`;
}

const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ETIMEDOUT', 'EAI_AGAIN']);

/** No adb server answered at that address (nothing listens, the host is unreachable): the server, not a device. */
export function noServerThere(err: unknown): boolean {
  const code = (err as { code?: string } | undefined)?.code;
  return (code !== undefined && CONNECTION_CODES.has(code)) || refusedHere(err);
}

/** Turns what adbkit and the adb server report into SPEC §2 codes with advice. */
export function mapAdbError(err: unknown, serial: string, address: AdbAddress, what: string): ToolError {
  if (err instanceof ToolError) return err;
  const code = (err as { code?: string }).code;
  if (noServerThere(err)) return serverUnreachable(address, err);
  const message = err instanceof Error ? err.message : String(err);
  if (/unauthorized/i.test(message)) return unauthorizedError(serial);
  // transport.cpp acquire_one_transport: "device still authorizing" / "device still connecting".
  if (/still authorizing/i.test(message)) return authorizingError(serial);
  if (/still connecting/i.test(message)) return connectingError(serial);
  // diagnose_usb.cpp UsbNoPermissionsLongHelpText, for a USB device adb may not open.
  if (/insufficient permissions for device/i.test(message)) return new ToolError('PERMISSION_DENIED', `device ${serial}: ${NO_USB_PERMISSION}`);
  if (/offline/i.test(message)) return offlineError(serial);
  // transport.cpp acquire_one_transport: two transports answer to the serial ("more than one device with serial X"
  // from Android 14's adb, "more than one device" before), e.g. two phones shipped with the same 0123456789ABCDEF.
  if (/more than one device/i.test(message)) {
    return new ToolError('UNSUPPORTED', `two devices connected to the adb server at ${address.host}:${address.port} answer to the serial ${serial}, so adb cannot tell which one ${what} is for; unplug one, or connect one over Wi-Fi (adb tcpip 5555, then adb connect <its ip>) so that it gets a serial of its own`);
  }
  if (/not found|no devices/i.test(message)) {
    return new ToolError('DEVICE_NOT_FOUND', `device ${serial} is not connected to the adb server at ${address.host}:${address.port}; check the cable or "adb connect", then list devices again`);
  }
  // sockets.cpp local_socket_close_notify: the device answered the OPEN with CLSE (a service it does not offer:
  // exec: before Android 5, a tcp: port nothing listens on) and the server says FAIL "closed". The device is
  // still there; guard() asks the server, so a device that went away is still reported as gone.
  if (/Failure: 'closed'/.test(message)) {
    return new ToolError('INTERNAL', `${serial} refused ${what}: adb answered "closed", as a device does at once for a service it does not offer (exec: before Android 5, a port nothing listens on)`);
  }
  if (/premature|ECONNRESET|EPIPE|closed/i.test(message) || code === 'ECONNRESET' || code === 'EPIPE') {
    return new ToolError('DEVICE_NOT_FOUND', `the connection to ${serial} was lost during ${what} (${message}); check that the device is still connected`);
  }
  return new ToolError('INTERNAL', `${what} on ${serial} failed: ${message}`);
}

export const UNAUTHORIZED_ADVICE =
  'unlock the device and accept the "Allow USB debugging?" dialog (tick "Always allow from this computer"); if no dialog shows, revoke USB debugging authorizations in Developer options and reconnect';
export const OFFLINE_ADVICE = 'reconnect the cable, or run "adb reconnect" (for network devices "adb disconnect" then "adb connect"); restarting adbd on the device also helps';

export function unauthorizedError(serial: string): ToolError {
  return new ToolError('PERMISSION_DENIED', `device ${serial} has not authorized this computer: ${UNAUTHORIZED_ADVICE}`);
}

/*
 * `authorizing`: the host has signed the device's token with its key and waits for the device's verdict
 * (adb's kCsAuthorizing); it becomes `device`, or `unauthorized` once the device shows its dialog.
 * Staying there means the device does not answer. `connecting`: the transport is up, the handshake is not.
 */
export const AUTHORIZING_ADVICE =
  'adb is still waiting for the device to accept this computer\'s key: unlock it and accept the "Allow USB debugging?" dialog if one shows; if it stays authorizing, replug it or run "adb reconnect"';
export const CONNECTING_ADVICE = 'adb is still connecting to it (the device has not finished the adb handshake): wait a few seconds; if it stays connecting, replug it or run "adb reconnect"';

export const NO_USB_PERMISSION = 'no permission to open the USB device: add a udev rule for it (see developer.android.com/studio/run/device) and replug';

export function authorizingError(serial: string): ToolError {
  return new ToolError('PERMISSION_DENIED', `device ${serial} is not authorized yet: ${AUTHORIZING_ADVICE}`);
}

export function connectingError(serial: string): ToolError {
  return new ToolError('DEVICE_NOT_FOUND', `device ${serial} is not connected yet: ${CONNECTING_ADVICE}`);
}

/**
 * adb's reason in a refusal, as adbkit wraps a FAIL ("Failure: 'device offline'"), its first line
 * ("device unauthorized.\n…" is one line of reason and a hint), or "gone" when it says nothing.
 */
export function adbRefusal(refusal: unknown): string {
  const message = refusal instanceof Error ? refusal.message : String(refusal);
  return message.replace(/^Failure: '([\s\S]*)'$/, '$1').split('\n')[0] || 'gone';
}

export function offlineError(serial: string): ToolError {
  return new ToolError('DEVICE_NOT_FOUND', `device ${serial} is offline: ${OFFLINE_ADVICE}`);
}

function encodeService(service: string): Buffer {
  const body = Buffer.from(service, 'utf8');
  return Buffer.concat([Buffer.from(body.length.toString(16).padStart(4, '0'), 'ascii'), body]);
}

/**
 * Runs `command` through the device's `exec:` service: raw bytes (no PTY, so binary output such as
 * screencap survives) and stderr interleaved as the device shell writes it. One adb round trip.
 * Aborting the signal closes the socket, so a stalled device never holds the caller. `input`, when
 * given, is fed to the command's stdin, as adb streams an APK into `pm install-write … -`
 * (adb/client/adb_install.cpp).
 */
export async function execOnDevice(device: TransportSource, command: string, signal: AbortSignal, input?: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  await execStreaming(device, command, signal, (chunk) => void chunks.push(chunk), input);
  return Buffer.concat(chunks);
}

/**
 * `execOnDevice` handing each chunk of output to `sink` as it arrives, for output too large to
 * hold twice (a raw screen is scaled while the rest is still on the wire). A sink that throws
 * ends the command with that error.
 */
export async function execStreaming(device: TransportSource, command: string, signal: AbortSignal, sink: (chunk: Buffer) => void, input?: Readable): Promise<void> {
  const transport = await openAccepted(device, `exec:${command}`, signal);
  const onAbort = () => transport.socket.destroy();
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    if (signal.aborted) throw signal.reason;
    if (input) feed(input, transport.socket);
    await readToEnd(transport.socket, sink);
    if (signal.aborted) throw signal.reason;
  } catch (err) {
    if (signal.aborted) throw signal.reason;
    throw err;
  } finally {
    signal.removeEventListener('abort', onAbort);
    if (input) {
      input.unpipe(transport.socket);
      input.destroy();
    }
    transport.end();
  }
}

/**
 * A device service (`shell:…`, `localabstract:…`, `tcp:…`, `sync:`) opened and accepted, as a stream
 * the caller owns from then on. adbkit's own `shell`/`openLocal`/`openTcp`/`push` take no signal: a
 * wedged adbd that never answers the OPEN left them, and whoever waited on them (a scrcpy start,
 * a device's close), pending for ever.
 */
export async function openDeviceStream(device: TransportSource, service: string, signal: AbortSignal): Promise<Socket> {
  return (await openAccepted(device, service, signal)).socket;
}

/**
 * The longest service (`exec:<command>`, …) sent to a device. adbd before Android 7 takes at most
 * 4 KiB in the OPEN packet that carries it (MAX_PAYLOAD_V1, NUL included), and the adb server does
 * not refuse a longer one: it aborts ("destination oversized"), and every device loses its connection.
 */
export const MAX_SERVICE_BYTES = 4095;

/** A transport with `service` asked for and accepted (OKAY); every wait before that ends with the signal. */
async function openAccepted(device: TransportSource, service: string, signal: AbortSignal): Promise<Connection> {
  const bytes = Buffer.byteLength(service);
  if (bytes > MAX_SERVICE_BYTES) {
    throw new ToolError('INVALID_PARAMETER', `a device command of ${bytes} bytes was not sent: adb carries at most ${MAX_SERVICE_BYTES} to Android 6 and older, and its server stops (dropping every device) when asked for more; use a shorter value (a long URL, path or name)`);
  }
  let transport = await connectUntil(signal, () => device.transport());
  const onAbort = () => transport.socket.destroy();
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    // adbkit's parser waits for 'end', which a destroyed socket never emits: the signal ends each
    // wait (a wedged adbd never answers the server's OPEN, and the server then never answers us).
    let reply = await untilAborted(signal, Promise.resolve(request(transport, service)));
    if (reply === 'FAIL' && device.fresh && device.isSpare?.(transport)) {
      // Refused on a connection opened ahead of time: ask again on a new one, whose answer counts.
      // Destroyed, not ended: its unread error text would keep an ended socket open.
      transport.socket.destroy();
      const source = device as Required<TransportSource>;
      transport = await connectUntil(signal, () => source.fresh());
      reply = await untilAborted(signal, Promise.resolve(request(transport, service)));
    }
    if (reply === 'FAIL') await untilAborted(signal, Promise.resolve(transport.parser.readError()));
    if (reply !== 'OKAY') throw new Error(`unexpected adb reply ${JSON.stringify(reply)}`);
    return transport;
  } catch (err) {
    transport.socket.destroy();
    if (signal.aborted) throw signal.reason;
    throw err;
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

/**
 * A connection, or the signal's reason as soon as it aborts. Connecting cannot be cut short from
 * here (adbkit keeps the socket until it connects): one that arrives after the caller gave up is closed.
 */
async function connectUntil(signal: AbortSignal, open: () => PromiseLike<Connection>): Promise<Connection> {
  if (signal.aborted) throw signal.reason;
  const connecting = Promise.resolve(open());
  return untilAborted(signal, connecting).catch((err: unknown) => {
    if (signal.aborted) void connecting.then((late) => late.socket.destroy(), () => undefined);
    throw err;
  });
}

/**
 * Pipes `input` into the command's stdin without ever half-closing it: adb cannot carry a
 * half-close, so the device's command reads exactly the byte count it was told and answers. The
 * device may answer (an error) before taking every byte: its answer is what counts, so a failed
 * read of the input only ends the connection.
 */
function feed(input: Readable, socket: Socket): void {
  const fed = new Promise<void>((resolve, reject) => {
    input.once('error', reject);
    input.once('end', resolve);
    input.pipe(socket, { end: false });
  });
  fed.catch(() => socket.destroy());
}

/**
 * A new connection to the adb server with `service` asked for and accepted (OKAY), closed when
 * `signal` aborts: a server that accepts connections and never answers (wedged, or not adb at all)
 * neither holds the caller nor keeps a socket open for ever, one per retry.
 */
async function openService(client: AdbClient, service: string, signal: AbortSignal): Promise<Connection> {
  const transport = await connectUntil(signal, () => client.connection());
  const onAbort = () => transport.socket.destroy();
  signal.addEventListener('abort', onAbort, { once: true });
  transport.socket.once('close', () => signal.removeEventListener('abort', onAbort));
  try {
    // adbkit's parser waits for 'end', which a destroyed socket never emits: the signal ends the wait.
    const reply = await untilAborted(signal, Promise.resolve(request(transport, service)));
    if (reply === 'FAIL') await untilAborted(signal, Promise.resolve(transport.parser.readError()));
    if (reply !== 'OKAY') throw new Error(`unexpected adb reply ${JSON.stringify(reply)}, was expecting OKAY or FAIL`);
    return transport;
  } catch (err) {
    transport.socket.destroy();
    if (signal.aborted) throw signal.reason;
    throw err;
  }
}

/** An adb server device entry (`host:devices`): serial and state such as device, offline, unauthorized. */
export interface AdbEntry {
  id: string;
  type: string;
}

/** The adb server's device list (`host:devices`), given up (socket closed) when `signal` aborts. */
export async function listHostDevices(client: AdbClient, signal: AbortSignal): Promise<AdbEntry[]> {
  const transport = await openService(client, 'host:devices', signal);
  try {
    const value = await untilAborted(signal, Promise.resolve(transport.parser.readValue()));
    return value
      .toString('ascii')
      .split('\n')
      .filter(Boolean)
      .map((line: string) => {
        const [id, type] = line.split('\t');
        return { id, type };
      });
  } catch (err) {
    if (signal.aborted) throw signal.reason;
    throw err;
  } finally {
    // Destroyed, not ended: the server closes its end after the list, and an EOF nobody reads
    // kept an ended socket open (CLOSE_WAIT) for every listing, for the life of the process.
    transport.socket.destroy();
  }
}

/**
 * The adb server's hot-plug feed (`host:track-devices`): resolves once the server accepted it;
 * `onUpdate` then runs for every update the server sends (the first is the current list) and
 * `onEnd` once when the feed ends. The socket never keeps a process (a CLI call, a test) alive, and
 * aborting `signal` closes it, also while the server has not answered yet.
 */
export async function trackHostDevices(client: AdbClient, signal: AbortSignal, onUpdate: () => void, onEnd: () => void): Promise<void> {
  const transport = await openService(client, 'host:track-devices', signal);
  const socket = transport.socket;
  socket.unref();
  // The updates themselves are not parsed: a listener lists the devices again on each.
  socket.on('data', () => onUpdate());
  socket.on('error', () => undefined);
  socket.once('close', () => onEnd());
}

/** Sends one service request; the server's 4-byte answer. */
function request(transport: Connection, service: string): PromiseLike<string> {
  transport.on('error', () => undefined);
  transport.write(encodeService(service));
  return transport.parser.readAscii(4);
}

/** Reads the rest of the stream into `sink`; adbkit's readAll re-concatenates per chunk, quadratic for 10 MB frames. */
function readToEnd(socket: Socket, sink: (chunk: Buffer) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    let failed = false;
    const fail = (err: unknown) => {
      if (failed) return;
      failed = true;
      socket.off('readable', drain);
      socket.destroy();
      reject(err);
    };
    const drain = () => {
      try {
        for (let c: Buffer | null; !failed && (c = socket.read() as Buffer | null) !== null; ) sink(c);
      } catch (err) {
        fail(err);
      }
    };
    const finish = () => {
      drain();
      socket.off('readable', drain);
      if (!failed) resolve();
    };
    socket.on('readable', drain);
    socket.once('error', fail);
    // A socket destroyed on abort only closes (no 'end'); the caller then sees its signal's reason.
    socket.once('close', finish);
    if (socket.readableEnded) finish();
    else socket.once('end', finish);
    drain();
  });
}

/** Single-quotes an argument for the device's /system/bin/sh. */
export function shellQuote(arg: string | number): string {
  if (typeof arg === 'number') return String(arg);
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(arg)) return arg;
  return "'" + arg.replaceAll("'", "'\\''") + "'";
}
