import type { Duplex } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { AndroidKeyCode, AndroidKeyEventAction, AndroidMotionEventAction, ScrcpyControlMessageSerializer, ScrcpyPointerId, type ScrcpyOptions3_3_1 } from '@yume-chan/scrcpy';
import { ToolError } from '../../../errors.js';
import type { ScreenSize } from '../../../ui-tree.js';
import type { ServerLog } from './server-process.js';
import type { VideoSize } from './video-packets.js';

/** One step of a gesture on the control socket. Coordinates are device pixels; `pointer` tells fingers apart (default the generic finger). */
export type ControlStep =
  | { touch: 'down' | 'move' | 'up' | 'cancel'; x: number; y: number; pointer?: bigint }
  | { sleep: number }
  | { key: number };

/** Nothing was sent: the caller may use another input path without doing the gesture twice. */
export class ControlUnavailable extends Error {}

/** ControlMessageReader.INJECT_TEXT_MAX_LENGTH (bytes of UTF-8). */
const INJECT_TEXT_MAX_BYTES = 300;
const CLIPBOARD_ACK_MS = 3000;
const TOUCH_ACTION = { down: AndroidMotionEventAction.Down, move: AndroidMotionEventAction.Move, up: AndroidMotionEventAction.Up, cancel: AndroidMotionEventAction.Cancel } as const;

/**
 * Input over scrcpy's control socket. Positional events carry the current video size, as Controller.java
 * drops events made for another size; coordinates are scaled from device pixels into video space.
 * The protocol has no per-event acknowledgement: a write that fails is an error, and a server that dies
 * during a gesture (a refused injection kills it with a SecurityException) fails the gesture.
 */
export class ControlChannel {
  private readonly serializer: ScrcpyControlMessageSerializer;
  private deadReason: string | undefined;
  private clipboardSequence = 1n;
  /** After a rotation we asked for: the orientation the video must show before positional events are sent. */
  private awaited: { landscape: boolean; until: number } | undefined;

  constructor(
    private readonly socket: Duplex,
    private readonly options: ScrcpyOptions3_3_1<true>,
    private readonly log: ServerLog,
    private readonly serial: string,
    private readonly videoSize: () => VideoSize,
    private readonly deviceSize: () => ScreenSize,
  ) {
    this.serializer = new ScrcpyControlMessageSerializer(options);
    void this.readDeviceMessages();
    // The device pushes its clipboard whenever it changes (clipboard_autosync); nobody here needs it.
    void drain(options.clipboard);
    void drain(options.uHidOutput);
  }

  get alive(): boolean {
    return this.deadReason === undefined && !this.socket.destroyed;
  }

  /** Marks the channel dead with the reason later calls report. */
  kill(reason: string): void {
    this.deadReason ??= reason;
    this.socket.destroy();
  }

  /**
   * The screen is being rotated: until the video shows the new orientation (its CONFIG packet), touches
   * would carry the old video size and the server would drop them, so gestures take another path.
   */
  expectOrientation(landscape: boolean, withinMs = 2_000): void {
    this.awaited = { landscape, until: Date.now() + withinMs };
  }

  async run(steps: ControlStep[], signal: AbortSignal): Promise<void> {
    if (!this.alive) throw new ControlUnavailable(this.deadReason ?? 'control socket closed');
    if (this.awaited && steps.some((s) => 'touch' in s)) {
      const video = this.videoSize();
      if (video.width > video.height === this.awaited.landscape || Date.now() > this.awaited.until) this.awaited = undefined;
      else throw new ControlUnavailable('the video has not caught up with the rotation yet');
    }
    let sent = 0;
    for (const step of steps) {
      if (signal.aborted) throw signal.reason;
      if ('sleep' in step) await sleep(step.sleep, undefined, { signal });
      else if ('key' in step) await this.send([this.key(AndroidKeyEventAction.Down, step.key), this.key(AndroidKeyEventAction.Up, step.key)], sent++ > 0);
      else await this.send([this.touch(step.touch, step.x, step.y, step.pointer)], sent++ > 0);
    }
  }

  /**
   * Printable ASCII goes as INJECT_TEXT (key events from the device's key map); newline and tab as keys;
   * text with anything else is set on the device clipboard and pasted, the only way scrcpy types ß, 日 or emoji.
   */
  async typeText(text: string, signal: AbortSignal): Promise<void> {
    if (!this.alive) throw new ControlUnavailable(this.deadReason ?? 'control socket closed');
    let sent = 0;
    // A line with any non-ASCII is pasted whole: one clipboard round trip, and the order is kept.
    for (const run of text.match(/[^\n\t]+|\n|\t/gu) ?? []) {
      if (signal.aborted) throw signal.reason;
      if (run === '\n' || run === '\t') {
        const code = run === '\n' ? AndroidKeyCode.Enter : AndroidKeyCode.Tab;
        await this.send([this.key(AndroidKeyEventAction.Down, code), this.key(AndroidKeyEventAction.Up, code)], sent++ > 0);
      } else if (/^[\x20-\x7e]+$/.test(run)) {
        for (const chunk of utf8Chunks(run, INJECT_TEXT_MAX_BYTES)) await this.send([this.serializer.injectText(chunk)], sent++ > 0);
      } else {
        await this.paste(run, sent++ > 0);
      }
    }
  }

