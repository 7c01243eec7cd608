import type { Button, DeviceInfo, FingerPath, InstalledApp, Key, CtrlLetter, Orientation, TouchPhase, UiElement } from './types.js';
import type { ScreenSize } from './ui-tree.js';

/** Elements on screen; `note` says what the listing may be missing. */
export type ElementListing = UiElement[] & { note?: string };

/**
 * Per-call context. `signal` aborts when the engine's deadline passes, so a driver
 * can cancel sockets or child processes instead of leaving work running.
 */
export interface CallContext {
  signal: AbortSignal;
  /**
   * When `signal` aborts, in performance.now() time; absent when the call has no deadline. Work that
   * waits on the device by choice (a launch waiting for the first frame) stops in time to answer.
   */
  deadline?: number;
}

export interface PngImage {
  png: Buffer;
  width: number;
  height: number;
}

/** Uncompressed pixels, row after row, `channels` bytes per pixel (RGB or RGBA). */
export interface RawImage {
  data: Buffer;
  width: number;
  height: number;
  channels: 3 | 4;
  /**
   * The caller is done reading `data`: the driver may draw a later screen into it. Optional both
   * ways: a driver that reuses nothing leaves it out, and a buffer never released is never rewritten.
   */
  release?(): void;
}

/** The image size a consumer wants for a screen of `width`×`height` device pixels: never larger. */
export type FitSize = (width: number, height: number) => { width: number; height: number };

/**
 * A screen taken for one consumer: raw pixels already shrunk to the fitted size while they were
 * read (`screenWidth`×`screenHeight` is the screen's size in device pixels), or the device's own
 * PNG at full size when that was the faster way to get it.
 */
export type FittedScreen = { shrunk: RawImage; screenWidth: number; screenHeight: number; png?: undefined } | { png: PngImage; shrunk?: undefined };

/**
 * One connected device. Drivers report failures by throwing `ToolError` with the
 * SPEC §2 code; anything else thrown becomes INTERNAL. Coordinates are device pixels.
 * The engine serializes calls per device, validates parameters, and enforces deadlines,
 * so implementations need none of that.
 */
export interface DeviceHandle {
  readonly info: DeviceInfo;

  listApps(ctx: CallContext): Promise<InstalledApp[]>;
  /**
   * Starts the app (or brings it to the front). Resolves to a note when the device tells how it came
   * up (Android: its first frame drawn, an already running app brought to the front, or a launch
   * Android could not confirm while the app is in front); rejects when the app did not come up.
   */
  launchApp(pkg: string, ctx: CallContext): Promise<void | string>;
  /** Whether the app was running, when the platform tells (Android's force-stop does not). */
  terminateApp(pkg: string, ctx: CallContext): Promise<boolean | undefined>;
  /** Installs the file and returns the package id it held. */
  installApp(path: string, ctx: CallContext): Promise<{ package: string }>;
  uninstallApp(pkg: string, ctx: CallContext): Promise<void>;
  clearAppData(pkg: string, ctx: CallContext): Promise<void>;
  foregroundApp(ctx: CallContext): Promise<{ package: string; name?: string }>;

  screenshot(ctx: CallContext): Promise<PngImage>;
  /**
   * The current screen's raw pixels. Optional: the bridge's frame loop diffs and re-encodes
   * frames itself, so on devices that hand out raw pixels anyway (the virtual phone, Android's
   * raw `screencap`) it should not pay a PNG encode + decode per frame; drivers without a cheap
   * raw source leave it out and callers fall back to `screenshot`.
   */
  screenshotRaw?(ctx: CallContext): Promise<RawImage>;
  /**
   * The screen for a consumer that will shrink it to `fit` anyway (MCP screenshots): a driver that
   * can scale while the pixels arrive, or choose a cheaper capture, does so. Optional.
   */
  screenshotFitted?(fit: FitSize, ctx: CallContext): Promise<FittedScreen>;
  /** A listing the driver cannot vouch for as complete carries a `note` saying why (iOS: WDA's snapshot depth). */
  listElements(ctx: CallContext): Promise<ElementListing>;
  screenSize(ctx: CallContext): Promise<ScreenSize>;

