import type { Button, FingerPath, Point } from '../../types.js';
import type { ControlStep } from './scrcpy/control-channel.js';
import { commandRefusal } from './shell-output.js';
import { GENERIC_FINGER, VIRTUAL_FINGER } from './scrcpy/pointer-ids.js';

/**
 * What `input` printed when it injected nothing (injecting prints nothing): an exception (Input.java's
 * stack trace; from Android 12 InputShellCommand's "Exception occurred while executing"), "Error:
 * Unknown command: …" or "Error: Invalid arguments …" with the usage, or the shell's "input: not found"
 * on a device without it (shell-output.ts commandRefusal).
 */
export const inputRefusal = (out: string): { lacking: boolean; said: string } | undefined => commandRefusal(out, 'input');

/** Key codes of android.view.KeyEvent for the buttons SPEC §2 names. */
export const KEYCODES: Record<Button, { name: string; code: number }> = {
  BACK: { name: 'KEYCODE_BACK', code: 4 },
  HOME: { name: 'KEYCODE_HOME', code: 3 },
  VOLUME_UP: { name: 'KEYCODE_VOLUME_UP', code: 24 },
  VOLUME_DOWN: { name: 'KEYCODE_VOLUME_DOWN', code: 25 },
  ENTER: { name: 'KEYCODE_ENTER', code: 66 },
};

/**
 * Android's GestureDetector takes two taps for a double tap when the second DOWN comes 40–300 ms
 * (DOUBLE_TAP_MIN_TIME, DOUBLE_TAP_TIMEOUT) after the first UP, judged by the events' own times.
 * Monkey stamps each event as it injects it and sleeps on the device, so its gap is exact: 60 ms
 * keeps 20 ms above the minimum. The control socket's pause is kept on the host, and the network
 * may bunch the taps together on the way, so it keeps 100 ms of room on both sides.
 */
const MONKEY_DOUBLE_TAP_GAP_MS = 60;
const CONTROL_DOUBLE_TAP_GAP_MS = 100;

/**
 * One gesture as scrcpy control steps, as monkey network commands (touch down/move/up, sleep) and as
 * the equivalent `input` shell command, so the driver can send any without duplicating the gesture logic.
 */
export interface Gesture {
  control: ControlStep[];
  monkey: string[];
  shell: string;
}

/*
 * Points are whole pixels in every form: monkey reads them with Integer.parseInt and refuses "540.5"
 * (EARG), which would send the gesture down the slower `input` path and a double tap's two taps apart.
 */

export function tapGesture(px: number, py: number): Gesture {
  const [x, y] = [Math.round(px), Math.round(py)];
  return { control: tapSteps(x, y), monkey: [`tap ${x} ${y}`], shell: `input tap ${x} ${y}` };
}

export function doubleTapGesture(px: number, py: number): Gesture {
  const [x, y] = [Math.round(px), Math.round(py)];
  return {
    control: [...tapSteps(x, y), { sleep: CONTROL_DOUBLE_TAP_GAP_MS }, ...tapSteps(x, y)],
    monkey: [`tap ${x} ${y}`, `sleep ${MONKEY_DOUBLE_TAP_GAP_MS}`, `tap ${x} ${y}`],
    shell: `input tap ${x} ${y} && input tap ${x} ${y}`,
  };
}

export function longPressGesture(px: number, py: number, ms: number): Gesture {
  const [x, y] = [Math.round(px), Math.round(py)];
  return {
    control: [{ touch: 'down', x, y }, { sleep: ms }, { touch: 'up', x, y }],
    monkey: [`touch down ${x} ${y}`, `sleep ${ms}`, `touch up ${x} ${y}`],
    shell: `input swipe ${x} ${y} ${x} ${y} ${ms}`,
  };
}

/** Moves every ~16 ms (one frame) so the app's velocity tracker sees a real fling: how many, and the pause before each. */
function pacing(ms: number): { steps: number; pause: number } {
  const steps = Math.max(2, Math.min(60, Math.round(ms / 16)));
  return { steps, pause: Math.max(1, Math.round(ms / steps)) };
}

/** Point `i` of `steps` on the straight line from `from` to `to`, in whole pixels. */
function along(from: Point, to: Point, i: number, steps: number): Point {
  return { x: Math.round(from.x + ((to.x - from.x) * i) / steps), y: Math.round(from.y + ((to.y - from.y) * i) / steps) };
}

export function swipeGesture(pfx: number, pfy: number, ptx: number, pty: number, ms: number): Gesture {
  const [fx, fy, tx, ty] = [pfx, pfy, ptx, pty].map(Math.round);
  const { steps, pause } = pacing(ms);
  const monkey = [`touch down ${fx} ${fy}`];
  const control: ControlStep[] = [{ touch: 'down', x: fx, y: fy }];
  for (let i = 1; i <= steps; i++) {
    const { x, y } = along({ x: fx, y: fy }, { x: tx, y: ty }, i, steps);
    monkey.push(`sleep ${pause}`, `touch move ${x} ${y}`);
    control.push({ sleep: pause }, { touch: 'move', x, y });
  }
  monkey.push(`touch up ${tx} ${ty}`);
  control.push({ touch: 'up', x: tx, y: ty });
  return { control, monkey, shell: `input swipe ${fx} ${fy} ${tx} ${ty} ${ms}` };
}

/**
 * Two fingers over scrcpy's control socket, told apart by pointer id as scrcpy's own pinch
 * (ctrl+drag) tells them: the generic finger and the virtual finger. The server's PointersState turns
 * the second down/up into ACTION_POINTER_DOWN/UP. Only scrcpy can do this: `input` and monkey drive
 * one pointer.
 */
export function pinchSteps(fingers: readonly [FingerPath, FingerPath], ms: number): ControlStep[] {
  const ids = [GENERIC_FINGER, VIRTUAL_FINGER];
  const { steps, pause } = pacing(ms);
  const out: ControlStep[] = fingers.map((f, n) => ({ touch: 'down' as const, ...f.from, pointer: ids[n] }));
  for (let i = 1; i <= steps; i++) {
    out.push({ sleep: pause });
    fingers.forEach((f, n) => out.push({ touch: 'move', ...along(f.from, f.to, i, steps), pointer: ids[n] }));
  }
  fingers.forEach((f, n) => out.push({ touch: 'up', ...f.to, pointer: ids[n] }));
  return out;
}

export function keyGesture(button: Button): Gesture {
  const key = KEYCODES[button];
  return { control: [{ key: key.code }], monkey: [`press ${key.name}`], shell: `input keyevent ${key.code}` };
}

/** A tap as the viewer sends it: finger down and up at once (Android's tap timeout is 100 ms). */
function tapSteps(x: number, y: number): ControlStep[] {
  return [{ touch: 'down', x, y }, { touch: 'up', x, y }];
}
