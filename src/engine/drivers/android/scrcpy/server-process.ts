import type { Duplex } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { ScrcpyCodecOptions, ScrcpyInstanceId, ScrcpyOptions3_3_1 } from '@yume-chan/scrcpy';
import { ToolError } from '../../../errors.js';
import { timeoutSignal } from '../../../deadline.js';
import { openDeviceStream, type AdbDeviceClient } from '../adb-client.js';
import { pushBytes } from '../sync-push.js';
import { disconnectedError, disconnection } from './device-state.js';
import { leftoverJarSweep, removeJar } from './leftover-jars.js';
import { deviceJarPath, SCRCPY_VERSION } from './server-jar.js';
import { ServerLog } from './server-log.js';

export interface ScrcpyLaunchOptions {
  maxSize: number;
  maxFps: number;
  /**
   * Whole seconds between key frames: bounds what a late joiner must decode (SurfaceEncoder's default is 10).
   * Sent rounded: 3.3.1's CodecOption parses an option without a type as an int, and "0.5" stops the server.
   */
  keyFrameInterval: number;
  /** How long the server may take to bind its socket before starting counts as failed. */
  bindTimeoutMs: number;
  /** The verified jar's bytes (throws the reason when it is missing or altered). */
  serverJar: () => Buffer;
  /** Aborted when the launch is no longer wanted (the device is closing): every wait on the device ends. */
  signal?: AbortSignal;
}

/** A started scrcpy-server: its shell stream (the process's stdout/stderr) and its two sockets, opened in the server's accept order. */
export interface LaunchedServer {
  options: ScrcpyOptions3_3_1<true>;
  socketName: string;
  shell: Duplex;
  video: Duplex;
  control: Duplex;
  log: ServerLog;
}

const OPEN_RETRY_MS = 50;
/** The jar is ~90 KB: a push that takes this long is a device that stopped answering. */
const PUSH_TIMEOUT_MS = 15_000;

/**
 * Pushes the verified jar, runs `app_process … com.genymobile.scrcpy.Server 3.3.1` through adbkit's shell
 * (after the sweep of older launches' leftover jars, in the same line), then opens
 * `localabstract:scrcpy_<scid>` twice: video, then control (DesktopConnection's accept order; audio is
 * off). Every failure is a ToolError whose message is the reason a viewer is shown, and deletes our jar.
 */
export async function launchScrcpyServer(device: AdbDeviceClient, serial: string, launch: ScrcpyLaunchOptions): Promise<LaunchedServer> {
  const jar = launch.serverJar();
  // A number as scid would serialize in decimal, but the server parses hex: use the library's id type.
  const scid = ScrcpyInstanceId.random();
  const socketName = `scrcpy_${scid.value.toString(16).padStart(8, '0')}`;
  const jarPath = deviceJarPath(socketName);
  const wanted = launch.signal ?? new AbortController().signal;
  await pushJar(device, serial, jar, jarPath, wanted);
  const options = new ScrcpyOptions3_3_1<true>({
    scid,
    tunnelForward: true,
    audio: false,
    maxSize: launch.maxSize,
    maxFps: launch.maxFps,
    sendDummyByte: false,
    // The only way to learn that the server ignored a touch made for a size the video no longer has
    // (it logs that at VERBOSE); 3.3.1 logs nothing else per frame or per event at this level.
    logLevel: 'verbose',
    videoCodecOptions: new ScrcpyCodecOptions({ iFrameInterval: Math.max(1, Math.round(launch.keyFrameInterval)) }),
  });
  const command = `${leftoverJarSweep()}; CLASSPATH=${jarPath} app_process / com.genymobile.scrcpy.Server ${SCRCPY_VERSION} ${options.serialize().join(' ')}`;
  try {
    return { options, socketName, ...(await startServer(device, serial, command, socketName, launch.bindTimeoutMs, wanted)) };
  } catch (err) {
    await removeJar(device, jarPath);
    throw err;
  }
}

