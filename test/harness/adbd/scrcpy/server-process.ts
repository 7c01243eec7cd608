import { createHash } from 'node:crypto';
import sharp from 'sharp';
import type { DeviceStream } from '../adbd.js';
import { EmulatedController } from './controller.js';
import { CONFIGURE_ERROR, DEQUEUE_ERROR, EncoderRetries, encodingErrorLine, stackTrace, type JavaException } from './encoder-errors.js';
import { H264Encoder, type EncodedPacket } from './h264-encoder.js';
import { displayListMessage, encoderListMessage, phoneVideoEncoders, printLists, type EncoderInfo } from './lists.js';
import { javaError, LOG_LEVELS, parseServerOptions, socketName, videoSize, type LogLevel, type ServerOptions } from './options.js';
import type { ScrcpyHost } from './host.js';
import { SerialWriter } from './serial-writer.js';
import { deviceMeta } from './strings.js';

export const SERVER_VERSION = '3.3.1';
export const RELEASE_JAR_SHA256 = 'a0f70b20aa4998fbf658c94118cd6c8dab6abbb0647a3bdab344d70bc1ebcbb8';
const CODEC_H264 = 0x68323634;
const FLAG_CONFIG = 1n << 63n;
const FLAG_KEY_FRAME = 1n << 62n;
const BIND_DELAY_MS = 120;
const REPEAT_AFTER_MS = 100;
/**
 * GraphicBufferSource (AOSP media/codec2 and stagefright) repeats the last frame, for
 * KEY_REPEAT_PREVIOUS_FRAME_AFTER, at most kRepeatLastFrameCount (10) times: a still screen gives
 * about a second of repeats, then no packets (and no periodic key frames) until it changes.
 */
const REPEAT_LAST_FRAME_COUNT = 10;
const MAX_QUEUED_PACKETS = 60;

/**
 * One `app_process … com.genymobile.scrcpy.Server` run, after scrcpy 3.3.1's Server.java: checks the
 * version, parses options, binds `scrcpy_<scid>`, accepts video then control, sends the device meta and
 * the codec meta, streams 12-byte-framed H.264 and executes control messages until a socket closes.
 */
export class ScrcpyServerProcess {
  private readonly console: SerialWriter;
  private options!: ServerOptions;
  private readonly accepts: { stream: DeviceStream; done: () => void }[] = [];
  private acceptWaiter: (() => void) | undefined;
  private terminate!: (reason: string) => void;
  private readonly terminated = new Promise<string>((resolve) => (this.terminate = resolve));
  private video: SerialWriter | undefined;
  private encoder: H264Encoder | undefined;
  private size = { width: 0, height: 0 };
  private sourceSize = { width: 0, height: 0 };
  private lastSource: Buffer | undefined;
  private lastFrame: Buffer | undefined;
  private repeatsLeft = 0;
  private lastEncodeAt = 0;
  /** SurfaceEncoder.prepareRetry and the ScreenCapture.maxSize it lowers. */
  private retries!: EncoderRetries;
  /** The video thread ended (a configure failure it did not retry). */
  private videoEnded = false;
  /** Ln's threshold: INFO until Server.main applies log_level (Ln.initLogLevel, after Options.parse). */
  private logLevel: LogLevel = 'INFO';
  private framing = false;
  private ticker: NodeJS.Timeout | undefined;
  private tickMs = 33;
  /** Controller.onNewVirtualDisplay has installed a PositionMapper (the capture started). */
  private mapped = false;
  private controller: EmulatedController | undefined;
  /** Packets the encoder made while faults.holdOutput was set. */
  private readonly held: EncodedPacket[] = [];

  constructor(
    private readonly host: ScrcpyHost,
    shell: DeviceStream,
  ) {
    this.console = new SerialWriter(shell);
    shell.on('close', () => this.terminate('killed (shell closed)'));
  }

  /** Like `kill -9`: no output, sockets gone. */
  kill(): void {
    this.terminate('killed');
  }

