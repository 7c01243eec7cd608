import { setTimeout as sleep } from 'node:timers/promises';
import type { VideoPacket } from '../../../driver.js';
import { ToolError } from '../../../errors.js';
import type { ScreenSize } from '../../../ui-tree.js';
import type { AdbDeviceClient } from '../adb-client.js';
import { ControlChannel } from './control-channel.js';
import { absenceReason, deviceGone, type Absence, type StateCheck } from './device-state.js';
import { launchScrcpyServer, type LaunchedServer, type ScrcpyLaunchOptions } from './server-process.js';
import { readVideoHeader, videoPackets, type VideoSize } from './video-packets.js';

/** How long a server that exited may take to print why, after its sockets closed. */
const REASON_GRACE_MS = 300;

/**
 * One running scrcpy-server: its video pump (packets go to the listeners, or nowhere, so the encoder
 * never blocks) and its control channel. `ended` resolves with the reason once the server is gone.
 */
export class ScrcpySession {
  readonly control: ControlChannel;
  readonly ended: Promise<string>;
  readonly startedAt = Date.now();
  lastConfig: VideoPacket | undefined;
  /** Why the server stopped when its device (adb's reason: "device offline", "device '…' not found") or the adb server went away. */
  gone: Absence | undefined;
  private readonly listeners = new Set<(packet: VideoPacket) => void>();
  private size: VideoSize;
  private stopping = false;
  private finish!: (reason: string) => void;
  private captureStarted!: () => void;
  private captureEnded!: () => void;
  /** Settles at the first key frame after a configuration, or with why the server stopped before one. */
  private readonly pictured: Promise<void>;
  private picture!: () => void;
  private noPicture!: (why: string) => void;
  private readonly headerAt = Date.now();

  private constructor(
    private readonly check: StateCheck,
    private readonly server: LaunchedServer,
    private readonly serial: string,
    size: VideoSize,
    stream: ReadableStream<Uint8Array>,
    physical: () => ScreenSize,
    captureWaitMs: number,
    listener: ((packet: VideoPacket) => void) | undefined,
  ) {
    this.size = size;
    this.ended = new Promise((resolve) => (this.finish = resolve));
    this.pictured = new Promise<void>((resolve, reject) => {
      this.picture = resolve;
      this.noPicture = (why) => reject(new Error(why));
    });
    this.pictured.catch(() => undefined);
    if (listener) this.listeners.add(listener);
    const capturing = new Promise<void>((resolve, reject) => {
      this.captureStarted = resolve;
      this.captureEnded = reject;
    });
    capturing.catch(() => undefined);
    this.control = new ControlChannel({
      socket: server.control,
      options: server.options,
      log: server.log,
      serial,
      videoSize: () => this.size,
      deviceSize: () => orient(physical(), this.size),
      capturing,
      captureWaitMs,
    });
    server.control.on('close', () => void this.stop());
    server.shell.on('close', () => void this.stop());
    void this.pump(stream);
  }

  /**
   * Resolves once the video header is read: the capture and encoder may not have started yet (SurfaceEncoder
   * writes the header before MediaCodec.configure); `firstPicture` tells when they did. `physical`: the device's
   * natural size as known now (it changes with a fold). `listener` sees every packet, the first included.
   * `check`: how to ask, once the streams close, whether the device or the adb server went away.
   */
  static async start(device: AdbDeviceClient, check: StateCheck, serial: string, launch: ScrcpyLaunchOptions, physical: () => ScreenSize, listener?: (packet: VideoPacket) => void): Promise<ScrcpySession> {
    const server = await launchScrcpyServer(device, serial, launch);
    try {
      const header = await withTimeout(readVideoHeader(server.options, server.video), launch.bindTimeoutMs, 'no video header');
      return new ScrcpySession(check, server, serial, header.size, header.stream, physical, launch.bindTimeoutMs, listener);
    } catch (err) {
      await waitForExit(server);
      destroy(server);
      throw new ToolError('INTERNAL', `scrcpy-server on ${serial} did not start its video: ${server.log.error ?? (err as Error).message}`);
    }
  }

  /**
   * Resolves once the encoder produced its first picture (a configuration, then a key frame), at once if it
   * has. Rejects with the server's error when it stopped before, or when `ms` after the header passed without one.
   */
  async firstPicture(ms: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), Math.max(0, this.headerAt + ms - Date.now()))));
    try {
      if ((await Promise.race([this.pictured, late])) === 'late') {
        throw new ToolError('INTERNAL', `scrcpy-server on ${this.serial} did not start its video: ${this.server.log.error ?? `the encoder produced no picture within ${ms / 1000} s`}`);
      }
    } catch (err) {
      if (err instanceof ToolError) throw err;
      throw new ToolError('INTERNAL', `scrcpy-server on ${this.serial} did not start its video: ${(err as Error).message}`);
    } finally {
      clearTimeout(timer);
    }
  }

  get videoSize(): VideoSize {
    return this.size;
  }

  get running(): boolean {
    return !this.stopping;
  }

  onPacket(listener: (packet: VideoPacket) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Closing both sockets makes the server's streamer and controller fail, and the server exit; the shell goes too. */
  async close(): Promise<void> {
    await this.stop('closed');
  }

  private async pump(stream: ReadableStream<Uint8Array>): Promise<void> {
    let why = 'the video stream ended; the server printed no error, so the cause is unknown';
    try {
      for await (const packet of videoPackets(this.server.options, stream, this.size, (size) => (this.size = size))) {
        if (packet.config) {
          this.lastConfig = packet;
          // The header comes before the capture starts; the first CONFIG after it (see ControlChannel.awaitCapture).
          this.captureStarted();
          // SurfaceEncoder retries an encoder error by restarting its encoder, which sends a new CONFIG:
          // errors logged before it were survived, and a later death has a reason of its own (or none).
          this.server.log.errorsRecovered();
        } else if (packet.key && this.lastConfig) {
          this.picture();
        }
        for (const listener of this.listeners) listener(packet);
      }
    } catch (err) {
      why = `the video stream broke (${(err as Error).message})`;
    }
    await this.stop(undefined, why);
  }

  private async stop(reason?: string, fallback = 'the server stopped without printing an error, so the cause is unknown'): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    this.captureEnded();
    if (reason === undefined) await waitForExit(this.server);
    let why = reason ?? this.server.log.error;
    if (why === undefined) {
      // The sockets and the shell all close when adb loses the device, or when the adb server itself goes:
      // then that is the cause, not an unknown one.
      this.gone = await deviceGone(this.check);
      if (this.gone) why = absenceReason(this.gone);
    }
    why ??= fallback;
    this.noPicture(reason === 'closed' ? 'the session was closed' : why);
    this.control.kill(why, this.gone ? 'DEVICE_NOT_FOUND' : 'INTERNAL');
    destroy(this.server);
    this.finish(reason === 'closed' ? reason : `scrcpy-server on ${this.serial} stopped: ${why}`);
  }
}

/** The device's current size in pixels: the video keeps the screen's orientation, the physical size does not. */
function orient(physical: ScreenSize, video: VideoSize): ScreenSize {
  const landscape = video.width > video.height;
  const wide = physical.width > physical.height;
  return landscape === wide ? physical : { width: physical.height, height: physical.width };
}

async function waitForExit(server: LaunchedServer): Promise<void> {
  const deadline = Date.now() + REASON_GRACE_MS;
  while (!server.log.exited && Date.now() < deadline) await sleep(20);
}

function destroy(server: LaunchedServer): void {
  server.video.destroy();
  server.control.destroy();
  server.shell.destroy();
}

async function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} within ${ms} ms`)), ms)));
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