  /** RESET_VIDEO: the server restarts capture and encoder, so a new CONFIG and key frame follow. */
  requestKeyFrame(): void {
    if (this.alive) this.socket.write(this.serializer.resetVideo());
  }

  /** SET_CLIPBOARD with paste and a sequence: the ACK proves the controller handled it, the log that the clipboard took the text. */
  private async paste(text: string, partly: boolean): Promise<void> {
    const sequence = this.clipboardSequence++;
    const from = this.log.position;
    const serialized = this.serializer.setClipboard({ sequence, paste: true, content: text });
    const [bytes, acked] = Array.isArray(serialized) ? serialized : [serialized, Promise.resolve()];
    acked.catch(() => undefined);
    await this.send([bytes], partly);
    const timeout = sleep(CLIPBOARD_ACK_MS).then(() => 'timeout' as const);
    const outcome = await Promise.race([acked.then(() => 'ack' as const, () => 'closed' as const), timeout]);
    if (outcome !== 'ack') {
      throw new ToolError('INTERNAL', `${this.serial} did not acknowledge the clipboard paste for ${JSON.stringify(text)} (${outcome === 'timeout' ? `no ACK within ${CLIPBOARD_ACK_MS} ms` : this.deadReason ?? 'control socket closed'}); the text may not have been typed`);
    }
    // Controller.setClipboard logs this only when ClipboardManager accepted the text; the ACK comes either way.
    if (!(await this.log.waitFor(/Device clipboard set/, from, 500))) {
      throw new ToolError('INTERNAL', `${this.serial} refused to set its clipboard to ${JSON.stringify(text)}, so it could not be pasted; type it on the on-screen keyboard instead`);
    }
  }

  private touch(kind: 'down' | 'move' | 'up' | 'cancel', x: number, y: number, pointer: bigint = ScrcpyPointerId.Finger): Uint8Array {
    const video = this.videoSize();
    const device = this.deviceSize();
    return this.serializer.injectTouch({
      action: TOUCH_ACTION[kind],
      pointerId: pointer,
      pointerX: Math.round((x * video.width) / device.width),
      pointerY: Math.round((y * video.height) / device.height),
      videoWidth: video.width,
      videoHeight: video.height,
      // Controller.java: the finger is lifted by ACTION_UP with pressure 0; buttons are ignored for a finger.
      pressure: kind === 'up' || kind === 'cancel' ? 0 : 1,
      actionButton: 0,
      buttons: 0,
    });
  }

  private key(action: AndroidKeyEventAction, keyCode: number): Uint8Array {
    return this.serializer.injectKeyCode({ action, keyCode: keyCode as AndroidKeyCode, repeat: 0, metaState: 0 });
  }

  /** Writes and waits until the bytes left for the adb server; `partly` says earlier steps already went out. */
  private async send(messages: Uint8Array[], partly: boolean): Promise<void> {
    if (!this.alive) return this.failed(partly);
    const bytes = messages.length === 1 ? messages[0] : Buffer.concat(messages);
    try {
      await new Promise<void>((resolve, reject) => this.socket.write(bytes, (err) => (err ? reject(err) : resolve())));
    } catch {
      return this.failed(partly);
    }
    if (!this.alive) return this.failed(true);
  }

  private failed(partly: boolean): never {
    const why = this.deadReason ?? 'control socket closed';
    if (!partly) throw new ControlUnavailable(why);
    throw new ToolError('INTERNAL', `scrcpy on ${this.serial} stopped during the input (${why}); it may have been performed only in part`);
  }

  /** Device → host messages (CLIPBOARD, ACK_CLIPBOARD, UHID_OUTPUT) parsed by the library's parsers. */
  private async readDeviceMessages(): Promise<void> {
    const reader = new SocketReader(this.socket);
    try {
      for (;;) {
        const [type] = await reader.readExactly(1);
        await this.options.deviceMessageParsers.parse(type, reader);
      }
    } catch (err) {
      this.deadReason ??= this.log.error ?? `control socket closed${err instanceof Error && err.message ? ` (${err.message})` : ''}`;
      this.options.deviceMessageParsers.close();
    }
  }
}

/** Exact-length reads over a Node stream, in the shape the library's parsers read from. */
class SocketReader {
  position = 0;
  private buffer: Buffer = Buffer.alloc(0);
  private ended = false;
  private wake: (() => void) | undefined;

  constructor(socket: Duplex) {
    socket.on('data', (chunk: Buffer) => {
      this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
      this.notify();
    });
    const end = () => {
      this.ended = true;
      this.notify();
    };
    socket.on('end', end);
    socket.on('close', end);
  }

  async readExactly(length: number): Promise<Uint8Array> {
    while (this.buffer.length < length) {
      if (this.ended) throw new Error('the device closed the control socket');
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
    const out = this.buffer.subarray(0, length);
    this.buffer = this.buffer.subarray(length);
    this.position += length;
    return out;
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}

function* utf8Chunks(text: string, maxBytes: number): Generator<string> {
  for (let at = 0; at < text.length; at += maxBytes) yield text.slice(at, at + maxBytes);
}

async function drain(stream: { getReader(): { read(): PromiseLike<{ done: boolean }> } } | undefined): Promise<void> {
  if (!stream) return;
  const reader = stream.getReader();
  try {
    while (!(await reader.read()).done);
  } catch {
    // The parsers error the stream when the socket closes.
  }
}