  /** Resolves when the server is done with the socket (adbd then closes it). */
  accept(stream: DeviceStream): Promise<void> {
    return new Promise((done) => {
      this.accepts.push({ stream, done });
      this.acceptWaiter?.();
    });
  }

  async run(words: string[]): Promise<void> {
    try {
      await this.main(words);
    } catch (err) {
      // Server.main: Ln.e(t.getMessage(), t) then System.exit(1).
      const e = err as Error;
      await this.log('ERROR', `${e.message}\n${e.name === 'Error' ? 'java.lang.IllegalArgumentException' : e.name}: ${e.message}\n\tat com.genymobile.scrcpy.Server.main(Server.java:1)`);
    } finally {
      this.cleanup();
    }
  }

  private async main(words: string[]): Promise<void> {
    const classpath = /^CLASSPATH=(.*)$/.exec(words.find((w) => w.startsWith('CLASSPATH=')) ?? '')?.[1];
    const jar = classpath ? this.host.files.read(classpath) : undefined;
    const main = words.indexOf('com.genymobile.scrcpy.Server');
    if (!jar || createHash('sha256').update(jar).digest('hex') !== RELEASE_JAR_SHA256 || main < 0) {
      await this.console.write(`Exception in thread "main" java.lang.ClassNotFoundException: Didn't find class "com.genymobile.scrcpy.Server" on path: DexPathList[[zip file "${classpath ?? ''}"],nativeLibraryDirectories=[/system/lib64, /system_ext/lib64]]\n`);
      return;
    }
    const version = this.host.faults.version ?? SERVER_VERSION;
    const args = words.slice(main + 1);
    if (!args[0]) throw javaError('java.lang.IllegalArgumentException', 'Missing client version');
    if (args[0] !== version) throw javaError('java.lang.IllegalArgumentException', `The server version (${version}) does not match the client (${args[0]})`);
    const unknown: string[] = [];
    // Options.parse warns about unknown keys as it meets them, before a later bad value throws.
    try {
      this.options = parseServerOptions(args, unknown);
    } finally {
      for (const key of unknown) await this.log('WARN', `Unknown server option: ${key}`);
    }
    this.logLevel = this.options.logLevel;
    this.retries = new EncoderRetries(this.options.downsizeOnError, this.options.maxSize);
    this.host.ranJarSha256 = createHash('sha256').update(jar).digest('hex');
    const { phone } = this.host;
    await this.log('INFO', `Device: [Google] google ${phone.info.model} (Android ${this.host.android.release})`);
    // cleanup=true (the default): Server.scrcpy starts CleanUp's app_process, whose main unlinks the jar
    // (unlinkSelf); list mode unlinks it itself. A server that failed before (a bad option or version) leaves its jar.
    if (this.options.cleanup) this.host.files.remove(classpath!);
    const { lists } = this.options;
    if (lists.encoders || lists.displays || lists.cameras || lists.cameraSizes || lists.apps) return this.printLists();
    if (!this.options.tunnelForward) throw new Error('tunnel_forward=false (adb reverse) is not emulated by the test adbd');
    // Another display id reaches ScreenCapture.prepare (see startVideo); without video the controller would inject there.
    if (this.options.displayId !== 0 && !this.options.video) throw new Error(`display_id=${this.options.displayId} without video is not emulated`);

    const name = socketName(this.options.scid);
    if (!this.host.faults.neverBind) setTimeout(() => this.host.listen(name, this), BIND_DELAY_MS).unref();
    const sockets: DeviceStream[] = [];
    let first: SerialWriter | undefined;
    const wanted = [this.options.video, this.options.audio, this.options.control].filter(Boolean).length;
    while (sockets.length < wanted) {
      const next = this.accepts.shift();
      if (next) {
        sockets.push(next.stream);
        next.stream.on('close', () => this.terminate('socket closed'));
        void this.terminated.then(() => next.done());
        if (!first) {
          first = new SerialWriter(next.stream);
          // DesktopConnection.open writes the dummy byte right after the first accept, before waiting for
          // the next socket: a client may read it before it connects the others.
          if (this.options.sendDummyByte) void first.write(Buffer.from([0]));
        }
        continue;
      }
      const woken = new Promise<void>((resolve) => (this.acceptWaiter = resolve));
      if ((await Promise.race([woken.then(() => 'accept'), this.terminated])) !== 'accept') return;
    }
    this.host.unlisten(name);
    const [videoSocket, audioSocket, controlSocket] = [
      this.options.video ? sockets.shift() : undefined,
      this.options.audio ? sockets.shift() : undefined,
      this.options.control ? sockets.shift() : undefined,
    ];
    if (!first) return;
    if (this.options.sendDeviceMeta) void first.write(deviceMeta(phone.info.model));
    if (controlSocket) this.startController(controlSocket, videoSocket || audioSocket ? new SerialWriter(controlSocket) : first);
    // Audio capture is not emulated: the stream is explicitly disabled (codec id 0), as on a device without it.
    if (audioSocket) void new SerialWriter(audioSocket).write(Buffer.alloc(4));
    if (videoSocket) this.startVideo(first);
    const reason = await this.terminated;
    if (reason.startsWith('error:')) await this.log('ERROR', reason.slice(6));
  }

