import { spawn, type ChildProcess } from 'node:child_process';

/** One encoded packet as MediaCodec hands it to scrcpy's Streamer. */
export interface EncodedPacket {
  data: Buffer;
  config: boolean;
  key: boolean;
  ptsUs: bigint;
}

const START_CODE = Buffer.from([0, 0, 0, 1]);
const NAL_SLICE_IDR = 5;
const NAL_SPS = 7;
const NAL_PPS = 8;
const NAL_AUD = 9;

/**
 * The emulated phone's MediaCodec: raw RGBA frames in, H.264 Annex-B packets out, through an ffmpeg
 * process (libx264, baseline, zero latency). Access units are split on the AUDs x264 writes (aud=1), so a
 * unit is complete when the next one starts: callers push a repeat frame after each change, as a real
 * encoder repeats the previous frame (KEY_REPEAT_PREVIOUS_FRAME_AFTER). The first unit's SPS/PPS become
 * one CONFIG packet, as MediaCodec emits BUFFER_FLAG_CODEC_CONFIG once per configure.
 */
export class H264Encoder {
  private readonly process: ChildProcess;
  private pending: Buffer = Buffer.alloc(0);
  private sentConfig = false;
  private stopped = false;
  private readonly startedAt = process.hrtime.bigint();

  constructor(
    ffmpeg: string,
    readonly width: number,
    readonly height: number,
    keyFrameEvery: number,
    private readonly onPacket: (packet: EncodedPacket) => void,
    private readonly onError: (message: string) => void,
  ) {
    this.process = spawn(ffmpeg, [
      '-hide_banner', '-loglevel', 'error', '-f', 'rawvideo', '-pix_fmt', 'rgba', '-s', `${width}x${height}`, '-r', '30', '-i', '-',
      '-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-profile:v', 'baseline', '-pix_fmt', 'yuv420p',
      '-g', String(keyFrameEvery), '-x264-params', 'aud=1:repeat-headers=1', '-flush_packets', '1', '-f', 'h264', '-',
    ], { stdio: ['pipe', 'pipe', 'pipe'], env: process.env });
    this.process.stdout!.on('data', (chunk: Buffer) => this.receive(chunk));
    let stderr = '';
    this.process.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    this.process.stdin!.on('error', () => undefined);
    this.process.on('error', (err) => this.fail(err.message));
    this.process.on('exit', (code) => {
      if (!this.stopped) this.fail(`ffmpeg exited with ${code}: ${stderr.trim().slice(-300)}`);
    });
  }

  get pid(): number | undefined {
    return this.process.pid;
  }

  /** Frames must be width×height×4 bytes. */
  encode(rgba: Buffer): void {
    if (!this.stopped) this.process.stdin!.write(rgba);
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.process.stdin!.destroy();
    this.process.kill('SIGKILL');
  }

  private fail(message: string): void {
    if (this.stopped) return;
    this.stopped = true;
    this.onError(message);
  }

  private receive(chunk: Buffer): void {
    if (this.stopped) return;
    this.pending = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    // Each AUD after the first closes the access unit before it.
    for (;;) {
      const next = findAud(this.pending, 1);
      if (next < 0) return;
      const unit = this.pending.subarray(0, next);
      this.pending = this.pending.subarray(next);
      this.emitUnit(unit);
    }
  }

  private emitUnit(unit: Buffer): void {
    const nals = splitNals(unit).filter((n) => (n[0] & 0x1f) !== NAL_AUD);
    const config = nals.filter((n) => [NAL_SPS, NAL_PPS].includes(n[0] & 0x1f));
    const picture = nals.filter((n) => ![NAL_SPS, NAL_PPS].includes(n[0] & 0x1f));
    if (!picture.length && !config.length) return;
    const ptsUs = (process.hrtime.bigint() - this.startedAt) / 1000n;
    if (config.length && !this.sentConfig) {
      this.sentConfig = true;
      this.onPacket({ data: annexB(config), config: true, key: false, ptsUs: 0n });
      if (!picture.length) return;
      this.onPacket({ data: annexB(picture), config: false, key: picture.some((n) => (n[0] & 0x1f) === NAL_SLICE_IDR), ptsUs });
      return;
    }
    // Later IDRs keep their in-band SPS/PPS, as many device encoders emit them.
    const key = picture.some((n) => (n[0] & 0x1f) === NAL_SLICE_IDR);
    this.onPacket({ data: annexB(nals), config: false, key, ptsUs });
  }
}

/** Offset of the first AUD start code at or after `from`, or -1. */
function findAud(buffer: Buffer, from: number): number {
  for (let i = buffer.indexOf(START_CODE, from); i >= 0; i = buffer.indexOf(START_CODE, i + 1)) {
    if (i + 4 < buffer.length && (buffer[i + 4] & 0x1f) === NAL_AUD) return i;
    if (i + 4 >= buffer.length) return -1;
  }
  return -1;
}

/** NAL units without start codes (x264 writes 4-byte codes before SPS/PPS/AUD and 3-byte ones elsewhere). */
function splitNals(unit: Buffer): Buffer[] {
  const starts: { at: number; len: number }[] = [];
  for (let i = 0; i + 2 < unit.length; i++) {
    if (unit[i] === 0 && unit[i + 1] === 0 && unit[i + 2] === 1) {
      starts.push({ at: i + 3, len: 3 });
      i += 2;
    }
  }
  return starts.map((s, k) => {
    let end = k + 1 < starts.length ? starts[k + 1].at - 3 : unit.length;
    if (k + 1 < starts.length && end > 0 && unit[end - 1] === 0) end--;
    return unit.subarray(s.at, end);
  }).filter((n) => n.length > 0);
}

function annexB(nals: Buffer[]): Buffer {
  return Buffer.concat(nals.flatMap((n) => [START_CODE, n]));
}
