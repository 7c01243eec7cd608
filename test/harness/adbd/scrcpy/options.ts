/**
 * The server options of scrcpy 3.3.1, parsed as Options.parse does (server/…/Options.java): `key=value`
 * words after the client version, scid in hex, Java's number and boolean parsers, unknown keys only warned.
 * Options of 3.3.1 the emulation does not act on are accepted (not reported as unknown) and ignored,
 * without checking their values.
 */
export interface ServerOptions {
  clientVersion: string;
  scid: number;
  logLevel: LogLevel;
  tunnelForward: boolean;
  video: boolean;
  audio: boolean;
  control: boolean;
  videoCodec: string;
  displayId: number;
  maxSize: number;
  maxFps: number;
  iFrameIntervalS: number;
  sendDummyByte: boolean;
  sendDeviceMeta: boolean;
  sendCodecMeta: boolean;
  sendFrameMeta: boolean;
  clipboardAutosync: boolean;
  downsizeOnError: boolean;
  powerOn: boolean;
  cleanup: boolean;
  /** list_encoders, list_displays, list_cameras, list_camera_sizes, list_apps: Options.getList() when any is set. */
  lists: { encoders: boolean; displays: boolean; cameras: boolean; cameraSizes: boolean; apps: boolean };
  unknown: string[];
}