  private startVideo(video: SerialWriter): void {
    this.video = video;
    const codec = this.options.videoCodec;
    // The emulated phone has an H.264 encoder only (ffmpeg's libx264).
    if (!this.host.ffmpeg || this.host.faults.noEncoder || codec !== 'h264') {
      // SurfaceEncoder.createMediaCodec fails before any header is written: the video thread logs and
      // ends, the server stops and its sockets close. (writeDisableStream, codec id 0/1, is audio's only.)
      const mime = { h264: 'video/avc', h265: 'video/hevc', av1: 'video/av01' }[codec];
      void this.log('ERROR', `Could not create default video encoder for ${codec}\n${encoderListMessage('video', this.videoEncoders(), this.host.android.api)}`);
      void this.log('ERROR', `Video encoding error\njava.io.IOException: Failed to initialize ${mime}, error 0xfffffff4\n\tat android.media.MediaCodec.native_setup(Native Method)\n\tat com.genymobile.scrcpy.video.SurfaceEncoder.createMediaCodec(SurfaceEncoder.java:247)`)
        .then(() => this.terminate('the video thread ended'));
      return;
    }
    if (this.options.displayId !== 0) {
      // ScreenCapture.prepare, before the header: ConfigurationException, whose message was logged (no stack
      // trace); the video thread ends, and with it the server. The emulated phone has display 0 only.
      void this.log('ERROR', `Display ${this.options.displayId} not found\n${this.displayList()}`).then(() => this.terminate('the video thread ended'));
      return;
    }
    this.prepareCapture();
    if (this.options.sendCodecMeta) {
      const header = Buffer.alloc(12);
      header.writeUInt32BE(CODEC_H264, 0);
      header.writeUInt32BE(this.size.width, 4);
      header.writeUInt32BE(this.size.height, 8);
      void video.write(header);
    }
    this.tickMs = Math.max(10, Math.round(1000 / (this.options.maxFps || 60)));
    this.ticker = setInterval(() => {
      if (!this.encoder && !this.videoEnded && !this.host.faults.holdCapture) this.startCapture();
      void this.frame();
    }, this.tickMs);
    this.ticker.unref();
    // SurfaceEncoder.streamCapture writes the header after capture.prepare(), before capture.start().
    if (!this.host.faults.holdCapture) this.startCapture();
  }

  private async printLists(): Promise<void> {
    await printLists(this.options.lists, this.videoEncoders(), this.displayList(), this.host.android.api, (message) => this.log('INFO', message));
  }

  private videoEncoders(): EncoderInfo[] {
    return phoneVideoEncoders(this.host.ffmpeg !== undefined && !this.host.faults.noEncoder, this.host.android.api);
  }

