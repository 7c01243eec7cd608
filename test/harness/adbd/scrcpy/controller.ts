import type { CallContext } from '../../../../src/engine/driver.js';
import type { DeviceStream } from '../adbd.js';
import { ByteQueue } from '../byte-queue.js';
import { buttonForKey, ctrlLetterForKey } from '../input-command.js';
import { ControlProtocolError, ControlReaderCrash, readControlMessage, type ControlMessage } from './control-reader.js';
import type { ScrcpyHost } from './host.js';
import type { SerialWriter } from './serial-writer.js';
import { utf8Truncated } from './strings.js';
import { TouchGestures } from './touch-gestures.js';

const KEYCODE_DEL = 67;
const KEYCODE_TAB = 61;
const KEYCODE_PASTE = 279;
const KEYCODE_POWER = 26;
const KEYCODE_WAKEUP = 224;
/** KeyEvent.META_CTRL_ON. */
const META_CTRL_ON = 0x1000;
/** Controller.control: the pause after pressing POWER at start, so later messages find the screen on. */
const POWER_ON_PAUSE_MS = 500;
/** DeviceMessageWriter.CLIPBOARD_TEXT_MAX_LENGTH: 256 KiB less the type byte and the length. */
const CLIPBOARD_TEXT_MAX_BYTES = (1 << 18) - 5;
const API_24_ANDROID_7_0 = 24;
/** printStackTrace of the InvocationTargetException, with its cause, after Ln.e's "Could not invoke method". */
const INVOKE_FAILURE_STACK = [
  'java.lang.reflect.InvocationTargetException',
  '\tat java.lang.reflect.Method.invoke(Native Method)',
  '\tat com.genymobile.scrcpy.wrappers.InputManager.injectInputEvent(InputManager.java:51)',
  '\tat com.genymobile.scrcpy.device.Device.injectEvent(Device.java:69)',
  'Caused by: java.lang.IllegalArgumentException: Invalid input event',
  '\t... 12 more',
].join('\n');
/** InputManager.injectInputEvent logs a refused permission at most this often. */
const PERMISSION_LOG_EVERY_MS = 3000;
const REFUSAL = 'Injecting input events requires the caller (or the source of the instrumentation, if any) to have the INJECT_EVENTS permission.';
const ctx = (): CallContext => ({ signal: new AbortController().signal });

/** What the controller needs of its server: the console, the video's sizes, and the encoder. */
export interface ControllerServer {
  log(level: 'VERBOSE' | 'INFO' | 'WARN' | 'ERROR', message: string): Promise<void>;
  /** Throwable.printStackTrace after an Ln.e message: lines without the [server] prefix, in a write of their own. */
  stack(lines: string): Promise<void>;
  /** The current video size, the screen size it was scaled from, and whether the capture has started (touches are mapped). */
  sizes(): { video: { width: number; height: number }; source: { width: number; height: number }; mapped: boolean };
  /** RESET_VIDEO: restarts the encoder when one runs. */
  resetVideo(): void;
  /** Encodes the screen now, so a change shows at once. */
  frame(): void;
  /** ClipboardManager.setText: the other servers' clipboard listeners see the change. */
  setClipboard(text: string): void;
  /** The controller thread ended: the server stops (Completion with fatalError). */
  stop(reason: string): void;
}

/**
 * Controller.java of scrcpy 3.3.1: reads control messages one at a time and injects them. A failed
 * injection (InputManager.injectInputEvent) is logged and returns false; the controller carries on.
 */
export class EmulatedController {
  private readonly touches: TouchGestures;
  private lastPermissionLogAt = 0;

  constructor(
    private readonly host: ScrcpyHost,
    private readonly server: ControllerServer,
    private readonly out: SerialWriter,
    private readonly options: { clipboardAutosync: boolean; powerOn: boolean; video: boolean },
  ) {
    this.touches = new TouchGestures(host.phone);
  }

  start(socket: DeviceStream): void {
    const input = new ByteQueue(socket);
    void (async () => {
      // Controller.control: with power_on (the default) a screen that is off is woken before any message is read.
      if (this.options.powerOn && !this.host.power.screenOn()) {
        if (await this.pressRelease()) this.host.power.pressKey(KEYCODE_POWER);
        await new Promise((resolve) => setTimeout(resolve, POWER_ON_PAUSE_MS));
      }
      for (;;) {
        let msg: ControlMessage | null;
        try {
          msg = await readControlMessage(input);
        } catch (err) {
          // ControlProtocolException is an IOException: handleEvent takes it for the socket closing
          // ("expected on close") and the controller stops without an error line; the server exits.
          if (err instanceof ControlProtocolError) return this.server.stop('controller stopped');
          if (err instanceof ControlReaderCrash) {
            // The thread dies (its finally stops the server) and the default handler logs the exception.
            await this.server.log('ERROR', `Exception on thread Thread[control-recv,5,main]\n${err.message}\n\tat com.genymobile.scrcpy.control.ControlMessageReader.parseByteArray(ControlMessageReader.java:93)`);
            return this.server.stop('controller crashed');
          }
          throw err;
        }
        if (!msg) return this.server.stop('control socket closed');
        await this.handle(msg);
      }
    })();
  }

