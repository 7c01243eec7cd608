/** The server options the emulation honours, parsed as scrcpy 3.3.1's Options.parse does (key=value, scid in hex). */
export interface ServerOptions {
  clientVersion: string;
  scid: number;
  tunnelForward: boolean;
  video: boolean;
  audio: boolean;
  control: boolean;
  maxSize: number;
  maxFps: number;
  iFrameIntervalS: number;
  sendDummyByte: boolean;
  sendDeviceMeta: boolean;
  sendCodecMeta: boolean;
  sendFrameMeta: boolean;
  clipboardAutosync: boolean;
  cleanup: boolean;
  unknown: string[];
}

export function parseServerOptions(args: string[]): ServerOptions {
  const [clientVersion = '', ...rest] = args;
  const o: ServerOptions = {
    clientVersion, scid: -1, tunnelForward: false, video: true, audio: true, control: true, maxSize: 0, maxFps: 0,
    iFrameIntervalS: 10, sendDummyByte: true, sendDeviceMeta: true, sendCodecMeta: true, sendFrameMeta: true, clipboardAutosync: true, cleanup: true, unknown: [],
  };
  const bool = (v: string) => v === 'true';
  for (const arg of rest) {
    const eq = arg.indexOf('=');
    if (eq < 0) throw new Error(`Invalid key=value pair: "${arg}"`);
    const key = arg.slice(0, eq);
    const value = arg.slice(eq + 1);
    switch (key) {
      case 'scid': {
        const scid = Number.parseInt(value, 16);
        if (Number.isNaN(scid) || scid < -1) throw new Error(`scid may not be negative (except -1 for 'none'): ${value}`);
        o.scid = scid;
        break;
      }
      case 'tunnel_forward': o.tunnelForward = bool(value); break;
      case 'video': o.video = bool(value); break;
      case 'audio': o.audio = bool(value); break;
      case 'control': o.control = bool(value); break;
      case 'max_size': o.maxSize = Number.parseInt(value, 10) & ~7; break;
      case 'max_fps': o.maxFps = Number.parseFloat(value); break;
      case 'send_dummy_byte': o.sendDummyByte = bool(value); break;
      case 'send_device_meta': o.sendDeviceMeta = bool(value); break;
      case 'send_codec_meta': o.sendCodecMeta = bool(value); break;
      case 'send_frame_meta': o.sendFrameMeta = bool(value); break;
      case 'clipboard_autosync': o.clipboardAutosync = bool(value); break;
      case 'raw_stream':
        if (bool(value)) o.sendDummyByte = o.sendDeviceMeta = o.sendCodecMeta = o.sendFrameMeta = false;
        break;
      case 'video_codec_options': {
        const interval = /(?:^|,)i-frame-interval(?::\w+)?=([\d.]+)/.exec(value);
        if (interval) o.iFrameIntervalS = Number(interval[1]);
        break;
      }
      case 'cleanup': o.cleanup = bool(value); break;
      case 'log_level': case 'video_bit_rate': case 'power_on': case 'video_codec': case 'stay_awake': break;
      default: o.unknown.push(key);
    }
  }
  return o;
}

/** DesktopConnection.getSocketName. */
export function socketName(scid: number): string {
  return scid === -1 ? 'scrcpy' : `scrcpy_${scid.toString(16).padStart(8, '0')}`;
}

/** Size.limit(maxSize).round8() of scrcpy 3.3.1. */
export function videoSize(width: number, height: number, maxSize: number): { width: number; height: number } {
  const portrait = height > width;
  let major = portrait ? height : width;
  let minor = portrait ? width : height;
  if (maxSize > 0 && major > maxSize) {
    minor = Math.floor((maxSize * minor) / major);
    major = maxSize;
  }
  if ((major & 7) !== 0 || (minor & 7) !== 0) {
    major &= ~7;
    minor = (minor + 4) & ~7;
    if (minor > major) minor = major;
  }
  return portrait ? { width: minor, height: major } : { width: major, height: minor };
}