  /** The emulated phone has display 0 only, at its current size. */
  private displayList(): string {
    const { width, height } = this.host.phone.size;
    return displayListMessage([{ id: 0, width, height }]);
  }

  /** A new capture size (rotation) or RESET_VIDEO: a fresh encoder, so a new CONFIG packet and a key frame. */
  private restartEncoder(): void {
    this.prepareCapture();
    this.startCapture();
  }

  /** ScreenCapture.prepare: the video size for the screen as it is now. */
  private prepareCapture(): void {
    const { width, height } = this.host.phone.size;
    this.sourceSize = { width, height };
    this.size = videoSize(width, height, this.retries.maxSize);
  }

  /** ScreenCapture.start (it calls Controller.onNewVirtualDisplay, which maps touches from then on) and MediaCodec.start: CONFIG and frames follow. */
  private startCapture(): void {
    this.encoder?.stop();
    this.encoder = undefined;
    if (!this.configure()) return;
    this.mapped = true;
    this.host.captures?.push(`${this.size.width}x${this.size.height}`);
    this.lastSource = undefined;
    this.lastFrame = undefined;
    const fps = this.options.maxFps || 10;
    const gop = Math.max(1, Math.round(this.options.iFrameIntervalS * Math.min(fps, 1000 / REPEAT_AFTER_MS)));
    // SurfaceEncoder.createMediaCodec, for each capture: the encoder it got, at DEBUG.
    void this.log('DEBUG', `Using video encoder: '${this.videoEncoders()[0]?.name}'`);
    this.encoder = new H264Encoder(this.host.ffmpeg!, this.size.width, this.size.height, gop, (p) => this.writePacket(p), (why) => this.terminate(`error:Encoding error: ${why}`));
    void this.frame();
  }

  /** MediaCodec.configure, before capture.start: refused (faults.encoderMaxSize) until the size fits or the error is final. */
  private configure(): boolean {
    const limit = this.host.faults.encoderMaxSize;
    while (limit && Math.max(this.size.width, this.size.height) > limit) {
      // The video header already sent keeps the first size.
      if (!this.encodingError(CONFIGURE_ERROR)) return false;
      this.prepareCapture();
    }
    return true;
  }

  /**
   * SurfaceEncoder.streamCapture's catch: `Capture/encoding error`, then prepareRetry. An error it does not
   * retry, an IllegalStateException, escapes the video thread (Server's handler logs it) and the server stops.
   */
  private encodingError(e: JavaException): boolean {
    void this.log('ERROR', encodingErrorLine(e));
    const retry = this.retries.retry(Math.max(this.size.width, this.size.height));
    if (retry === undefined) {
      this.videoEnded = true;
      void this.log('ERROR', stackTrace('Exception on thread Thread[video,5,main]', e)).then(() => this.terminate('the video thread ended'));
      return false;
    }
    if (retry !== 'same') void this.log('INFO', `Retrying with -m${retry}...`);
    return true;
  }

  /** A codec failing while it encodes (faults.encoderErrors): the encoder goes, and comes back if SurfaceEncoder retries. */
  private failEncoding(): void {
    this.host.faults.encoderErrors = (this.host.faults.encoderErrors ?? 1) - 1;
    this.encoder?.stop();
    this.encoder = undefined;
    if (this.encodingError(DEQUEUE_ERROR)) this.restartEncoder();
  }

  private writePacket(packet: EncodedPacket): void {
    if (!this.video) return;
    if (this.host.faults.holdOutput || this.held.length > 0) {
      this.held.push(packet);
      if (!this.host.faults.holdOutput) this.held.splice(0).forEach((p) => this.writeHeld(p));
      return;
    }
    this.writeHeld(packet);
  }

  private writeHeld(packet: EncodedPacket): void {
    if (!this.video) return;
    if (!packet.config) this.retries.frameSent();
    if (this.options.sendFrameMeta) {
      const header = Buffer.alloc(12);
      header.writeBigUInt64BE(packet.config ? FLAG_CONFIG : packet.ptsUs | (packet.key ? FLAG_KEY_FRAME : 0n), 0);
      header.writeUInt32BE(packet.data.length, 8);
      void this.video.write(Buffer.concat([header, packet.data]));
    } else {
      void this.video.write(packet.data);
    }
  }

