import type { VideoOptions, VideoPacket, VideoStream } from '../../../driver.js';
import { ToolError, type ErrorCode } from '../../../errors.js';
import { absenceReason, deviceGone, type StateCheck } from './device-state.js';
import type { ScreenSize } from '../../../ui-tree.js';
import type { AdbDeviceClient } from '../adb-client.js';
import type { ControlChannel } from './control-channel.js';
import { scrcpyServerJar } from './server-jar.js';
import type { ScrcpySession } from './session.js';
import { VideoConsumer } from './video-consumer.js';

export interface ScrcpyManagerOptions {
  /** Kept running this long after the last viewer and input user left, so the next ones start at once. */
  graceMs: number;
  bindTimeoutMs: number;
  keyFrameInterval: number;
  /** Encoder settings when input, not a viewer, starts the server. */
  inputVideo: VideoOptions;
  /** A server that ran this long before dying is restarted once for its viewers (an encoder error, not a broken setup). */
  restartAfterMs: number;
  /** Where the verified jar comes from (tests swap in a missing or altered one). */
  serverJar: () => Buffer;
}

export const DEFAULT_SCRCPY_OPTIONS: ScrcpyManagerOptions = {
  graceMs: 10_000,
  bindTimeoutMs: 5_000,
  keyFrameInterval: 2,
  inputVideo: { maxSize: 1200, maxFps: 30 },
  restartAfterMs: 5_000,
  serverJar: () => scrcpyServerJar(),
};

/**
 * The one scrcpy session of a device, shared by every video consumer and by input. Started on first
 * use, stopped after a grace period once nobody uses it, and always stopped by close().
 */
export class ScrcpyManager {
  private session: ScrcpySession | undefined;
  private starting: Promise<ScrcpySession> | undefined;
  private readonly consumers = new Set<VideoConsumer>();
  /** openVideo callers waiting for a session and its first picture: they get its packets from the first one. */
  private readonly joining = new Set<VideoConsumer>();
  /** Input calls and openVideo calls still starting: users the grace timer must wait for. */
  private pendingUsers = 0;
  private graceTimer: NodeJS.Timeout | undefined;
  private closed = false;
  /** Ends a launch still waiting on the device when the device is closed. */
  private readonly closing = new AbortController();

  constructor(
    private readonly device: AdbDeviceClient,
    private readonly serial: string,
    /** The natural (`wm size`) size: read before a session starts; the latest known one maps each touch, so touches follow a fold. */
    private readonly physicalSize: { read(): Promise<ScreenSize>; known(): ScreenSize | undefined },
    private readonly options: ScrcpyManagerOptions = DEFAULT_SCRCPY_OPTIONS,
    /** Asks after a stop whether the device or the adb server went away, never starting a server. */
    private readonly check: StateCheck = { device, server: 'the adb server' },
  ) {}

  /** The control channel of a running session that can inject, if any; input never starts a server just for a tap. */
  get control(): ControlChannel | undefined {
    const control = this.session?.running ? this.session.control : undefined;
    return control?.usable ? control : undefined;
  }

  /**
   * A running session is shared as it is: a second caller's maxSize/maxFps do not restart it. Resolves once
   * the encoder produced a picture (a configuration and a key frame), within bindTimeoutMs of the video header:
   * SurfaceEncoder sends the header before it configures the encoder and starts the capture, so the header
   * alone says nothing about whether a picture will ever come.
   */
  async openVideo(options: VideoOptions): Promise<VideoStream> {
    this.pendingUsers++;
    this.hold();
    // Fed while the session starts, so a consumer that waited for it gets its first configuration and key frame.
    const consumer = new VideoConsumer(undefined, () => this.session?.control.requestKeyFrame());
    this.joining.add(consumer);
    let session: ScrcpySession;
    try {
      session = await this.ensure(options);
      await this.pictureOf(session);
    } catch (err) {
      this.joining.delete(consumer);
      this.pendingUsers--;
      this.release();
      throw err;
    }
    this.joining.delete(consumer);
    this.consumers.add(consumer);
    this.pendingUsers--;
    if (!consumer.synced) {
      if (session.lastConfig) consumer.push(session.lastConfig);
      // A consumer joining a running stream would otherwise wait up to a key-frame interval.
      session.control.requestKeyFrame();
    }
    let closed = false;
    return {
      codec: 'h264',
      source: 'scrcpy',
      packets: () => consumer.packets(),
      requestKeyFrame: () => this.session?.control.requestKeyFrame(),
      close: async () => {
        if (closed) return;
        closed = true;
        consumer.end();
        this.consumers.delete(consumer);
        this.release();
      },
    };
  }

