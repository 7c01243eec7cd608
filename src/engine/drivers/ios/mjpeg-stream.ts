import { connect, type Socket } from 'node:net';

import type { VideoPacket, VideoStream } from '../../driver.js';
import { ToolError } from '../../errors.js';
import { exifOrientation, uprightJpeg } from './jpeg-orientation.js';

/** Bytes before the first part beyond which the answer is not WDA's MJPEG server. */
const MAX_HEADER_BYTES = 16 * 1024;
/** A part claiming more than this is a framing error, not a screenshot. */
const MAX_PART_BYTES = 32 * 1024 * 1024;
/** WDA's longest wait between pictures while it works: FAILURE_BACKOFF_MAX after failed screenshots plus one FRAME_TIMEOUT (FBMjpegServer.m). */
const MAX_PICTURE_GAP_S = 11;

/** Width and height from a JPEG's start-of-frame segment, or undefined if it has none. */
export function jpegSize(jpeg: Buffer): { width: number; height: number } | undefined {
  let i = 2;
  while (i + 9 < jpeg.length) {
    if (jpeg[i] !== 0xff) {
      i++;
      continue;
    }
    const marker = jpeg[i + 1];
    // SOF0..SOF15 carry the size; C4 (DHT), C8 (JPG) and CC (DAC) share the range but do not.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: jpeg.readUInt16BE(i + 5), width: jpeg.readUInt16BE(i + 7) };
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0xff) {
      i += marker === 0xff ? 1 : 2;
      continue;
    }
    i += 2 + jpeg.readUInt16BE(i + 2);
  }
  return undefined;
}

/**
 * Splits WDA's `multipart/x-mixed-replace` answer into JPEG pictures. WDA declares
 * `boundary=--BoundaryString` yet writes `--BoundaryString` before each part, so parts are found by
 * their Content-Length, not by RFC 2046 boundaries (appium/WebDriverAgent FBMjpegServer.m).
 */
export class MjpegParser {
  private buffer: Buffer = Buffer.alloc(0);
  private headerDone = false;

  /** The stream's HTTP header came: WDA's MJPEG server is there, whether or not a picture follows. */
  get answered(): boolean {
    return this.headerDone;
  }

  /** Feeds bytes; returns the pictures completed by them. Throws on anything that is not WDA's framing. */
  push(chunk: Buffer): Buffer[] {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    const out: Buffer[] = [];
    if (!this.headerDone) {
      const end = this.buffer.indexOf('\r\n\r\n');
      if (end < 0) {
        if (this.buffer.length > MAX_HEADER_BYTES) throw new Error('no HTTP header end in the first 16 KiB');
        return out;
      }
      const head = this.buffer.subarray(0, end).toString('latin1');
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(head);
      if (!status) throw new Error(`the answer is not HTTP: ${JSON.stringify(head.slice(0, 40))}`);
      if (status[1] !== '200') throw new Error(`HTTP ${status[1]} instead of the picture stream`);
      if (!/content-type:\s*multipart\/x-mixed-replace/i.test(head)) throw new Error('the answer is not a multipart/x-mixed-replace picture stream');
      this.headerDone = true;
      this.buffer = this.buffer.subarray(end + 4);
    }
    for (;;) {
      // Whatever sits between parts (the previous part's trailing CRLFs, the boundary line) is skipped up to the part headers' end.
      const end = this.buffer.indexOf('\r\n\r\n');
      const head = end >= 0 ? this.buffer.subarray(0, end).toString('latin1') : '';
      if (end >= 0 && !/content-length/i.test(head)) {
        this.buffer = this.buffer.subarray(end + 4);
        continue;
      }
      if (end < 0) {
        if (this.buffer.length > MAX_HEADER_BYTES) throw new Error('a part has no Content-Length header');
        return out;
      }
      const length = Number(/content-length:\s*(\d+)/i.exec(head)?.[1]);
      if (!Number.isSafeInteger(length) || length > MAX_PART_BYTES) throw new Error(`a part declares an unusable Content-Length (${/content-length:\s*(\S*)/i.exec(head)?.[1]})`);
      if (this.buffer.length < end + 4 + length) return out;
      out.push(Buffer.from(this.buffer.subarray(end + 4, end + 4 + length)));
      this.buffer = this.buffer.subarray(end + 4 + length);
    }
  }
}