  /** The clipboard listener (clipboard_autosync): something other than this controller changed the clipboard. */
  clipboardChanged(text: string): void {
    if (this.options.clipboardAutosync) this.send(clipboardMessage(text));
  }

  /** Writes a device message (CLIPBOARD, ACK_CLIPBOARD) on the control socket. */
  send(message: Buffer): void {
    void this.out.write(message);
  }

  /** InputManager.injectInputEvent: false, logged (throttled), when the phone refuses injection. */
  private async inject(): Promise<boolean> {
    if (this.host.faults.invokeFails) {
      // wrappers/InputManager.injectInputEvent: Ln.e("Could not invoke method", e) for the ReflectiveOperationException.
      this.host.faults.invokeFails--;
      // Ln.e writes the message and the stack separately; at log_level=verbose the video thread's DisplaySizeMonitor
      // (it logs every display event) may come between them, as here.
      await this.server.log('ERROR', 'Could not invoke method');
      await this.server.log('VERBOSE', 'DisplaySizeMonitor: onDisplayChanged(0)');
      await this.server.stack(INVOKE_FAILURE_STACK);
      return false;
    }
    if (!this.host.faults.refuseInjection) return true;
    const now = Date.now();
    if (this.lastPermissionLogAt <= now - PERMISSION_LOG_EVERY_MS) {
      await this.server.log('ERROR', REFUSAL);
      await this.server.log('ERROR', 'Make sure you have enabled "USB debugging (Security Settings)" and then rebooted your device.');
      this.lastPermissionLogAt = now;
    }
    return false;
  }

  /**
   * Controller.getEventPointAndDisplayId: before the capture installed its PositionMapper, the raw
   * coordinates are used, for any video size; after, an event made for another size is dropped, which
   * the server says only at log_level=verbose.
   */
  private async map(msg: { x: number; y: number; videoWidth: number; videoHeight: number }): Promise<{ x: number; y: number } | undefined> {
    const { video, source, mapped } = this.server.sizes();
    if (!mapped) return { x: msg.x, y: msg.y };
    if (msg.videoWidth !== video.width || msg.videoHeight !== video.height) {
      this.host.injected.push(`dropped touch for ${msg.videoWidth}x${msg.videoHeight}`);
      await this.server.log('VERBOSE', `Ignore positional event generated for size ${msg.videoWidth}x${msg.videoHeight} (current size is ${video.width}x${video.height})`);
      return undefined;
    }
    // AffineMatrix.apply truncates to int.
    return { x: Math.trunc((msg.x * source.width) / video.width), y: Math.trunc((msg.y * source.height) / video.height) };
  }

  /** Device.pressReleaseKeycode: the UP only after the DOWN went in. */
  private async pressRelease(): Promise<boolean> {
    return (await this.inject()) && (await this.inject());
  }

