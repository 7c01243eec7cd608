import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import sharp from 'sharp';

import type { VirtualDevice } from '../../../src/engine/drivers/virtual/index.js';

/** The settings WDA's MJPEG server reads on every tick (FBConfiguration.m defaults). */
export interface MjpegSettings {
  mjpegServerFramerate: number;
  mjpegServerScreenshotQuality: number;
  mjpegScalingFactor: number;
}

export const MJPEG_DEFAULTS: MjpegSettings = { mjpegServerFramerate: 10, mjpegServerScreenshotQuality: 25, mjpegScalingFactor: 100 };

const MAX_FPS = 60;

/*
 * WebDriverAgent's MJPEG server (appium/WebDriverAgent WebDriverAgentLib/Utilities/FBMjpegServer.m),
 * emulated over a virtual phone:
 *   - a raw TCP server, not HTTP: whatever the client sends first (any bytes) starts its stream; a
 *     client that sends nothing gets nothing; later bytes are ignored;
 *   - the stream starts with a fixed HTTP/1.0 header declaring `boundary=--BoundaryString`, then each
 *     picture as `--BoundaryString\r\nContent-type: image/jpeg\r\nContent-Length: N\r\n\r\n<N bytes>\r\n\r\n`
 *     (builds before WebDriverAgent b4704daf, November 2023, said `image/jpg`);
 *   - one screenshot per tick at mjpegServerFramerate (0 or above 60 means 60), JPEG at
 *     mjpegServerScreenshotQuality, scaled by mjpegScalingFactor %; a screenshot that fails is skipped
 *     (WDA logs it and waits for the next tick); nothing is taken while no client listens.
 */
export class EmulatedMjpegServer {
  readonly settings: MjpegSettings = { ...MJPEG_DEFAULTS };
  /** Make screenshots fail (the device is locked, XCTest timed out): ticks send nothing. */
  failScreenshots = false;
  partsSent = 0;
  /** The JPEG bytes of the last parts sent, newest last (relays must pass them on unchanged). */
  readonly recent: Buffer[] = [];
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  private readonly listening = new Set<Socket>();
  private timer?: NodeJS.Timeout;
  private port = 0;

  constructor(private readonly device: VirtualDevice) {}

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

  private schedule(): void {
    if (!this.server) return;
    const fps = this.settings.mjpegServerFramerate;
    const interval = 1000 / (fps === 0 || fps > MAX_FPS ? MAX_FPS : fps);
    const started = performance.now();
    this.timer = setTimeout(async () => {
      await this.tick();
      this.schedule();
    }, Math.max(0, interval - (performance.now() - started)));
  }

  private async tick(): Promise<void> {
    if (this.listening.size === 0 || this.failScreenshots) return;
    let jpeg: Buffer;
    try {
      const { png, width } = await this.device.screenPng();
      const quality = Math.min(100, Math.max(1, this.settings.mjpegServerScreenshotQuality));
      let image = sharp(png);
      const factor = this.settings.mjpegScalingFactor;
      if (factor > 0 && factor < 100) image = image.resize({ width: Math.max(1, Math.round((width * factor) / 100)) });
      jpeg = await image.jpeg({ quality }).toBuffer();
    } catch {
      return;
    }
    const chunk = Buffer.concat([Buffer.from(`--BoundaryString\r\nContent-type: image/jpeg\r\nContent-Length: ${jpeg.length}\r\n\r\n`), jpeg, Buffer.from('\r\n\r\n')]);
    for (const socket of this.listening) socket.write(chunk);
    this.partsSent++;
    this.recent.push(jpeg);
    if (this.recent.length > 20) this.recent.shift();
  }
}