export interface MjpegTarget {
  host: string;
  port: number;
  /** Who is streaming, for messages. */
  label: string;
  /** Runs when the stream closes (a usbmuxd relay to close). */
  release?(): void;
}

/** How long `open` waits for WDA's MJPEG server. */
export interface MjpegWait {
  /** For the first picture while the server has not even sent its HTTP header: then it is likely not there. */
  firstPictureMs: number;
  /**
   * For the first picture once the header came. WDA writes the header at once but takes the pictures on its
   * own clock, and after a failed screenshot (XCTest gives it FRAME_TIMEOUT, 1 s) it waits 2 s, then 4 s, 8 s
   * before trying again (FBMjpegServer.m FAILURE_BACKOFF_MIN/MAX): a first picture 6–7 s late is a live server.
   */
  answeredMs: number;
  /**
   * For each next picture once live. WDA sends one per tick (at least 1 a second here) whether or not the
   * screen changed, and while its screenshots fail it tries again after at most FAILURE_BACKOFF_MAX (10 s)
   * plus its 1 s FRAME_TIMEOUT: a longer silence is a stalled server or a link that carries nothing, and the
   * last picture must not go on being shown as live.
   */
  stalledMs: number;
}

/**
 * WDA's MJPEG server as a VideoStream of `jpeg` packets. The server starts sending only after the
 * client wrote something, so a request line goes out first; `open` resolves with the first picture,
 * and throws when nothing (or something else) answers, or no picture comes, within `wait`.
 * Pictures come out upright: in landscape XCTest stores them portrait with an EXIF orientation, which WDA
 * passes on unless mjpegFixOrientation is set (FBImageProcessor.m) or the build predates it (5.15.1);
 * such pictures are turned here, as a viewer placing them by their stored size would show them sideways.
 */
export class MjpegStream implements VideoStream {
  readonly codec = 'jpeg';
  readonly source = 'wda-mjpeg';
  private readonly queue: VideoPacket[] = [];
  private failure?: Error;
  private ended = false;
  private wake?: () => void;
  /** Pictures waiting to be turned upright, newest last; while any waits, the upright ones queue behind it. */
  private readonly toTurn: { jpeg: Buffer; capturedAt: number }[] = [];
  private turning = false;
  private stallTimer?: NodeJS.Timeout;

  private constructor(
    private readonly socket: Socket,
    private readonly target: MjpegTarget,
    private readonly framerate?: (fps: number) => Promise<unknown>,
  ) {}

  /** `framerate` sets WDA's mjpegServerFramerate, which its server reads before every picture (FBMjpegServer.m). */
  static open(target: MjpegTarget, wait: MjpegWait, framerate?: (fps: number) => Promise<unknown>): Promise<MjpegStream> {
    const where = `WebDriverAgent's MJPEG server of ${target.label} at ${target.host}:${target.port}`;
    return new Promise((resolve, reject) => {
      const socket = connect({ host: target.host, port: target.port });
      const stream = new MjpegStream(socket, target, framerate);
      const parser = new MjpegParser();
      let settled = false;
      const fail = (message: string) => {
        if (!settled) {
          settled = true;
          clearTimeout(timer);
          socket.destroy();
          target.release?.();
          reject(new ToolError('UNSUPPORTED', `${where} ${message}`));
        } else stream.end(new Error(`${where} ${message}`));
      };
      const opened = performance.now();
      let timer = setTimeout(() => fail(`sent nothing within ${wait.firstPictureMs} ms (does this WebDriverAgent build have the MJPEG server, on the expected port?)`), wait.firstPictureMs);
      const answered = () => {
        clearTimeout(timer);
        const left = Math.max(0, wait.answeredMs - (performance.now() - opened));
        timer = setTimeout(
          () => fail(`answered but sent no picture within ${wait.answeredMs} ms: WebDriverAgent could not take a screenshot (it retries after 2, 4, 8 s; its log says why, e.g. "Cannot take a screenshot within 1000 ms timeout")`),
          left,
        );
      };
      socket.setNoDelay(true);
      socket.once('connect', () => socket.write(`GET / HTTP/1.1\r\nHost: ${target.host}:${target.port}\r\n\r\n`));
      socket.on('data', (chunk: Buffer) => {
        let pictures: Buffer[];
        const before = parser.answered;
        try {
          pictures = parser.push(chunk);
        } catch (err) {
          fail(`broke its framing: ${(err as Error).message}`);
          return;
        }
        if (!before && parser.answered && !settled && !pictures.length) answered();
        for (const jpeg of pictures) stream.receive(jpeg);
        if (pictures.length) stream.expectNext(wait.stalledMs);
        if (pictures.length && !settled) {
          settled = true;
          clearTimeout(timer);
          resolve(stream);
        }
      });
      socket.on('error', (err: NodeJS.ErrnoException) => fail(`is unreachable: ${err.code ?? err.message}`));
      socket.on('close', () => fail('closed the connection'));
    });
  }