  /**
   * Controller.handleEvent. What is injected while the screen is off or the keyguard is in front goes
   * nowhere the app sees (as the shell's `input` there), except the keys that wake the screen.
   */
  private async handle(msg: ControlMessage): Promise<void> {
    const { phone, injected, power } = this.host;
    await this.host.faults.beforeControl?.(msg.type);
    const reaches = power.inputReachesApp();
    let changed = false;
    switch (msg.type) {
      case 'key':
        if (!(await this.inject()) || msg.action !== 1) break;
        if (msg.keycode === KEYCODE_POWER || msg.keycode === KEYCODE_WAKEUP) {
          power.pressKey(msg.keycode);
          break;
        }
        if (!reaches) break;
        changed = true;
        injected.push(`key ${msg.keycode}${msg.metaState & META_CTRL_ON ? ' ctrl' : ''}`);
        // A TextView takes Ctrl+letter as a shortcut from the key's meta state (onKeyShortcut).
        if (msg.metaState & META_CTRL_ON && ctrlLetterForKey(String(msg.keycode))) await phone.pressCtrl(ctrlLetterForKey(String(msg.keycode))!, ctx()).catch(() => undefined);
        else if (msg.keycode === KEYCODE_PASTE) await phone.typeText(this.host.clipboard, ctx()).catch(() => undefined);
        else if (msg.keycode === KEYCODE_DEL) await phone.deleteBackward(ctx()).catch(() => undefined);
        else if (msg.keycode === KEYCODE_TAB) await phone.typeText('\t', ctx()).catch(() => undefined);
        else {
          const button = buttonForKey(String(msg.keycode));
          if (button) await phone.pressButton(button, ctx()).catch(() => undefined);
        }
        break;
      case 'text': {
        // Controller.injectText: per Java char (UTF-16 unit, so an emoji is two warnings); a character whose
        // key events fail (no keys, or refused) is logged and skipped.
        let typed = '';
        for (let i = 0; i < msg.text.length; i++) {
          const c = msg.text[i];
          if (typable(c) && !this.host.faults.untypable?.includes(c) && (await this.inject())) typed += c;
          else if (!this.host.faults.silentSkips) await this.server.log('WARN', `Could not inject char u+${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
        }
        if (!typed || !reaches) break;
        changed = true;
        injected.push(`text ${typed}`);
        await phone.typeText(typed, ctx()).catch(() => undefined);
        break;
      }
      case 'touch': {
        const point = await this.map(msg);
        const action = msg.action === 0 ? 'down' : msg.action === 1 ? 'up' : msg.action === 2 ? 'move' : msg.action === 3 ? 'cancel' : undefined;
        if (!point || !action || !(await this.inject())) break;
        const { x, y } = point;
        changed = true;
        // PointersState: a finger (not a mouse) ignores buttons; more than 10 pointers is refused.
        this.host.touchLog?.push(`${action} ${x},${y} p=${msg.pressure.toFixed(2)} id=${msg.pointerId}`);
        if (!reaches) break;
        const gesture = await this.touches.event(action, x, y, msg.pointerId);
        if (gesture === 'too many pointers') await this.server.log('WARN', 'Too many pointers for touch event');
        if (gesture) injected.push(gesture);
        break;
      }
      case 'scroll': {
        // Controller.injectScroll maps its position as a touch's, so a scroll for another size is dropped too.
        const point = await this.map(msg);
        if (point && (await this.inject()) && reaches) injected.push(`scroll ${point.x},${point.y} h=${msg.hScroll} v=${msg.vScroll}`);
        break;
      }
      case 'backOrScreenOn':
        // Controller.pressBackOrTurnScreenOn: BACK while the screen is on; else POWER, on ACTION_DOWN only.
        if (!power.screenOn()) {
          if (msg.action === 0 && (await this.pressRelease())) power.pressKey(KEYCODE_POWER);
          break;
        }
        if (!(await this.inject()) || msg.action !== 1 || !reaches) break;
        changed = true;
        injected.push('key 4');
        await phone.pressButton('BACK', ctx()).catch(() => undefined);
        break;
      case 'setClipboard':
        await this.setClipboard(msg.text, msg.paste, msg.sequence);
        changed = msg.paste;
        break;
      case 'setDisplayPower':
        // Controller.setDisplayPower: only the panel goes dark; mirroring and input go on.
        await this.server.log('INFO', `Device display turned ${msg.on ? 'on' : 'off'}`);
        break;
      case 'getClipboard':
        if (!this.options.clipboardAutosync && this.host.clipboard) this.send(clipboardMessage(this.host.clipboard));
        break;
      case 'empty':
        // Controller.resetVideo acts (and logs) only when Server gave it a capture: never with video=false.
        if (msg.code === 17 && this.options.video) {
          await this.server.log('INFO', 'Video capture reset');
          this.server.resetVideo();
        } else if (msg.code === 11) {
          await phone.setOrientation(phone.orientation === 'portrait' ? 'landscape' : 'portrait', ctx()).catch(() => undefined);
        }
        break;
      default:
        break;
    }
    if (changed) this.server.frame();
  }

  /**
   * Controller.setClipboard: logs only when Device.setClipboardText succeeded, which it does not for
   * a text the clipboard already holds; presses PASTE (from Android 7 only) and sends the ACK either way.
   */
  private async setClipboard(text: string, paste: boolean, sequence: bigint): Promise<void> {
    const { phone, injected } = this.host;
    if (!this.host.faults.refuseClipboard && this.host.clipboard !== text) {
      this.server.setClipboard(text);
      await this.server.log('INFO', 'Device clipboard set');
    }
    if (paste && this.host.android.api >= API_24_ANDROID_7_0 && (await this.pressRelease()) && this.host.power.inputReachesApp()) {
      injected.push(`paste ${this.host.clipboard}`);
      await phone.typeText(this.host.clipboard, ctx()).catch(() => undefined);
    }
    if (sequence !== 0n) {
      const ack = Buffer.alloc(9);
      ack[0] = 1;
      // DeviceMessageWriter: dos.writeLong, the sequence read as a signed long.
      ack.writeBigInt64BE(sequence, 1);
      this.send(ack);
    }
  }
}

/** DeviceMessageWriter TYPE_CLIPBOARD: u8 0, u32 length, UTF-8 text cut at 256 KiB - 5 bytes on a character boundary. */
export function clipboardMessage(text: string): Buffer {
  const bytes = utf8Truncated(text, CLIPBOARD_TEXT_MAX_BYTES);
  const head = Buffer.alloc(5);
  head.writeUInt32BE(bytes.length, 1);
  return Buffer.concat([head, bytes]);
}

/**
 * What KeyCharacterMap.VIRTUAL_KEYBOARD can type: printable ASCII, plus letters KeyComposition
 * decomposes into a dead key and an ASCII letter (é, ñ, ü…). ß, CJK and emoji have no key events.
 */
function typable(c: string): boolean {
  if (/^[\x20-\x7e]$/.test(c)) return true;
  const parts = c.normalize('NFD');
  return parts.length === 2 && /^[A-Za-z]$/.test(parts[0]) && /^[\u0300\u0301\u0302\u0303\u0308]$/.test(parts[1]);
}