/** Runs the launch line and opens the server's two sockets; the shell stream is closed when that fails. */
async function startServer(device: AdbDeviceClient, serial: string, command: string, socketName: string, bindTimeoutMs: number, wanted: AbortSignal): Promise<Omit<LaunchedServer, 'options' | 'socketName'>> {
  let shell: Duplex;
  try {
    shell = await openDeviceStream(device, `shell:${command}`, AbortSignal.any([wanted, timeoutSignal(bindTimeoutMs)]));
  } catch (err) {
    if (wanted.aborted) throw closing(serial);
    const gone = disconnection(err);
    if (gone) throw disconnectedError(serial, gone, 'before scrcpy-server could be started');
    const why = isTimeout(err) ? `the device did not accept the shell within ${bindTimeoutMs} ms` : (err as Error).message;
    throw new ToolError('INTERNAL', `could not start scrcpy-server on ${serial}: ${why}`);
  }
  const log = new ServerLog(shell);
  try {
    const video = await openSocket(device, serial, socketName, log, Date.now() + bindTimeoutMs, wanted);
    const control = await openSocket(device, serial, socketName, log, Date.now() + bindTimeoutMs, wanted).catch((err: unknown) => {
      video.destroy();
      throw err;
    });
    return { shell, video, control, log };
  } catch (err) {
    shell.destroy();
    throw err;
  }
}

async function pushJar(device: AdbDeviceClient, serial: string, jar: Buffer, path: string, wanted: AbortSignal): Promise<void> {
  try {
    await pushBytes(device, jar, path, 0o644, AbortSignal.any([wanted, timeoutSignal(PUSH_TIMEOUT_MS)]));
  } catch (err) {
    if (wanted.aborted) throw closing(serial);
    if (isTimeout(err)) throw new ToolError('TIMEOUT', `pushing scrcpy-server to ${serial}:${path} did not finish within ${PUSH_TIMEOUT_MS / 1000} s: the device stopped answering adb; replug it or run "adb reconnect"`);
    // Free space and permissions have nothing to do with a device adb no longer reaches.
    const gone = disconnection(err);
    if (gone) throw disconnectedError(serial, gone, 'before scrcpy-server could be pushed');
    throw new ToolError('INTERNAL', `pushing scrcpy-server to ${serial}:${path} failed (${(err as Error).message}); check free space and that /data/local/tmp is writable`);
  }
}

const isTimeout = (err: unknown) => (err as Error | undefined)?.name === 'TimeoutError';
const closing = (serial: string) => new ToolError('DEVICE_NOT_FOUND', `${serial} was closed while scrcpy-server was starting`);

/**
 * The server binds its socket a few hundred ms after app_process starts; until then adbd refuses the
 * stream. Retries until bound, the server exits (its error is the reason), or the deadline passes.
 */
async function openSocket(device: AdbDeviceClient, serial: string, name: string, log: ServerLog, deadline: number, wanted: AbortSignal): Promise<Duplex> {
  let last = 'not tried';
  for (;;) {
    if (wanted.aborted) throw closing(serial);
    if (log.exited) {
      throw new ToolError('INTERNAL', `scrcpy-server ${SCRCPY_VERSION} on ${serial} exited before accepting a connection: ${log.error ?? (log.text.trim().split('\n').pop() || 'no output')}`);
    }
    try {
      const socket = await openDeviceStream(device, `localabstract:${name}`, AbortSignal.any([wanted, timeoutSignal(Math.max(1, deadline - Date.now()))]));
      socket.on('error', () => undefined);
      return socket;
    } catch (err) {
      const gone = disconnection(err);
      if (gone) throw disconnectedError(serial, gone, 'while scrcpy-server was starting');
      last = isTimeout(err) ? 'the device did not answer' : (err as Error).message;
    }
    if (Date.now() >= deadline) {
      throw new ToolError('TIMEOUT', `scrcpy-server on ${serial} never opened localabstract:${name} (last attempt: ${last}); the device may block app_process, see the server output: ${log.text.trim().slice(-300) || 'none'}`);
    }
    await sleep(OPEN_RETRY_MS, undefined, { signal: wanted }).catch(() => undefined);
  }
}