  /** Waits for the session's first picture; a server that gives none is stopped (the next attempt starts afresh). */
  private async pictureOf(session: ScrcpySession): Promise<void> {
    try {
      await session.firstPicture(this.options.bindTimeoutMs);
    } catch (err) {
      if (this.closed) throw new ToolError('DEVICE_NOT_FOUND', `${this.serial} was closed`);
      if (this.session === session) {
        this.session = undefined;
        await session.close();
      }
      throw err;
    }
  }

  /** Runs `work` with a control channel, starting the server if needed (Unicode text has no other path). */
  async withInput<T>(work: (control: ControlChannel) => Promise<T>): Promise<T> {
    this.pendingUsers++;
    this.hold();
    try {
      const session = await this.ensure(this.options.inputVideo);
      return await work(session.control);
    } finally {
      this.pendingUsers--;
      this.release();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.closing.abort();
    clearTimeout(this.graceTimer);
    for (const consumer of this.consumers) consumer.end();
    this.consumers.clear();
    this.joining.clear();
    const session = this.session ?? (await this.starting?.catch(() => undefined));
    this.session = undefined;
    await session?.close();
  }

  private async ensure(video: VideoOptions): Promise<ScrcpySession> {
    if (this.closed) throw new ToolError('DEVICE_NOT_FOUND', `${this.serial} was closed`);
    if (this.session?.running) return this.session;
    this.starting ??= this.start(video).finally(() => (this.starting = undefined));
    return this.starting;
  }

  private async start(video: VideoOptions): Promise<ScrcpySession> {
    const first = await this.physicalSize.read();
    const physical = () => this.physicalSize.known() ?? first;
    // The scrcpy library (~200 ms to load) only once a stream or control channel is wanted.
    const { ScrcpySession } = await import('./session.js');
    const broadcast = (packet: VideoPacket) => {
      this.consumers.forEach((consumer) => consumer.push(packet));
      this.joining.forEach((consumer) => consumer.push(packet));
    };
    const session = await ScrcpySession.start(this.device, this.check, this.serial, { ...video, keyFrameInterval: this.options.keyFrameInterval, bindTimeoutMs: this.options.bindTimeoutMs, serverJar: this.options.serverJar, signal: this.closing.signal }, physical, broadcast);
    if (this.closed) {
      await session.close();
      throw new ToolError('DEVICE_NOT_FOUND', `${this.serial} was closed`);
    }
    this.session = session;
    void session.ended.then((reason) => this.onEnded(session, reason, video));
    return session;
  }

  private async onEnded(session: ScrcpySession, reason: string, video: VideoOptions): Promise<void> {
    if (this.session === session) this.session = undefined;
    if (reason === 'closed' || this.closed) return;
    let code: ErrorCode = 'INTERNAL';
    if (this.consumers.size > 0 && Date.now() - session.startedAt >= this.options.restartAfterMs) {
      // A device adb no longer reaches gets no restart (a push to it fails, and says nothing useful); nor does
      // one whose adb server went away: the push would start a new server, undoing the user's kill-server.
      const gone = session.gone ?? (await deviceGone(this.check));
      if (gone && !session.gone) reason = `${reason}; ${'device' in gone ? `the device is no longer connected (adb: ${gone.device})` : absenceReason(gone)}`;
      if (gone) code = 'DEVICE_NOT_FOUND';
      else {
        try {
          await this.pictureOf(await this.ensure(video));
          return;
        } catch (err) {
          reason = `${reason}; restarting failed: ${(err as Error).message}`;
          if (err instanceof ToolError && err.code === 'DEVICE_NOT_FOUND') code = err.code;
        }
      }
    }
    if (session.gone) code = 'DEVICE_NOT_FOUND';
    for (const consumer of this.consumers) consumer.fail(new ToolError(code, reason));
    // Failed consumers no longer hold the device; a later openVideo starts afresh.
    this.consumers.clear();
  }

  private hold(): void {
    clearTimeout(this.graceTimer);
    this.graceTimer = undefined;
  }

  private get inUse(): boolean {
    return this.consumers.size > 0 || this.pendingUsers > 0;
  }

  private release(): void {
    if (this.inUse || this.closed) return;
    clearTimeout(this.graceTimer);
    this.graceTimer = setTimeout(() => {
      this.graceTimer = undefined;
      if (this.inUse) return;
      const session = this.session;
      this.session = undefined;
      void session?.close();
    }, this.options.graceMs);
    this.graceTimer.unref();
  }
}
