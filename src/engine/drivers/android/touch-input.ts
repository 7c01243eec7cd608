import type { CallContext } from '../../driver.js';
import { ToolError } from '../../errors.js';
import type { CtrlLetter, Key, TouchPhase } from '../../types.js';
import { inputRefusal } from './input-commands.js';
import type { ControlChannel } from './scrcpy/control-channel.js';
import { ControlUnavailable } from './scrcpy/control-unavailable.js';

/** What streamed touch needs from the device: scrcpy's control socket if it runs, and a shell. */
export interface TouchDeps {
  serial: string;
  control(): ControlChannel | undefined;
  /** Runs a shell command and answers its output; throws the driver's ToolErrors (incl. refused injection). */
  shell(command: string, ctx: CallContext, what: string): Promise<string>;
}

const MOTION_ACTION: Record<TouchPhase, string> = { down: 'DOWN', move: 'MOVE', up: 'UP', cancel: 'CANCEL' };

/** android.view.KeyEvent codes of the viewer's keys. */
export const KEY_CODES: Record<Key, number> = {
  BACKSPACE: 67, // KEYCODE_DEL
  DELETE: 112, // KEYCODE_FORWARD_DEL
  TAB: 61,
  ENTER: 66,
  LEFT: 21, // KEYCODE_DPAD_LEFT
  RIGHT: 22,
  UP: 19,
  DOWN: 20,
  APP_SWITCH: 187,
};

/** android.view.KeyEvent codes of the letters pressed with Ctrl (KEYCODE_A…). */
const LETTER_CODES: Record<CtrlLetter, number> = { A: 29, C: 31, X: 52, Z: 54 };

/**
 * One streamed finger on an Android device (issue 17). The path is chosen at `down` and kept for
 * the stream, since events of one gesture must come from one injector: scrcpy's INJECT_TOUCH_EVENT
 * while scrcpy runs (the viewer's video starts it), else one `input motionevent` per event (one
 * short process each, so the engine's coalescing matters). `input` learned `motionevent` in later
 * releases (InputShellCommand lists it; older `input` answers "Unknown command"): that answer, not
 * the API level, makes `down` report false, and the engine replays the path as one swipe on release.
 */
export class AndroidTouch {
  private path: 'scrcpy' | 'shell' | undefined;
  /** Learned from the first answer; a release does not grow `motionevent` while we run. */
  private motionEvent: boolean | undefined;
  /** False once `input` refused CANCEL (Android 10 takes DOWN, UP and MOVE only). */
  private motionCancel = true;
  /** False once `input` answered that it has no `keycombination` (before Android 13). */
  private keyCombination: boolean | undefined;

  constructor(private readonly deps: TouchDeps) {}

  async touch(phase: TouchPhase, x: number, y: number, ctx: CallContext): Promise<boolean> {
    if (phase === 'down') this.path = await this.start(x, y, ctx);
    else if (this.path === 'scrcpy') await this.scrcpy(phase, x, y, ctx, true);
    else if (this.path === 'shell') await this.motion(phase, x, y, ctx);
    else throw new ToolError('INVALID_PARAMETER', `no touch is down on ${this.deps.serial}`);
    if (phase === 'up' || phase === 'cancel') this.path = undefined;
    return this.path !== undefined || phase !== 'down';
  }

  /** Keys over scrcpy while it runs (no process per key), else `input keyevent`. */
  async key(key: Key, ctx: CallContext): Promise<void> {
    const control = this.deps.control();
    if (control) {
      try {
        return await control.run([{ key: KEY_CODES[key] }], ctx.signal);
      } catch (err) {
        if (!(err instanceof ControlUnavailable)) throw err;
      }
    }
    const out = await this.deps.shell(`input keyevent ${KEY_CODES[key]}`, ctx, `pressing ${key}`);
    const refused = inputRefusal(out);
    if (refused) throw new ToolError(refused.lacking ? 'UNSUPPORTED' : 'INTERNAL', `pressing ${key} on ${this.deps.serial} failed: ${out.trim()}`);
  }

