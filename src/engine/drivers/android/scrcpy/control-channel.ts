import type { Duplex } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ScrcpyOptions3_3_1 } from '@yume-chan/scrcpy';
import { untilAborted } from '../../../deadline.js';
import { ToolError, type ErrorCode } from '../../../errors.js';
import type { ScreenSize } from '../../../ui-tree.js';
import { releaseBefore } from '../android-release.js';
import { type InjectionMark, InjectionWatch, PROBE_TEXT } from './injection-watch.js';
import { ControlUnavailable } from './control-unavailable.js';
import { GENERIC_FINGER } from './pointer-ids.js';
import type { ServerLog } from './server-log.js';
import { SocketReader } from '../socket-reader.js';
import type { VideoSize } from './video-packets.js';
import { ControlMessages, ENTER, TAB } from './control-messages.js';
import { utf8Chunks } from './control-units.js';

/** One step of a gesture on the control socket. Coordinates are device pixels; `pointer` tells fingers apart (default the generic finger). */
export type ControlStep =
  | { touch: 'down' | 'move' | 'up' | 'cancel'; x: number; y: number; pointer?: bigint }
  | { sleep: number }
  /** `ctrl`: pressed inside KEYCODE_CTRL_LEFT's down and up, with its meta state, as scrcpy's keyboard sends Ctrl+A. */
  | { key: number; ctrl?: true };

export interface ControlChannelInit {
  socket: Duplex;
  options: ScrcpyOptions3_3_1<true>;
  log: ServerLog;
  serial: string;
  videoSize: () => VideoSize;
  deviceSize: () => ScreenSize;
  /** Resolves at the first CONFIG packet: the server's capture runs, and with it the mapping of touch coordinates. */
  capturing: Promise<void>;
  /** How long a touch waits for that before the caller is told to use another path. */
  captureWaitMs: number;
}

/** ControlMessageReader.INJECT_TEXT_MAX_LENGTH (bytes of UTF-8). */
const INJECT_TEXT_MAX_BYTES = 300;
/**
 * ControlMessageReader.CLIPBOARD_TEXT_MAX_LENGTH: a control message is at most 256 KiB (control_msg.h
 * SC_CONTROL_MSG_MAX_SIZE), less SET_CLIPBOARD's type, sequence, paste flag and length. scrcpy's own
 * client cuts a longer text there; a longer line is pasted in pieces instead.
 */
const CLIPBOARD_TEXT_MAX_BYTES = (1 << 18) - 14;
const CLIPBOARD_ACK_MS = 3000;
/** How long the server may take to handle what was sent and log the probe after it. */
const CONFIRM_MS = 3000;
/**
 * How long input cut by a closed socket waits for the session to say why (it asks adb whether the device
 * or the server went away, within 1 s, after the server's last words for up to 0.3 s).
 */
const VERDICT_MS = 2000;
/** How long a gesture the server ignored for a stale video size waits for the new size before it is redone. */
const RESIZE_WAIT_MS = 2000;
const RESIZE_POLL_MS = 20;

/**
 * Input over scrcpy's control socket (the messages: control-messages.ts). The protocol acknowledges nothing but clipboard sets, and a failed injection is only logged (the
 * server keeps running), so every call ends with a probe (injection-watch.ts): once the server has
 * logged it, its log says whether anything before it failed.
 */
export class ControlChannel {
  private readonly messages: ControlMessages;
  private readonly watch: InjectionWatch;
  private deadReason: string | undefined;
  private deadCode: ErrorCode = 'INTERNAL';
  private readonly killed: Promise<void>;
  private markKilled!: () => void;
  /** Why input must take another path for good, although the socket (and the video) still work. */
  private unusableReason: string | undefined;
  private clipboardSequence = 1n;
  private probes = 0;
  /** The first probe, sent alone when the channel opens: true once the server logged it. */
  private readonly probed: Promise<boolean>;
  /** What the device clipboard holds as far as we know: the last text we set or the device reported. */
  private clipboard: string | undefined;
  private captureStarted = false;
  /** Fingers the server counts as down (PointersState frees one only on ACTION_UP, not ACTION_CANCEL), where they are. */
  private readonly down = new Map<bigint, { x: number; y: number }>();
  /** After a rotation we asked for: the orientation the video must show before positional events are sent. */
  private awaited: { landscape: boolean; until: number } | undefined;

