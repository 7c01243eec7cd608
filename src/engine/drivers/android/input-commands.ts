import type { Button } from '../../types.js';
import type { ControlStep } from './scrcpy/control-channel.js';

/** Key codes of android.view.KeyEvent for the buttons SPEC §2 names. */
export const KEYCODES: Record<Button, { name: string; code: number }> = {
  BACK: { name: 'KEYCODE_BACK', code: 4 },
  HOME: { name: 'KEYCODE_HOME', code: 3 },
  VOLUME_UP: { name: 'KEYCODE_VOLUME_UP', code: 24 },
  VOLUME_DOWN: { name: 'KEYCODE_VOLUME_DOWN', code: 25 },
  ENTER: { name: 'KEYCODE_ENTER', code: 66 },
};

export const DOUBLE_TAP_GAP_MS = 100;

/**
 * One gesture as scrcpy control steps, as monkey network commands (touch down/move/up, sleep) and as
 * the equivalent `input` shell command, so the driver can send any without duplicating the gesture logic.
 */
export interface Gesture {
  control: ControlStep[];
  monkey: string[];
  shell: string;
}

export function tapGesture(x: number, y: number): Gesture {
  return { control: tapSteps(x, y), monkey: [`tap ${x} ${y}`], shell: `input tap ${x} ${y}` };
}

export function doubleTapGesture(x: number, y: number): Gesture {
  return {
    control: [...tapSteps(x, y), { sleep: DOUBLE_TAP_GAP_MS }, ...tapSteps(x, y)],
    monkey: [`tap ${x} ${y}`, `sleep ${DOUBLE_TAP_GAP_MS}`, `tap ${x} ${y}`],
    shell: `input tap ${x} ${y} && input tap ${x} ${y}`,
  };
}

export function longPressGesture(x: number, y: number, ms: number): Gesture {
  return {
    control: [{ touch: 'down', x, y }, { sleep: ms }, { touch: 'up', x, y }],
    monkey: [`touch down ${x} ${y}`, `sleep ${ms}`, `touch up ${x} ${y}`],
    shell: `input swipe ${x} ${y} ${x} ${y} ${ms}`,
  };
}

/** Moves every ~16 ms (one frame) so the app's velocity tracker sees a real fling. */
export function swipeGesture(fx: number, fy: number, tx: number, ty: number, ms: number): Gesture {
  const steps = Math.max(2, Math.min(60, Math.round(ms / 16)));
  const pause = Math.max(1, Math.round(ms / steps));
  const monkey = [`touch down ${fx} ${fy}`];
  const control: ControlStep[] = [{ touch: 'down', x: fx, y: fy }];
  for (let i = 1; i <= steps; i++) {
    const x = Math.round(fx + ((tx - fx) * i) / steps);
    const y = Math.round(fy + ((ty - fy) * i) / steps);
    monkey.push(`sleep ${pause}`, `touch move ${x} ${y}`);
    control.push({ sleep: pause }, { touch: 'move', x, y });
  }
  monkey.push(`touch up ${tx} ${ty}`);
  control.push({ touch: 'up', x: tx, y: ty });
  return { control, monkey, shell: `input swipe ${fx} ${fy} ${tx} ${ty} ${ms}` };
}

export function keyGesture(button: Button): Gesture {
  const key = KEYCODES[button];
  return { control: [{ key: key.code }], monkey: [`press ${key.name}`], shell: `input keyevent ${key.code}` };
}

/** A tap as the viewer sends it: finger down and up at once (Android's tap timeout is 100 ms). */
function tapSteps(x: number, y: number): ControlStep[] {
  return [{ touch: 'down', x, y }, { touch: 'up', x, y }];
}
