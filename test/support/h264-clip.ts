import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';

/** One packet as a MediaCodec encoder (and so scrcpy) emits them: SPS+PPS alone, then one access unit per picture. */
export interface ClipPacket {
  data: Buffer;
  config: boolean;
  key: boolean;
}

export interface ClipOptions {
  width: number;
  height: number;
  fps: number;
  seconds: number;
  /** Frames from one key frame to the next. */
  gop: number;
}

/**
 * A moving test picture encoded once with ffmpeg (libx264 Baseline, an access-unit delimiter
 * before each picture so the stream splits without parsing slices).
 */
export async function encodeClip(ffmpeg: string, o: ClipOptions): Promise<ClipPacket[]> {
  const { stdout } = await promisify(execFile)(
    ffmpeg,
    ['-v', 'error', '-f', 'lavfi', '-i', `testsrc2=size=${o.width}x${o.height}:rate=${o.fps}`, '-t', String(o.seconds), '-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency',
      '-profile:v', 'baseline', '-pix_fmt', 'yuv420p', '-g', String(o.gop), '-keyint_min', String(o.gop), '-sc_threshold', '0', '-x264-params', 'aud=1', '-f', 'h264', '-'],
    { encoding: 'buffer', maxBuffer: 256 * 1024 * 1024 },
  );
  return splitAnnexB(stdout);
}

/** NAL units of an Annex-B stream, each with its start code. */
function nalUnits(stream: Buffer): Buffer[] {
  const starts: number[] = [];
  for (let i = 0; i + 3 <= stream.length; i++) {
    if (stream[i] === 0 && stream[i + 1] === 0 && (stream[i + 2] === 1 || (stream[i + 2] === 0 && stream[i + 3] === 1))) {
      starts.push(i);
      i += stream[i + 2] === 1 ? 2 : 3;
    }
  }
  return starts.map((s, n) => stream.subarray(s, starts[n + 1] ?? stream.length));
}

function nalType(nal: Buffer): number {
  const header = nal[2] === 1 ? nal[3] : nal[4];
  return header & 0x1f;
}

/** Groups NAL units the way MediaCodec hands them out: a config packet when SPS/PPS appear, then the picture. */
export function splitAnnexB(stream: Buffer): ClipPacket[] {
  const out: ClipPacket[] = [];
  let config: Buffer[] = [];
  let picture: Buffer[] = [];
  let key = false;
  const flush = () => {
    if (config.length) out.push({ data: Buffer.concat(config), config: true, key: false });
    if (picture.length) out.push({ data: Buffer.concat(picture), config: false, key });
    config = [];
    picture = [];
    key = false;
  };
  for (const nal of nalUnits(stream)) {
    const type = nalType(nal);
    if (type === 9) flush();
    else if (type === 7 || type === 8) config.push(nal);
    else {
      if (type === 5) key = true;
      picture.push(nal);
    }
  }
  flush();
  return out;
}

/** Decodes Annex-B access units, in order, with ffmpeg: pictures decoded and anything it complained about. */
export function decodeWithFfmpeg(ffmpeg: string, units: Uint8Array[]): Promise<{ pictures: number; errors: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(ffmpeg, ['-v', 'error', '-f', 'h264', '-i', '-', '-fps_mode', 'passthrough', '-f', 'framemd5', '-'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let errors = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (errors += d.toString()));
    child.on('error', reject);
    child.on('close', () => resolve({ pictures: out.split('\n').filter((l) => l && !l.startsWith('#')).length, errors: errors.trim() }));
    for (const u of units) child.stdin.write(u);
    child.stdin.end();
  });
}