  constructor(private readonly init: ControlChannelInit) {
    this.messages = new ControlMessages(init.options, init.videoSize, init.deviceSize);
    this.killed = new Promise((resolve) => (this.markKilled = resolve));
    this.watch = new InjectionWatch(init.log);
    void init.capturing.then(() => (this.captureStarted = true), () => undefined);
    void this.readDeviceMessages();
    // The device pushes its clipboard whenever something else changes it (clipboard_autosync).
    void readAll(init.options.clipboard, (text) => (this.clipboard = text));
    void readAll(init.options.uHidOutput, () => undefined);
    this.probed = this.probeAlone();
  }

  /** The socket is open (the video may use it for key-frame requests). */
  get alive(): boolean {
    return this.deadReason === undefined && !this.init.socket.destroyed;
  }

  /** Input may go here: the socket is open and the server has not failed to inject. */
  get usable(): boolean {
    return this.alive && this.unusableReason === undefined;
  }

  /** Marks the channel dead with the reason (and code: DEVICE_NOT_FOUND when adb lost the device) later calls report. */
  kill(reason: string, code: ErrorCode = 'INTERNAL'): void {
    // The session's reason wins over the reader's "control socket closed": it asked adb what happened.
    [this.deadReason, this.deadCode] = [reason, code];
    this.init.socket.destroy();
    this.markKilled();
  }

  /** Input cut by a closed socket: why, once the session has found out (a phone unplugged is not an internal error). */
  private async deadVerdict(): Promise<{ code: ErrorCode; why: string }> {
    await Promise.race([this.killed, sleep(VERDICT_MS, undefined, { ref: false })]);
    return { code: this.deadCode, why: this.deadReason ?? 'control socket closed' };
  }

  /**
   * The screen is being rotated: until the video shows the new orientation (its CONFIG packet), touches
   * would carry the old video size and the server would drop them, so gestures take another path.
   */
  expectOrientation(landscape: boolean, withinMs = 2_000): void {
    this.awaited = { landscape, until: Date.now() + withinMs };
  }

  async run(steps: ControlStep[], signal: AbortSignal): Promise<void> {
    await this.checkProbed(signal);
    const fingers = new Set<bigint>();
    for (const step of steps) if ('touch' in step) fingers.add(step.pointer ?? GENERIC_FINGER);
    if (fingers.size > 0) {
      this.checkOrientation();
      await this.awaitCapture(signal);
    }
    const sizeAtStart = this.init.videoSize();
    // Fingers put down by an earlier run (a streamed drag): a dropped move or up leaves them where they were.
    const heldBefore = new Map([...fingers].flatMap((f) => (this.down.has(f) ? [[f, this.down.get(f)!] as const] : [])));
    const undo = () => {
      for (const finger of fingers) {
        const held = heldBefore.get(finger);
        if (held) this.down.set(finger, held);
        else this.down.delete(finger);
      }
    };
    const outcome = await this.runOnce(steps, fingers, signal);
    if (outcome.dropped === 0) return;
    if (outcome.dropped < outcome.touches || outcome.sent > outcome.touches) {
      throw new ToolError('INTERNAL', `scrcpy on ${this.init.serial} ignored ${outcome.dropped} of the ${outcome.touches} touch events, made for a ${outcome.drop} video while the capture had restarted at another size (the phone rotated or folded); the gesture may have been performed only in part`);
    }
    // Nothing of this run reached the app (Controller drops an event before its PointersState): the server holds
    // what it held before, so redo it once the video shows the new size.
    undo();
    if (await this.videoResized(sizeAtStart, signal)) {
      const again = await this.runOnce(steps, fingers, signal);
      if (again.dropped === 0) return;
      undo();
    }
    throw new ControlUnavailable(`scrcpy ignored the touches: they were made for a ${outcome.drop} video, but the capture had restarted at another size (the phone rotated or folded) and the video has not shown it yet`);
  }