  tap(x: number, y: number, ctx: CallContext): Promise<void>;
  doubleTap(x: number, y: number, ctx: CallContext): Promise<void>;
  longPress(x: number, y: number, durationMs: number, ctx: CallContext): Promise<void>;
  swipe(fromX: number, fromY: number, toX: number, toY: number, durationMs: number, ctx: CallContext): Promise<void>;
  /**
   * Types into the focused field. Throw INVALID_PARAMETER when nothing is focused; where the device
   * cannot tell (key events go to whatever window is in front), resolve to a note saying so, which
   * the result carries instead of claiming the field took the text.
   */
  typeText(text: string, ctx: CallContext): Promise<void | string>;
  /**
   * Empties the focused field (schema 2.2 `clear_first`). Throw INVALID_PARAMETER when nothing is
   * focused; resolve to a note where the device cannot confirm the field is empty.
   */
  clearText?(ctx: CallContext): Promise<void | string>;
  pressButton(button: Button, ctx: CallContext): Promise<void>;
  /**
   * Streamed touch (issue 17: the screen follows a drag). Applies one finger event now. Answers false
   * at `down` when the device cannot stream touches at the moment (the engine then collects the path
   * and replays it on release); once `down` answered true, the same path takes the rest of the stream.
   */
  touch?(phase: TouchPhase, x: number, y: number, ctx: CallContext): Promise<boolean>;
  /**
   * Two fingers down together, each moving in a straight line over `durationMs`, then lifted: a
   * pinch (closer) or spread (apart). Optional: a device without it cannot do two-finger gestures,
   * and the tool says so instead of faking one.
   */
  pinch?(fingers: readonly [FingerPath, FingerPath], durationMs: number, ctx: CallContext): Promise<void>;
  /** Replays a finger path (device pixels; `t` ms after the first point) as one gesture. For devices without streamed touch. */
  tracePath?(path: readonly TracePoint[], ctx: CallContext): Promise<void>;
  /** A keyboard key beyond pressButton. Throw UNSUPPORTED for a key the platform cannot press, never pretend. */
  pressKey?(key: Key, ctx: CallContext): Promise<void>;
  /** Ctrl plus a letter, as a hardware keyboard's shortcut (Ctrl+A: select all). Optional: without it the engine answers UNSUPPORTED. */
  pressCtrl?(letter: CtrlLetter, ctx: CallContext): Promise<void>;
  /** Closes the on-screen keyboard the platform's own way, typing nothing. Optional: verbs fall back to gestures. */
  dismissKeyboard?(ctx: CallContext): Promise<void>;
  /**
   * Resolves to a note when the device can tell that the link landed elsewhere than it asked (the
   * virtual demo app's "Item not found"); real devices hand the link over and cannot tell.
   */
  openUrl(url: string, ctx: CallContext): Promise<void | string>;

  getOrientation(ctx: CallContext): Promise<Orientation>;
  setOrientation(orientation: Orientation, ctx: CallContext): Promise<void>;
  setWifi(enabled: boolean, ctx: CallContext): Promise<void>;

  /**
   * System state the scenario runner checks (dark_mode_active, device_property conditions,
   * preconditions). Optional: a driver leaves out what it cannot read cheaply and the runner
   * falls back (e.g. dark mode from the screenshot's background).
   */
  properties?(ctx: CallContext): Promise<DeviceProperties>;

  /**
   * The device's own live video (SPEC §9): scrcpy H.264 on Android, WDA MJPEG on iOS. Optional:
   * drivers without it (and any failure to start, thrown as ToolError with the reason) make the
   * bridge poll screenshots instead. Called outside the device queue: a stream lives for minutes.
   */
  openVideo?(options: VideoOptions): Promise<VideoStream>;
}

export interface TracePoint {
  x: number;
  y: number;
  t: number;
}

