import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import type { VirtualDevice } from '../../../src/engine/drivers/virtual/index.js';
import { mjpegFrame, type InterfaceOrientation } from './emulated-capture.js';

/** The settings WDA's MJPEG server reads on every tick (FBConfiguration.m defaults). */
export interface MjpegSettings {
  mjpegServerFramerate: number;
  mjpegServerScreenshotQuality: number;
  mjpegScalingFactor: number;
  /** Absent on builds before WebDriverAgent 5.15.1 (#812), which do not know the setting. */
  mjpegFixOrientation?: boolean;
}

export const MJPEG_DEFAULTS: MjpegSettings = { mjpegServerFramerate: 10, mjpegServerScreenshotQuality: 25, mjpegScalingFactor: 100 };

export interface MjpegServerOptions {
  /** The interface orientation of the app in front, read on every tick. */
  orientation: () => InterfaceOrientation;
  /** The build knows mjpegFixOrientation (WebDriverAgent 5.15.1 on); its default is NO. */
  fixOrientationSetting: boolean;
}

const MAX_FPS = 60;
const FAILURE_BACKOFF_MIN_MS = 1000;
const FAILURE_BACKOFF_MAX_MS = 10_000;

/*
 * WebDriverAgent's MJPEG server (appium/WebDriverAgent WebDriverAgentLib/Utilities/FBMjpegServer.m),
 * emulated over a virtual phone:
 *   - a raw TCP server, not HTTP: whatever the client sends first (any bytes) starts its stream; a
 *     client that sends nothing gets nothing; later bytes are ignored;
 *   - the stream starts with a fixed HTTP/1.0 header declaring `boundary=--BoundaryString`, then each
 *     picture as `--BoundaryString\r\nContent-type: image/jpeg\r\nContent-Length: N\r\n\r\n<N bytes>\r\n\r\n`
 *     (builds before WebDriverAgent b4704daf, November 2023, said `image/jpg`);
 *   - one screenshot per tick at mjpegServerFramerate (0 or above 60 means 60), JPEG at
 *     mjpegServerScreenshotQuality, scaled by mjpegScalingFactor %; nothing is taken while no client listens;
 *   - in landscape the pictures stay portrait-stored with an EXIF orientation unless mjpegFixOrientation or
 *     scaling has them drawn upright (emulated-capture.ts);
 *   - a screenshot that fails sends nothing, and the next one is taken only after a back-off counted from the
 *     failed tick's start: FAILURE_BACKOFF_MIN (1 s) << min(consecutive failures, 4), at most FAILURE_BACKOFF_MAX
 *     (10 s), i.e. 2, 4, 8, 10, 10 s… until one succeeds.
 */
export class EmulatedMjpegServer {
  readonly settings: MjpegSettings;
  /** Make screenshots fail (XCTest timed out taking them, FRAME_TIMEOUT 1 s): ticks send nothing. */
  failScreenshots = false;
  /** Make only the next screenshots fail, this many. */
  failNextScreenshots = 0;
  /** The back-offs scheduled after failed screenshots, in ms, in order. */
  readonly backoffs: number[] = [];
  private consecutiveFailures = 0;
  partsSent = 0;
  /** The JPEG bytes of the last parts sent, newest last (relays must pass them on unchanged). */
  readonly recent: Buffer[] = [];
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  private readonly listening = new Set<Socket>();
  private timer?: NodeJS.Timeout;
  private port = 0;

  constructor(
    private readonly device: VirtualDevice,
    private readonly options: MjpegServerOptions,
  ) {
    this.settings = { ...MJPEG_DEFAULTS, ...(options.fixOrientationSetting ? { mjpegFixOrientation: false } : {}) };
  }

  /** One setting of POST /appium/settings, if it is this server's (FBSettingsHandler.m settersMap; unknown keys are skipped). */
  apply(key: string, value: unknown): void {
    // [value boolValue]; builds before 5.15.1 have no setter for it.
    if (key === 'mjpegFixOrientation' && 'mjpegFixOrientation' in this.settings && value !== null) this.settings.mjpegFixOrientation = Boolean(value);
    else if (key !== 'mjpegFixOrientation' && key in this.settings && typeof value === 'number') (this.settings as unknown as Record<string, number>)[key] = value;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get portNumber(): number {
    return this.port;
  }

  get clients(): number {
    return this.listening.size;
  }

  async start(port = this.port): Promise<void> {
    const server = createServer((socket) => this.accept(socket));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
    this.schedule();
  }

  async stop(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const server = this.server;
    this.server = undefined;
    for (const s of this.sockets) s.destroy();
    this.listening.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private accept(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => {
      this.sockets.delete(socket);
      this.listening.delete(socket);
    });
    socket.on('error', () => socket.destroy());
    socket.on('data', () => {
      if (this.listening.has(socket)) return;
      socket.write(
        'HTTP/1.0 200 OK\r\nServer: WDA MJPEG Server\r\nConnection: close\r\nMax-Age: 0\r\nExpires: 0\r\nCache-Control: no-cache, private\r\nPragma: no-cache\r\nContent-Type: multipart/x-mixed-replace; boundary=--BoundaryString\r\n\r\n',
      );
      this.listening.add(socket);
    });
  }

  private schedule(delay = 0): void {
    if (!this.server) return;
    this.timer = setTimeout(async () => {
      const started = performance.now();
      const interval = await this.tick();
      this.schedule(Math.max(0, interval - (performance.now() - started)));
    }, delay);
  }

  /** One tick of FBMjpegServer.m streamScreenshot; resolves with the time from its start to the next one. */
  private async tick(): Promise<number> {
    const fps = this.settings.mjpegServerFramerate;
    const interval = 1000 / (fps === 0 || fps > MAX_FPS ? MAX_FPS : fps);
    if (this.listening.size === 0) return interval;
    if (this.failScreenshots || this.failNextScreenshots > 0) {
      this.failNextScreenshots = Math.max(0, this.failNextScreenshots - 1);
      this.consecutiveFailures++;
      const backoff = Math.min(FAILURE_BACKOFF_MAX_MS, FAILURE_BACKOFF_MIN_MS * 2 ** Math.min(this.consecutiveFailures, 4));
      this.backoffs.push(backoff);
      return backoff;
    }
    this.consecutiveFailures = 0;
    let jpeg: Buffer;
    try {
      const { png, width } = await this.device.screenPng();
      jpeg = await mjpegFrame(png, width, this.options.orientation(), {
        quality: this.settings.mjpegServerScreenshotQuality,
        scalingFactor: this.settings.mjpegScalingFactor,
        fixOrientation: this.settings.mjpegFixOrientation,
      });
    } catch {
      return interval;
    }
    const chunk = Buffer.concat([Buffer.from(`--BoundaryString\r\nContent-type: image/jpeg\r\nContent-Length: ${jpeg.length}\r\n\r\n`), jpeg, Buffer.from('\r\n\r\n')]);
    for (const socket of this.listening) socket.write(chunk);
    this.partsSent++;
    this.recent.push(jpeg);
    if (this.recent.length > 20) this.recent.shift();
    return interval;
  }
}