  /** Sends the steps and confirms them; counts what went out and the touches the server ignored for their video size. */
  private async runOnce(steps: ControlStep[], fingers: Set<bigint>, signal: AbortSignal): Promise<{ sent: number; touches: number; dropped: number; drop: string }> {
    // Taken before the first step: lines about early steps may arrive while later ones are still sent.
    const before = { ...this.watch.mark(), dropped: this.watch.dropped };
    let sent = 0;
    let touches = 0;
    try {
      for (const step of steps) {
        if (signal.aborted) throw signal.reason;
        if ('sleep' in step) await sleep(step.sleep, undefined, { signal });
        else if ('key' in step) await this.send(this.messages.keyPress(step.key, step.ctrl === true), sent++ > 0);
        else {
          const pointer = step.pointer ?? GENERIC_FINGER;
          await this.send([this.messages.touch(step.touch, step.x, step.y, pointer)], sent++ > 0);
          touches++;
          if (step.touch === 'up') this.down.delete(pointer);
          else this.down.set(pointer, { x: step.x, y: step.y });
        }
      }
      await this.confirm(sent > 0, signal, before);
    } catch (err) {
      // A finger left down stays in the server's PointersState: the next gesture's finger would be its second one.
      this.lift(fingers);
      throw err;
    }
    const size = this.init.videoSize();
    return { sent, touches, dropped: this.watch.dropped - before.dropped, drop: this.watch.lastDrop?.sent ?? `${size.width}x${size.height}` };
  }

  /** Waits until the video announces a size other than `from` (its CONFIG after the capture restarted). */
  private async videoResized(from: VideoSize, signal: AbortSignal): Promise<boolean> {
    const deadline = Date.now() + RESIZE_WAIT_MS;
    for (;;) {
      const now = this.init.videoSize();
      if (now.width !== from.width || now.height !== from.height) return true;
      if (Date.now() >= deadline || !this.alive) return false;
      await sleep(RESIZE_POLL_MS, undefined, { signal });
    }
  }

  /**
   * Printable ASCII goes as INJECT_TEXT (key events from the device's key map); newline and tab as keys;
   * text with anything else is set on the device clipboard and pasted, the only way scrcpy types ß, 日 or emoji.
   */
  async typeText(text: string, signal: AbortSignal): Promise<void> {
    await this.checkProbed(signal);
    const runs = text.match(/[^\n\t]+|\n|\t/gu) ?? [];
    if (runs.some((run) => !/^[\x20-\x7e\n\t]+$/.test(run))) await this.checkPaste();
    // Taken before the first run: a failure of an early run may show only while a later one is confirmed.
    const before = this.watch.mark();
    let sent = 0;
    let unconfirmed = false;
    // A line with any non-ASCII is pasted whole: one clipboard round trip, and the order is kept.
    for (const run of runs) {
      if (signal.aborted) throw signal.reason;
      if (run === '\n' || run === '\t') {
        await this.send(this.messages.keyPress(run === '\n' ? ENTER : TAB, false), sent++ > 0);
        unconfirmed = true;
      } else if (/^[\x20-\x7e]+$/.test(run)) {
        for (const chunk of utf8Chunks(run, INJECT_TEXT_MAX_BYTES)) await this.send([this.messages.text(chunk)], sent++ > 0);
        unconfirmed = true;
      } else {
        for (const piece of utf8Chunks(run, CLIPBOARD_TEXT_MAX_BYTES)) await this.paste(piece, sent++ > 0, signal, before);
        unconfirmed = false;
      }
    }
    if (unconfirmed) await this.confirm(true, signal, before);
  }

  /** RESET_VIDEO: the server restarts capture and encoder, so a new CONFIG and key frame follow. */
  requestKeyFrame(): void {
    if (this.alive) this.init.socket.write(this.messages.resetVideo());
  }

  /**
   * Every call is confirmed by a probe's log line, so a server that never logs it (a build or an
   * emulation that types any character, a log we cannot read) would leave the first gesture "maybe
   * done". The probe sent alone when the channel opened finds that out with nothing sent: input
   * then takes another path.
   */
  private async checkProbed(signal: AbortSignal): Promise<void> {
    this.checkUsable();
    if (!(await untilAborted(signal, this.probed))) this.checkUsable();
  }

  private async probeAlone(): Promise<boolean> {
    const count = ++this.probes;
    try {
      await this.send([this.messages.text(PROBE_TEXT)], false);
      if (await this.watch.waitForProbes(count, CONFIRM_MS, new AbortController().signal)) return true;
    } catch {
      // The socket closed: checkUsable says so.
    }
    if (this.alive && !this.init.log.exited) this.unusableReason ??= `scrcpy-server did not log the probe that confirms input within ${CONFIRM_MS} ms of opening its control socket, so nothing sent over it could be confirmed`;
    return false;
  }

  private checkUsable(): void {
    if (!this.alive) throw new ControlUnavailable(this.deadReason ?? 'control socket closed');
    if (this.unusableReason !== undefined) throw new ControlUnavailable(this.unusableReason);
  }

