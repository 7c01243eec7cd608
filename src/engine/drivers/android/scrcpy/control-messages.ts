import { AndroidKeyCode, AndroidKeyEventAction, AndroidKeyEventMeta, AndroidMotionEventAction, ScrcpyControlMessageSerializer, type ScrcpyOptions3_3_1 } from '@yume-chan/scrcpy';
import type { ScreenSize } from '../../../ui-tree.js';
import { toVideo } from './control-units.js';
import type { VideoSize } from './video-packets.js';

const KEYCODE_CTRL_LEFT = 113;
/** KeyEvent.META_CTRL_ON | META_CTRL_LEFT_ON (the library types one flag at a time). */
const META_CTRL = (AndroidKeyEventMeta.Ctrl | AndroidKeyEventMeta.CtrlLeft) as AndroidKeyEventMeta;
const TOUCH_ACTION = { down: AndroidMotionEventAction.Down, move: AndroidMotionEventAction.Move, up: AndroidMotionEventAction.Up, cancel: AndroidMotionEventAction.Cancel } as const;

export const ENTER = AndroidKeyCode.Enter as number;
export const TAB = AndroidKeyCode.Tab as number;

/**
 * The bytes of scrcpy 3.3.1's control messages (ControlMessageReader.java) for the channel to send.
 * Positional events carry the current video size, as Controller.java drops events made for another
 * size; coordinates are scaled from device pixels into video space.
 */
export class ControlMessages {
  private readonly serializer: ScrcpyControlMessageSerializer;

  constructor(
    options: ScrcpyOptions3_3_1<true>,
    private readonly videoSize: () => VideoSize,
    private readonly deviceSize: () => ScreenSize,
  ) {
    this.serializer = new ScrcpyControlMessageSerializer(options);
  }

  touch(kind: 'down' | 'move' | 'up' | 'cancel', x: number, y: number, pointer: bigint): Uint8Array {
    const video = this.videoSize();
    const device = this.deviceSize();
    return this.serializer.injectTouch({
      action: TOUCH_ACTION[kind],
      pointerId: pointer,
      pointerX: toVideo(x, device.width, video.width),
      pointerY: toVideo(y, device.height, video.height),
      videoWidth: video.width,
      videoHeight: video.height,
      // Controller.java: the finger is lifted by ACTION_UP with pressure 0; buttons are ignored for a finger.
      pressure: kind === 'up' || kind === 'cancel' ? 0 : 1,
      actionButton: 0,
      buttons: 0,
    });
  }

  /**
   * A key's down and up; with Ctrl, the way scrcpy's SDK keyboard sends it (keyboard_sdk.c): the Ctrl key
   * goes down first, the key's events carry META_CTRL_LEFT_ON | META_CTRL_ON, which TextView's
   * onKeyShortcut reads, and Ctrl comes up last.
   */
  keyPress(keyCode: number, ctrl: boolean): Uint8Array[] {
    if (!ctrl) return [this.key(AndroidKeyEventAction.Down, keyCode), this.key(AndroidKeyEventAction.Up, keyCode)];
    return [
      this.key(AndroidKeyEventAction.Down, KEYCODE_CTRL_LEFT, META_CTRL),
      this.key(AndroidKeyEventAction.Down, keyCode, META_CTRL),
      this.key(AndroidKeyEventAction.Up, keyCode, META_CTRL),
      this.key(AndroidKeyEventAction.Up, KEYCODE_CTRL_LEFT),
    ];
  }

  text(chunk: string): Uint8Array {
    return this.serializer.injectText(chunk);
  }

  /** With the wait for the device's ACK_CLIPBOARD when the library tracks it. */
  setClipboard(message: { sequence: bigint; paste: boolean; content: string }): ReturnType<ScrcpyControlMessageSerializer['setClipboard']> {
    return this.serializer.setClipboard(message);
  }

  resetVideo(): Uint8Array {
    return this.serializer.resetVideo();
  }

  private key(action: AndroidKeyEventAction, keyCode: number, metaState: AndroidKeyEventMeta = AndroidKeyEventMeta.None): Uint8Array {
    return this.serializer.injectKeyCode({ action, keyCode: keyCode as AndroidKeyCode, repeat: 0, metaState });
  }
}