  /** Encodes the screen when it changed (then once more, so the access unit leaves ffmpeg), else repeats the last frame every 100 ms, 10 times at most. */
  private async frame(): Promise<void> {
    if (this.framing || !this.encoder || (this.video?.pending ?? 0) > MAX_QUEUED_PACKETS) return;
    this.framing = true;
    try {
      const { phone } = this.host;
      if (this.host.faults.encoderErrors) return this.failEncoding();
      if (phone.size.width !== this.sourceSize.width || phone.size.height !== this.sourceSize.height) {
        // DisplaySizeMonitor (the display listener, on its own thread) asks the capture to reset.
        void this.log('VERBOSE', 'DisplaySizeMonitor: onDisplayChanged(0)');
        void this.log('VERBOSE', `DisplaySizeMonitor: requestReset(): ${this.sourceSize.width}x${this.sourceSize.height} -> ${phone.size.width}x${phone.size.height}`);
        return this.restartEncoder();
      }
      const screen = await phone.screenRgba();
      const encoder = this.encoder;
      if (screen.data !== this.lastSource) {
        this.lastSource = screen.data;
        this.lastFrame = await sharp(screen.data, { raw: { width: screen.width, height: screen.height, channels: 4 } })
          .resize(this.size.width, this.size.height, { fit: 'fill' }).raw().toBuffer();
        encoder.encode(this.lastFrame);
        encoder.encode(this.lastFrame);
        this.lastEncodeAt = Date.now();
        this.repeatsLeft = REPEAT_LAST_FRAME_COUNT - 1;
      } else if (this.lastFrame && this.repeatsLeft > 0 && Date.now() - this.lastEncodeAt >= REPEAT_AFTER_MS - this.tickMs / 2) {
        encoder.encode(this.lastFrame);
        this.lastEncodeAt = Date.now();
        this.repeatsLeft--;
      }
    } catch {
      // A frame the renderer could not produce is skipped, as a capture that missed a vsync.
    } finally {
      this.framing = false;
    }
  }

  private startController(socket: DeviceStream, out: SerialWriter): void {
    const controller = new EmulatedController(this.host, {
      log: (level, message) => this.log(level, message),
      stack: (lines) => (LOG_LEVELS.indexOf('ERROR') < LOG_LEVELS.indexOf(this.logLevel) ? Promise.resolve() : this.console.write(`${lines}\n`)),
      sizes: () => ({ video: this.size, source: this.sourceSize, mapped: this.mapped }),
      resetVideo: () => {
        if (this.encoder) this.restartEncoder();
      },
      frame: () => void this.frame(),
      setClipboard: (text) => this.host.copy(text, this),
      stop: (reason) => this.terminate(reason),
    }, out, {
      clipboardAutosync: this.options.clipboardAutosync,
      // Controller.control wakes the screen only when it mirrors display 0.
      powerOn: this.options.powerOn && this.options.displayId === 0,
      video: this.options.video,
    });
    this.controller = controller;
    controller.start(socket);
  }

  /** The clipboard changed by another server or app on the phone. */
  clipboardChanged(text: string): void {
    this.controller?.clipboardChanged(text);
  }

  /** Ln: INFO and below to stdout, WARN and ERROR to stderr (one stream through `shell:`), below the threshold nothing. */
  private log(level: LogLevel, message: string): Promise<void> {
    if (LOG_LEVELS.indexOf(level) < LOG_LEVELS.indexOf(this.logLevel)) return Promise.resolve();
    return this.console.write(`[server] ${level}: ${message}\n`);
  }

  private cleanup(): void {
    clearInterval(this.ticker);
    this.encoder?.stop();
    this.encoder = undefined;
    this.terminate('exited');
    if (this.options) this.host.unlisten(socketName(this.options.scid));
    this.host.exited(this);
  }
}