  private checkOrientation(): void {
    if (!this.awaited) return;
    const video = this.init.videoSize();
    if (video.width > video.height === this.awaited.landscape || Date.now() > this.awaited.until) this.awaited = undefined;
    else throw new ControlUnavailable('the video has not caught up with the rotation yet');
  }

  /**
   * SurfaceEncoder writes the video header before its capture starts; until the capture calls
   * Controller.onNewVirtualDisplay, the server takes touch coordinates as device pixels, unscaled.
   * The first CONFIG packet comes after that call.
   */
  private async awaitCapture(signal: AbortSignal): Promise<void> {
    if (this.captureStarted) return;
    const capturing = this.init.capturing.then(() => true, () => false);
    // The timer is not kept alive: a capture that starts (or a caller that gives up) ends the wait first.
    const started = await untilAborted(signal, Promise.race([capturing, sleep(this.init.captureWaitMs, false, { ref: false })]));
    if (!started) {
      throw new ControlUnavailable(`scrcpy on ${this.init.serial} has not started its screen capture yet (no video configuration within ${this.init.captureWaitMs} ms); until it does, the server would take touches at unscaled video coordinates`);
    }
  }

  /** Controller.setClipboard presses PASTE only from Android 7 (API 24), yet logs and acknowledges the set on any version. */
  private async checkPaste(): Promise<void> {
    const release = await this.init.log.release(1_000);
    if (release === undefined) throw new ControlUnavailable(`scrcpy on ${this.init.serial} did not log its Android version, so it is unknown whether it can paste (it presses PASTE only from Android 7)`);
    if (releaseBefore(release, 7)) throw new ControlUnavailable(`${this.init.serial} runs Android ${release}: scrcpy sets the clipboard there but presses PASTE only from Android 7 (API 24)`);
  }

  /**
   * SET_CLIPBOARD with paste and a sequence. The ACK proves the controller handled it; `Device clipboard set`
   * that the clipboard took the text, except that Device.setClipboardText does not set (nor log) a text
   * the clipboard already holds, and PASTE is pressed either way.
   */
  private async paste(text: string, partly: boolean, signal: AbortSignal, before: InjectionMark): Promise<void> {
    const sequence = this.clipboardSequence++;
    const from = this.init.log.position;
    const serialized = this.messages.setClipboard({ sequence, paste: true, content: text });
    const [bytes, acked] = Array.isArray(serialized) ? serialized : [serialized, Promise.resolve()];
    acked.catch(() => undefined);
    await this.send([bytes], partly);
    // The timer goes with the answer: left running, it kept the process alive 3 s after each paste.
    const ackWait = new AbortController();
    const timeout = sleep(CLIPBOARD_ACK_MS, 'timeout' as const, { signal: ackWait.signal }).catch(() => 'ack' as const);
    const outcome = await Promise.race([acked.then(() => 'ack' as const, () => 'closed' as const), timeout]).finally(() => ackWait.abort());
    if (outcome === 'timeout') throw new ToolError('INTERNAL', `${this.init.serial} did not acknowledge the clipboard paste for ${JSON.stringify(text)} (no ACK within ${CLIPBOARD_ACK_MS} ms); the text may not have been typed`);
    if (outcome === 'closed') {
      const { code, why } = await this.deadVerdict();
      throw new ToolError(code, `${this.init.serial} did not acknowledge the clipboard paste for ${JSON.stringify(text)} (${why}); the text may not have been typed`);
    }
    await this.confirm(true, signal, before);
    if (/\[server\] INFO: Device clipboard set/.test(this.init.log.since(from))) this.clipboard = text;
    else if (this.clipboard !== text) {
      // Controller.setClipboard presses PASTE whether or not the set took: the field got the old clipboard, or this text if it already held it.
      const pasted = this.clipboard === undefined ? 'either this text (if the clipboard already held it) or what the clipboard held before' : 'what the clipboard held before';
      throw new ToolError('INTERNAL', `${this.init.serial} refused to set its clipboard to ${JSON.stringify(text)}, yet scrcpy pressed PASTE, which pasted ${pasted}: check the field, then type the text on the on-screen keyboard instead`);
    }
  }