  /**
   * Ctrl plus a letter: over scrcpy while it runs, else `input keycombination KEYCODE_CTRL_LEFT KEYCODE_…`,
   * which InputShellCommand has from Android 13 (it gives the later keys the Ctrl meta state). `input
   * keyevent` sends no meta state, so an older release without scrcpy cannot press it: UNSUPPORTED.
   */
  async ctrl(letter: CtrlLetter, ctx: CallContext): Promise<void> {
    const control = this.deps.control();
    if (control) {
      try {
        return await control.run([{ key: LETTER_CODES[letter], ctrl: true }], ctx.signal);
      } catch (err) {
        if (!(err instanceof ControlUnavailable)) throw err;
      }
    }
    const unsupported = () => new ToolError('UNSUPPORTED', `${this.deps.serial} cannot press CTRL+${letter} now: its \`input\` has no \`keycombination\` (Android 13 added it) and scrcpy is not running; open the device in the viewer with live video (which starts scrcpy) and try again. Nothing was pressed`);
    if (this.keyCombination === false) throw unsupported();
    const out = await this.deps.shell(`input keycombination KEYCODE_CTRL_LEFT KEYCODE_${letter}`, ctx, `pressing CTRL+${letter}`);
    if (/Unknown command/i.test(out)) {
      this.keyCombination = false;
      throw unsupported();
    }
    if (/Exception|Error:/.test(out)) throw new ToolError('INTERNAL', `pressing CTRL+${letter} on ${this.deps.serial} failed: ${out.trim().split('\n')[0]}`);
    this.keyCombination = true;
  }

  private async start(x: number, y: number, ctx: CallContext): Promise<'scrcpy' | 'shell' | undefined> {
    if (await this.scrcpy('down', x, y, ctx, false)) return 'scrcpy';
    if (this.motionEvent === false) return undefined;
    const sent = await this.motion('down', x, y, ctx);
    return sent ? 'shell' : undefined;
  }

  /** False when nothing was sent (no scrcpy, or it cannot take touches right now); `mid` stream, that is an error. */
  private async scrcpy(phase: TouchPhase, x: number, y: number, ctx: CallContext, mid: boolean): Promise<boolean> {
    const control = this.deps.control();
    try {
      if (!control) throw new ControlUnavailable('scrcpy is not running');
      await control.run([{ touch: phase, x, y }], ctx.signal);
      return true;
    } catch (err) {
      if (!(err instanceof ControlUnavailable)) throw err;
      if (!mid) return false;
      this.path = undefined;
      throw new ToolError('INTERNAL', `scrcpy on ${this.deps.serial} stopped during the drag (${err.message}); the finger may have stayed down until the app noticed: start the drag again`);
    }
  }

  private async motion(phase: TouchPhase, x: number, y: number, ctx: CallContext): Promise<boolean> {
    if (phase === 'cancel' && !this.motionCancel) return this.liftInsteadOfCancel(x, y, ctx);
    const out = await this.deps.shell(`input motionevent ${MOTION_ACTION[phase]} ${x} ${y}`, ctx, `touching (${phase})`);
    // Android 10's Input.java: usage, then "Error: Unknown motionevent CANCEL", exit 0; nothing injected.
    if (phase === 'cancel' && /Unknown motionevent/i.test(out)) {
      this.motionCancel = false;
      return this.liftInsteadOfCancel(x, y, ctx);
    }
    if (/Unknown command: motionevent/.test(out) || (/Usage: input/.test(out) && !/motionevent </.test(out))) {
      this.motionEvent = false;
      this.path = undefined;
      if (phase === 'down') return false;
      throw new ToolError('UNSUPPORTED', `${this.deps.serial} stopped accepting "input motionevent" during the drag: ${out.trim().split('\n')[0]}`);
    }
    if (/Exception|Error:/.test(out)) throw new ToolError('INTERNAL', `input motionevent ${MOTION_ACTION[phase]} on ${this.deps.serial} failed: ${out.trim().split('\n')[0]}`);
    this.motionEvent = true;
    return true;
  }

  /**
   * A finger left down keeps the app's press (a long press fires, a list stays held) until the next
   * touch, so it is lifted where it is; that is an UP, not a cancel, and the answer says what the app
   * may have made of it. A drag already past the touch slop ends as a drag; a short still press may
   * count as a tap.
   */
  private async liftInsteadOfCancel(x: number, y: number, ctx: CallContext): Promise<never> {
    const out = await this.deps.shell(`input motionevent UP ${x} ${y}`, ctx, 'lifting the finger');
    const lifted = !/Exception|Error:|Usage: input/.test(out);
    throw new ToolError(
      'UNSUPPORTED',
      `${this.deps.serial} cannot cancel a touch: its \`input motionevent\` takes DOWN, UP and MOVE only (Android 10). ` +
        (lifted
          ? `The finger was lifted at (${x}, ${y}) instead; the app saw the end of a touch there, which it may have taken as a tap if the finger had not moved.`
          : `Lifting it failed too (${out.trim().split('\n').pop()}); the app may still see the finger down until the next touch.`),
    );
  }
}