  async *packets(): AsyncIterable<VideoPacket> {
    for (;;) {
      const next = this.queue.shift();
      if (next) {
        yield next;
        continue;
      }
      if (this.failure) throw this.failure;
      if (this.ended) return;
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = undefined;
    }
  }

  async setMaxFps(maxFps: number): Promise<void> {
    if (!this.framerate) throw new Error(`the framerate of ${this.target.label}'s MJPEG server cannot be changed while it streams`);
    await this.framerate(maxFps);
  }

  async close(): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    clearTimeout(this.stallTimer);
    this.socket.destroy();
    this.target.release?.();
    this.wake?.();
  }

  /** Ends the stream unless another whole picture comes within `ms` (bytes of a part cut short do not count). */
  private expectNext(ms: number): void {
    clearTimeout(this.stallTimer);
    if (this.ended) return;
    this.stallTimer = setTimeout(
      () => this.end(new Error(`WebDriverAgent's MJPEG server of ${this.target.label} sent no picture for ${ms / 1000} s though it sends one at least every ${MAX_PICTURE_GAP_S} s while it works: the stream stalled (WebDriverAgent busy or hung, or the link to it dropped)`)),
      ms,
    );
  }

  private receive(jpeg: Buffer): void {
    const capturedAt = Date.now();
    if (!this.turning && exifOrientation(jpeg) === 1) return this.add(jpeg, capturedAt);
    // Only the newest pictures matter: turning that lags drops the older ones.
    if (this.toTurn.length >= 2) this.toTurn.shift();
    this.toTurn.push({ jpeg, capturedAt });
    if (!this.turning) void this.turnAll();
  }

  private async turnAll(): Promise<void> {
    this.turning = true;
    for (let next = this.toTurn.shift(); next && !this.ended; next = this.toTurn.shift()) {
      if (exifOrientation(next.jpeg) === 1) {
        this.add(next.jpeg, next.capturedAt);
        continue;
      }
      try {
        const turned = await uprightJpeg(next.jpeg);
        this.add(turned.data, next.capturedAt, turned);
      } catch (err) {
        this.end(new Error(`WebDriverAgent's MJPEG server of ${this.target.label} sent a picture that could not be turned upright: ${(err as Error).message}`));
      }
    }
    this.turning = false;
  }

  private add(jpeg: Buffer, capturedAt: number, known?: { width: number; height: number }): void {
    const size = known ?? jpegSize(jpeg);
    if (!size) {
      this.end(new Error(`WebDriverAgent's MJPEG server of ${this.target.label} sent a part that is not a JPEG picture`));
      return;
    }
    // Only the newest picture matters: a consumer that lags drops the older ones here.
    if (this.queue.length >= 2) this.queue.shift();
    this.queue.push({ data: jpeg, config: false, key: true, capturedAt, width: size.width, height: size.height });
    this.wake?.();
  }

  private end(err: Error): void {
    if (this.ended) return;
    this.failure = err;
    this.ended = true;
    clearTimeout(this.stallTimer);
    this.socket.destroy();
    this.target.release?.();
    this.wake?.();
  }
}