  /**
   * Sends the probe and waits until the server logged it; then its log shows whether what was sent before
   * was injected. A refusal makes the channel unusable for good (it is logged at most every 3 s).
   */
  private async confirm(partly: boolean, signal: AbortSignal, before: InjectionMark = this.watch.mark()): Promise<void> {
    const count = ++this.probes;
    await this.send([this.messages.text(PROBE_TEXT)], partly);
    if (!(await this.watch.waitForProbes(count, CONFIRM_MS, signal))) {
      if (!this.alive || this.init.log.exited) return this.failed(true);
      this.unusableReason ??= `scrcpy did not answer a probe within ${CONFIRM_MS} ms`;
      throw new ToolError('INTERNAL', `scrcpy on ${this.init.serial} did not confirm within ${CONFIRM_MS} ms that it handled the input (the probe after it never showed in its log); it may or may not have been performed`);
    }
    if (this.watch.refused) {
      this.unusableReason ??= `scrcpy-server could not inject: ${this.watch.refused}`;
      throw new ControlUnavailable(this.unusableReason);
    }
    if (this.watch.failures > before.failures) {
      this.unusableReason ??= `scrcpy-server could not inject (${this.watch.lastFailure})`;
      throw new ToolError('INTERNAL', `scrcpy on ${this.init.serial} failed to inject the input (${this.watch.lastFailure}); it may have been performed only in part`);
    }
    const skipped = this.watch.skippedSince(before);
    if (skipped.count > 0) {
      // The channel stays usable: only these characters have no keys on this device.
      const which = `${skipped.chars.join(' ')}${skipped.count > skipped.chars.length ? ' …' : ''}`;
      throw new ToolError('UNSUPPORTED', `${this.init.serial} typed the text without ${skipped.count} character${skipped.count === 1 ? '' : 's'} (${which}): its key character map has no keys for ${skipped.count === 1 ? 'it' : 'them'}, so scrcpy skipped ${skipped.count === 1 ? 'it' : 'them'} and typed the rest; the field holds an incomplete text: clear it, then type the text without ${skipped.count === 1 ? 'that character' : 'those characters'} or enter ${skipped.count === 1 ? 'it' : 'them'} on the on-screen keyboard`);
    }
  }

  /** Best effort, after an abort or error: ACTION_UP with pressure 0 for each of `fingers` still down. */
  private lift(fingers: Set<bigint>): void {
    for (const [pointer, at] of this.down) {
      if (!fingers.has(pointer)) continue;
      this.down.delete(pointer);
      if (this.alive) this.init.socket.write(this.messages.touch('up', at.x, at.y, pointer));
    }
  }

  /** Writes and waits until the bytes left for the adb server; `partly` says earlier steps already went out. */
  private async send(messages: Uint8Array[], partly: boolean): Promise<void> {
    if (!this.alive) return this.failed(partly);
    const bytes = messages.length === 1 ? messages[0] : Buffer.concat(messages);
    try {
      await new Promise<void>((resolve, reject) => this.init.socket.write(bytes, (err) => (err ? reject(err) : resolve())));
    } catch {
      return this.failed(partly);
    }
    if (!this.alive) return this.failed(true);
  }

  private async failed(partly: boolean): Promise<never> {
    if (!partly) throw new ControlUnavailable(this.deadReason ?? 'control socket closed');
    const { code, why } = await this.deadVerdict();
    throw new ToolError(code, `scrcpy on ${this.init.serial} stopped during the input (${why}); it may have been performed only in part`);
  }

  /** Device → host messages (CLIPBOARD, ACK_CLIPBOARD, UHID_OUTPUT) parsed by the library's parsers. */
  private async readDeviceMessages(): Promise<void> {
    const reader = new SocketReader(this.init.socket, 'the control socket');
    try {
      for (;;) {
        const [type] = await reader.readExactly(1);
        await this.init.options.deviceMessageParsers.parse(type, reader);
      }
    } catch (err) {
      this.deadReason ??= this.init.log.error ?? `control socket closed${err instanceof Error && err.message ? ` (${err.message})` : ''}`;
      this.init.options.deviceMessageParsers.close();
    }
  }
}

async function readAll<T>(stream: { getReader(): { read(): PromiseLike<{ done: boolean; value?: T }> } } | undefined, each: (value: T) => void): Promise<void> {
  if (!stream) return;
  const reader = stream.getReader();
  try {
    for (;;) {
      const next = await reader.read();
      if (next.done) return;
      each(next.value as T);
    }
  } catch {
    // The parsers error the stream when the socket closes.
  }
}