/** Ln.Level, in threshold order. */
export const LOG_LEVELS = ['VERBOSE', 'DEBUG', 'INFO', 'WARN', 'ERROR'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Keys Options.parse knows that the emulation ignores (bit rates, camera, crop, display tweaks…). */
const IGNORED = new Set([
  'video_source', 'audio_codec', 'audio_source', 'audio_dup', 'video_bit_rate', 'audio_bit_rate', 'angle', 'crop', 'show_touches', 'stay_awake',
  'screen_off_timeout', 'audio_codec_options', 'video_encoder', 'audio_encoder', 'power_off_on_close', 'camera_id', 'camera_size', 'camera_facing', 'camera_ar', 'camera_fps', 'camera_high_speed',
  'new_display', 'vd_destroy_content', 'vd_system_decorations', 'capture_orientation', 'display_ime_policy',
]);

/** A Java exception as Server.main logs it: `Ln.e(t.getMessage(), t)`, then the stack with the class name. */
export function javaError(className: string, message: string): Error {
  return Object.assign(new Error(message), { name: className });
}

/** `unknown` collects the keys warned about as they are met, also when a later value throws. */
export function parseServerOptions(args: string[], unknown: string[] = []): ServerOptions {
  const [clientVersion = '', ...rest] = args;
  // Options.java field defaults.
  const o: ServerOptions = {
    clientVersion, scid: -1, logLevel: 'DEBUG', tunnelForward: false, video: true, audio: true, control: true, videoCodec: 'h264', displayId: 0,
    maxSize: 0, maxFps: 0, iFrameIntervalS: 10, sendDummyByte: true, sendDeviceMeta: true, sendCodecMeta: true, sendFrameMeta: true,
    clipboardAutosync: true, downsizeOnError: true, powerOn: true, cleanup: true,
    lists: { encoders: false, displays: false, cameras: false, cameraSizes: false, apps: false }, unknown,
  };
  // Boolean.parseBoolean: "true" in any case, anything else false.
  const bool = (v: string) => v.toLowerCase() === 'true';
  for (const arg of rest) {
    const eq = arg.indexOf('=');
    if (eq < 0) throw javaError('java.lang.IllegalArgumentException', `Invalid key=value pair: "${arg}"`);
    const key = arg.slice(0, eq);
    const value = arg.slice(eq + 1);
    switch (key) {
      case 'scid': {
        const scid = parseJavaInt(value, 16);
        if (scid < -1) throw javaError('java.lang.IllegalArgumentException', `scid may not be negative (except -1 for 'none'): ${scid}`);
        o.scid = scid;
        break;
      }
      case 'log_level': {
        const level = value.toUpperCase() as LogLevel;
        if (!LOG_LEVELS.includes(level)) throw javaError('java.lang.IllegalArgumentException', `No enum constant com.genymobile.scrcpy.util.Ln.Level.${level}`);
        o.logLevel = level;
        break;
      }
      case 'video_codec':
        // VideoCodec.findByName.
        if (!['h264', 'h265', 'av1'].includes(value)) throw javaError('java.lang.IllegalArgumentException', `Video codec ${value} not supported`);
        o.videoCodec = value;
        break;
      case 'tunnel_forward': o.tunnelForward = bool(value); break;
      case 'video': o.video = bool(value); break;
      case 'audio': o.audio = bool(value); break;
      case 'control': o.control = bool(value); break;
      case 'display_id': o.displayId = parseJavaInt(value, 10); break;
      case 'max_size': o.maxSize = parseJavaInt(value, 10) & ~7; break;
      case 'max_fps': o.maxFps = parseJavaFloat('max_fps', value); break;
      case 'send_dummy_byte': o.sendDummyByte = bool(value); break;
      case 'send_device_meta': o.sendDeviceMeta = bool(value); break;
      case 'send_codec_meta': o.sendCodecMeta = bool(value); break;
      case 'send_frame_meta': o.sendFrameMeta = bool(value); break;
      case 'clipboard_autosync': o.clipboardAutosync = bool(value); break;
      case 'downsize_on_error': o.downsizeOnError = bool(value); break;
      case 'power_on': o.powerOn = bool(value); break;
      case 'cleanup': o.cleanup = bool(value); break;
      case 'list_encoders': o.lists.encoders = bool(value); break;
      case 'list_displays': o.lists.displays = bool(value); break;
      case 'list_cameras': o.lists.cameras = bool(value); break;
      case 'list_camera_sizes': o.lists.cameraSizes = bool(value); break;
      case 'list_apps': o.lists.apps = bool(value); break;
      case 'raw_stream':
        if (bool(value)) o.sendDummyByte = o.sendDeviceMeta = o.sendCodecMeta = o.sendFrameMeta = false;
        break;
      case 'video_codec_options': {
        const interval = parseCodecOptions(value).get('i-frame-interval');
        if (interval !== undefined) o.iFrameIntervalS = Number(interval);
        break;
      }
      default:
        if (!IGNORED.has(key)) o.unknown.push(key);
    }
  }
  return o;
}

/**
 * CodecOption.parse: `key[:type]=value` separated by commas (`\,` and `\\` escaped), type int (the
 * default), long, float or string. A bad option makes Options.parse, hence the server, fail.
 */
export function parseCodecOptions(text: string): Map<string, number | string> {
  const options = new Map<string, number | string>();
  let buf = '';
  let escape = false;
  const flush = () => {
    const eq = buf.indexOf('=');
    if (eq < 0) throw javaError('java.lang.IllegalArgumentException', "'=' expected");
    const keyAndType = buf.slice(0, eq);
    if (!keyAndType) throw javaError('java.lang.IllegalArgumentException', 'Key may not be null');
    const colon = keyAndType.indexOf(':');
    const key = colon < 0 ? keyAndType : keyAndType.slice(0, colon);
    const type = colon < 0 ? 'int' : keyAndType.slice(colon + 1);
    const value = buf.slice(eq + 1);
    if (type === 'int') options.set(key, parseJavaInt(value, 10));
    else if (type === 'long') options.set(key, parseJavaLong(value));
    else if (type === 'float') options.set(key, parseJavaFloat(key, value, true));
    else if (type === 'string') options.set(key, value);
    else throw javaError('java.lang.IllegalArgumentException', `Invalid codec option type (int, long, float, str): ${type}`);
    buf = '';
  };
  for (const c of text) {
    // As in the Java loop, a backslash before any other character is dropped and stays pending.
    if (c === '\\') {
      if (escape) buf += c;
      escape = !escape;
    } else if (c === ',') {
      if (escape) buf += c;
      else flush();
      escape = false;
    } else buf += c;
  }
  if (buf) flush();
  return options;
}

/** Integer.parseInt: optional sign and digits of the radix only, within 32 bits. */
function parseJavaInt(text: string, radix: 10 | 16): number {
  const digits = radix === 16 ? /^[+-]?[0-9a-fA-F]+$/ : /^[+-]?[0-9]+$/;
  const value = digits.test(text) ? Number.parseInt(text, radix) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < -0x80000000 || value > 0x7fffffff) {
    throw javaError('java.lang.NumberFormatException', `For input string: "${text}"${radix === 10 ? '' : ` under radix ${radix}`}`);
  }
  return value;
}

function parseJavaLong(text: string): number {
  if (!/^[+-]?[0-9]+$/.test(text) || BigInt(text) > 0x7fffffffffffffffn || BigInt(text) < -0x8000000000000000n) {
    throw javaError('java.lang.NumberFormatException', `For input string: "${text}"`);
  }
  return Number(text);
}

/** Float.parseFloat (surrounding whitespace trimmed, f/d suffix allowed); Options.parseFloat rewords its error. */
function parseJavaFloat(key: string, text: string, raw = false): number {
  const t = text.trim();
  if (!/^[+-]?(?:NaN|Infinity|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?[fFdD]?)$/.test(t)) {
    if (raw) throw javaError('java.lang.NumberFormatException', `For input string: "${text}"`);
    throw javaError('java.lang.IllegalArgumentException', `Invalid float value for ${key}: "${text}"`);
  }
  return Number.parseFloat(t);
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