export interface VideoOptions {
  /** Longest side in device pixels the encoder should produce (0 = native). */
  maxSize: number;
  maxFps: number;
}

/** One unit of a device's video: an H.264 access unit (Annex-B) or one JPEG picture. */
export interface VideoPacket {
  data: Buffer;
  /** Codec configuration only (H.264 SPS/PPS); the next key frame needs it to decode. */
  config: boolean;
  /** Decodable on its own (IDR for H.264; every JPEG). */
  key: boolean;
  /** Host clock (ms since epoch) when the packet arrived from the device. */
  capturedAt: number;
  /** Size of the encoded picture (video space, not always the device's pixels). */
  width: number;
  height: number;
}

export interface VideoStream {
  readonly codec: 'h264' | 'jpeg';
  readonly source: 'scrcpy' | 'wda-mjpeg';
  /** Packets in order; the iterator ends when the stream stops and throws when it breaks (reason in the message). */
  packets(): AsyncIterable<VideoPacket>;
  /** Asks the encoder for a fresh configuration + key frame (late joiner, decoder error). */
  requestKeyFrame?(): void;
  /** Changes the rate pictures come at without reopening (absent: the rate asked at opening holds). */
  setMaxFps?(maxFps: number): Promise<void>;
  close(): Promise<void>;
}

export interface DeviceProperties {
  darkMode?: boolean;
  wifi?: boolean;
  network?: 'wifi' | 'cellular' | 'disconnected';
  locationServices?: boolean;
  apiLevel?: number;
  keyboardVisible?: boolean;
}

/** Nothing added or removed: only the driver's problems() changed (a source stopped or started answering). */
export interface DevicesChange {
  added: DeviceInfo[];
  removed: string[];
}

/** Why devices of one source may be missing, for people: `source` names it ("source lab", "peer lab2"). */
export interface SourceNote {
  source: string;
  text: string;
  /** The source it was heard through (a peer bridge's own notes come through "peer lab2"). */
  via?: string;
  /** Not retried: the source stays left out until a restart (a peer that closes a cycle of --peer flags). */
  final?: boolean;
  /**
   * What a person must do for the source to answer, when retrying alone never will (a peer that
   * refuses this bridge's token): without it a log would promise the devices come back by themselves.
   */
  fix?: string;
}

export const noteLine = (note: SourceNote): string => `${note.source}: ${note.text}`;

/** Whether a driver's problems() changed since it last told its watchers: a change of them alone is announced too (Driver.watch). */
export class NotesMemo {
  private last = '';

  changed(notes: readonly SourceNote[]): boolean {
    const key = JSON.stringify(notes);
    const changed = key !== this.last;
    this.last = key;
    return changed;
  }
}

/**
 * A platform: finds devices and opens handles on them. Android, iOS and the
 * virtual device each implement this once.
 */
export interface Driver {
  readonly name: string;
  /**
   * Its ids are another host's (a peer bridge): a device whose id another driver also reports is
   * listed as `id@name` (DeviceIds). Calls on such devices do not go through open().
   */
  readonly renameOnClash?: boolean;
  listDevices(ctx: CallContext): Promise<DeviceInfo[]>;
  /** Returns the handle for a listed device, or undefined when this driver does not know the id. */
  open(id: string, ctx: CallContext): Promise<DeviceHandle | undefined>;
  /**
   * For a driver whose open() takes more ids than it lists (SourceSet opens `serial@source` of a
   * device it lists bare): the device such an id names, as of the last listing: `listed`, the id it
   * is listed by, and `stable`, an id naming it whatever else is listed. Undefined when the id names
   * no listed device. Without it, a driver's ids are its listed ones.
   */
  resolveId?(id: string): { listed: string; stable: string } | undefined;
  /** Optional hot-plug feed, also told when problems() changes; returns an unsubscribe function. */
  watch?(listener: (change: DevicesChange) => void): () => void;
  /** Why devices of this driver may be missing from the last listing (a source that did not answer). */
  problems?(): SourceNote[];
  close(): Promise<void>;
}
