import type { Duplex } from 'node:stream';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { ScrcpyCodecOptions, ScrcpyInstanceId, ScrcpyOptions3_3_1 } from '@yume-chan/scrcpy';
import { ToolError } from '../../../errors.js';
import type { AdbDeviceClient } from '../adb-client.js';
import { leftoverJarSweep, removeJar } from './leftover-jars.js';
import { deviceJarPath, SCRCPY_VERSION } from './server-jar.js';
import { ServerLog } from './server-log.js';

export interface ScrcpyLaunchOptions {
  maxSize: number;
  maxFps: number;
  /** Seconds between key frames: bounds what a late joiner must decode (SurfaceEncoder's default is 10). */
  keyFrameInterval: number;
  /** How long the server may take to bind its socket before starting counts as failed. */
  bindTimeoutMs: number;
  /** The verified jar's bytes (throws the reason when it is missing or altered). */
  serverJar: () => Buffer;
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
  await pushJar(device, serial, jar, jarPath);
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
    videoCodecOptions: new ScrcpyCodecOptions({ iFrameInterval: launch.keyFrameInterval }),
  });
  const command = `${leftoverJarSweep()}; CLASSPATH=${jarPath} app_process / com.genymobile.scrcpy.Server ${SCRCPY_VERSION} ${options.serialize().join(' ')}`;
  try {
    return { options, socketName, ...(await startServer(device, serial, command, socketName, launch.bindTimeoutMs)) };
  } catch (err) {
    await removeJar(device, jarPath);
    throw err;
  }
}

/** Runs the launch line and opens the server's two sockets; the shell stream is closed when that fails. */
async function startServer(device: AdbDeviceClient, serial: string, command: string, socketName: string, bindTimeoutMs: number): Promise<Omit<LaunchedServer, 'options' | 'socketName'>> {
  let shell: Duplex;
  try {
    shell = await device.shell(command);
  } catch (err) {
    throw new ToolError('INTERNAL', `could not start scrcpy-server on ${serial}: ${(err as Error).message}`);
  }
  const log = new ServerLog(shell);
  try {
    const video = await openSocket(device, serial, socketName, log, Date.now() + bindTimeoutMs);
    const control = await openSocket(device, serial, socketName, log, Date.now() + bindTimeoutMs).catch((err: unknown) => {
      video.destroy();
      throw err;
    });
    return { shell, video, control, log };
  } catch (err) {
    shell.destroy();
    throw err;
  }
}

async function pushJar(device: AdbDeviceClient, serial: string, jar: Buffer, path: string): Promise<void> {
  try {
    const transfer = await device.push(Readable.from([jar]), path, 0o644);
    await new Promise<void>((resolve, reject) => {
      transfer.on('end', () => resolve());
      transfer.on('error', reject);
    });
  } catch (err) {
    throw new ToolError('INTERNAL', `pushing scrcpy-server to ${serial}:${path} failed (${(err as Error).message}); check free space and that /data/local/tmp is writable`);
  }
}

/**
 * The server binds its socket a few hundred ms after app_process starts; until then adbd refuses the
 * stream. Retries until bound, the server exits (its error is the reason), or the deadline passes.
 */
async function openSocket(device: AdbDeviceClient, serial: string, name: string, log: ServerLog, deadline: number): Promise<Duplex> {
  let last = 'not tried';
  for (;;) {
    if (log.exited) {
      throw new ToolError('INTERNAL', `scrcpy-server ${SCRCPY_VERSION} on ${serial} exited before accepting a connection: ${log.error ?? (log.text.trim().split('\n').pop() || 'no output')}`);
    }
    try {
      const socket = await device.openLocal(`localabstract:${name}`);
      socket.on('error', () => undefined);
      return socket;
    } catch (err) {
      last = (err as Error).message;
    }
    if (Date.now() >= deadline) {
      throw new ToolError('TIMEOUT', `scrcpy-server on ${serial} never opened localabstract:${name} (last attempt: ${last}); the device may block app_process, see the server output: ${log.text.trim().slice(-300) || 'none'}`);
    }
    await sleep(OPEN_RETRY_MS);
  }
}
