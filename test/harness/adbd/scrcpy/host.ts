import type { VirtualDevice } from '../../../../src/engine/drivers/virtual/index.js';
import type { DeviceFiles } from '../files.js';
import type { ScrcpyServerProcess } from './server-process.js';

/** What the harness can make a scrcpy server do wrong. */
export interface ScrcpyFaults {
  /** The version the server reports (a stale or foreign jar): Options.parse refuses a different client version. */
  version?: string;
  /** The server starts but never binds its socket. */
  neverBind?: boolean;
  /** InputManager refuses injection (MIUI without "USB debugging (Security settings)"): each injection is logged (at most every 3 s) and skipped; the server keeps running. */
  refuseInjection?: boolean;
  /**
   * The next this many injections throw inside InputManager.injectInputEvent (invoked by reflection): the
   * wrapper logs "Could not invoke method" with the stack and returns false; the controller carries on.
   */
  invokeFails?: number;
  /** MediaCodec has no H.264 encoder to create (as when ffmpeg is missing on the test machine). */
  noEncoder?: boolean;
  /** The capture does not start after the video header (a slow SurfaceEncoder): no CONFIG, no frames, and no touch mapping, until cleared. */
  holdCapture?: boolean;
  /**
   * MediaCodec has not output anything yet (a hardware encoder can take a few hundred ms after start):
   * packets wait until cleared, while the capture, and with it the touch mapping, already runs at its size.
   */
  holdOutput?: boolean;
  /** ClipboardManager does not take the text (the ACK is sent anyway, "Device clipboard set" is not logged). */
  refuseClipboard?: boolean;
  /** MediaCodec.configure refuses a video whose longer side exceeds this (a device encoder's limit): SurfaceEncoder retries smaller. */
  encoderMaxSize?: number;
  /**
   * The next this many encodes fail mid-stream (MediaCodec.dequeueOutputBuffer throws): each is logged
   * and the encoder restarted (a new configuration and key frame), until three in a row end the server.
   */
  encoderErrors?: number;
  /**
   * A character no key map types is skipped without the WARN line 3.3.1's Controller.injectText
   * logs (a patched server, or a log we do not get): the client's input probe never shows.
   */
  silentSkips?: boolean;
  /**
   * Characters the device's key character map has no keys for (a vendor's keyboard layout without
   * them): Controller.injectText logs `Could not inject char u+xxxx` for each and types the rest.
   */
  untypable?: string;
  /**
   * Runs before the controller handles a message of this type (ControlMessageReader's type names:
   * 'setClipboard', 'injectText', 'key', …): a test unplugs the phone there, as a cable pulled while
   * the server types.
   */
  beforeControl?: (type: string) => Promise<void> | void;
}

/** The phone's power state as PowerManager and the keyguard have it (the shell emulation keeps it). */
export interface PhonePower {
  /** PowerManager.isScreenOn. */
  screenOn(): boolean;
  /** Injected input reaches the app: the screen is on and no keyguard is in front. */
  inputReachesApp(): boolean;
  /** What KEYCODE_POWER (26) or KEYCODE_WAKEUP (224) does to the screen. */
  pressKey(keycode: number): void;
}

/** The parts of the phone a server acts on, shared by all its runs. */
export interface ScrcpyHost {
  phone: VirtualDevice;
  files: DeviceFiles;
  faults: ScrcpyFaults;
  ffmpeg: string | undefined;
  /** Build.VERSION.SDK_INT and RELEASE of the phone. */
  readonly android: { api: number; release: string };
  /** What the phone's clipboard holds; change it through `copy`, which the servers' clipboard listeners see. */
  readonly clipboard: string;
  readonly power: PhonePower;
  copy(text: string, by?: ScrcpyServerProcess): void;
  /** SHA-256 of the jar the last server ran from. */
  ranJarSha256: string | undefined;
  /** What the controller injected, in order (`tap x,y`, `key 4`, `text abc`, `paste 日本`). */
  injected: string[];
  touchLog?: string[];
  /** The video size of each capture started (ScreenCapture.start, which installs the touch mapping). */
  captures?: string[];
  listen(name: string, server: ScrcpyServerProcess): void;
  unlisten(name: string): void;
  exited(server: ScrcpyServerProcess): void;
}
