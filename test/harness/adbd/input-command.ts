import { ToolError } from '../../../src/engine/errors.js';
import type { VirtualDevice } from '../../../src/engine/drivers/virtual/index.js';
import type { Button, CtrlLetter } from '../../../src/engine/types.js';
import { injectionRefused, untypableText } from './input-errors.js';
import { android10UnknownMotionEvent, olderInputUnknownCommand } from './older-display-dumps.js';
import { releaseSdk, type PhoneQuirks } from './phone-quirks.js';
import { ctx, ok, type CommandResult } from './shell-command.js';

const KEYS: Record<number, Button> = { 3: 'HOME', 4: 'BACK', 24: 'VOLUME_UP', 25: 'VOLUME_DOWN', 66: 'ENTER' };
const KEY_NAMES: Record<string, Button> = { KEYCODE_HOME: 'HOME', KEYCODE_BACK: 'BACK', KEYCODE_VOLUME_UP: 'VOLUME_UP', KEYCODE_VOLUME_DOWN: 'VOLUME_DOWN', KEYCODE_ENTER: 'ENTER' };

export function buttonForKey(key: string): Button | undefined {
  return /^\d+$/.test(key) ? KEYS[Number(key)] : KEY_NAMES[key];
}

/** KEYCODE_A, C, X, Z: the letters the virtual phone takes with Ctrl. */
const CTRL_LETTER_CODES: Record<number, CtrlLetter> = { 29: 'A', 31: 'C', 52: 'X', 54: 'Z' };

/** The letter of a key code (number or KEYCODE_ name) the virtual phone has a Ctrl shortcut for. */
export function ctrlLetterForKey(key: string): CtrlLetter | undefined {
  if (/^\d+$/.test(key)) return CTRL_LETTER_CODES[Number(key)];
  const m = /^KEYCODE_([ACXZ])$/.exec(key);
  return m ? (m[1] as CtrlLetter) : undefined;
}

/** What `input` needs from the shell it runs in. */
export interface InputHost {
  readonly phone: VirtualDevice;
  readonly quirks: PhoneQuirks;
  /** Every `input motionevent` carried out, for tests. */
  readonly motionEvents: string[];
  /** Whether input reaches the app (not a dark or locked screen). */
  readonly inputReachesApp: boolean;
  /** Logical (rotated) coordinates to the panel's. */
  toPanel(numbers: number[], count: number): number[];
}

/** `input [touchscreen] <verb> …` (Input.java, InputShellCommand), carried out on the virtual phone. */
export async function runInput(shell: InputHost, args: string[]): Promise<CommandResult> {
  const [verb, ...rest] = args[0] === 'touchscreen' ? args.slice(1) : args;
  if (verb === 'keyevent' && ['224', 'KEYCODE_WAKEUP', '26', 'KEYCODE_POWER'].includes(rest[0])) {
    shell.quirks.screenOff = ['26', 'KEYCODE_POWER'].includes(rest[0]) ? !shell.quirks.screenOff : false;
    return ok();
  }
  // Input to a dark or locked screen is accepted and goes nowhere the app can see.
  // Input.java learned motionevent in Android 10; before, it is an unknown command (exit 0).
  if (verb === 'motionevent' && (shell.quirks.noMotionEvent || releaseSdk(shell.quirks) < 29)) return { out: '', err: olderInputUnknownCommand(verb), code: 0 };
  // InputShellCommand learned keycombination in Android 13: before, `cmd input` (12) answers as
  // ShellCommand.handleDefaultCommands does, and Input.java (11 and older) prints its usage.
  if (verb === 'keycombination' && releaseSdk(shell.quirks) < 33) {
    return releaseSdk(shell.quirks) >= 31 ? { out: `Unknown command: ${verb}\n`, code: 255 } : { out: '', err: olderInputUnknownCommand(verb), code: 0 };
  }
  const injecting = ['tap', 'swipe', 'keyevent', 'keycombination', 'text', 'motionevent'].includes(verb);
  if (!shell.inputReachesApp && injecting) return ok();
  if (shell.quirks.injectionDenied && injecting) return injectionRefused(verb, releaseSdk(shell.quirks));
  const n = shell.toPanel(rest.map(Number), verb === 'swipe' ? 4 : 2);
  try {
    if (verb === 'tap') await shell.phone.tap(n[0], n[1], ctx());
    else if (verb === 'swipe') {
      // InputShellCommand.sendSwipe: duration -1 (not given) means 300 ms; it injects moves until the
      // duration has passed, so the command takes that long.
      const duration = Number.isFinite(n[4]) && n[4] >= 0 ? n[4] : 300;
      const until = Date.now() + duration;
      if (n[0] === n[2] && n[1] === n[3]) await shell.phone.longPress(n[0], n[1], duration, ctx());
      else await shell.phone.swipe(n[0], n[1], n[2], n[3], duration, ctx());
      if (until > Date.now()) await new Promise((r) => setTimeout(r, until - Date.now()));
    }
    else if (verb === 'keyevent') {
      // `input keyevent` sends each key code given, in order (InputShellCommand).
      for (const key of rest.filter((k) => !k.startsWith('--'))) {
        if (shell.quirks.deletesRefused && ['KEYCODE_DEL', '67', 'KEYCODE_FORWARD_DEL', '112'].includes(key)) continue;
        await pressKey(shell.phone, key);
      }
    } else if (verb === 'keycombination') {
      // runKeyCombination: every key down in order (the modifiers' meta state on the later ones), then up.
      const keys = rest.filter((k) => !k.startsWith('-'));
      const letter = keys.map(ctrlLetterForKey).find(Boolean);
      if (letter && keys.some((k) => k === 'KEYCODE_CTRL_LEFT' || k === '113')) await shell.phone.pressCtrl(letter, ctx());
    } else if (verb === 'motionevent') {
      // InputShellCommand.runMotionEvent: DOWN|UP|MOVE|CANCEL (any case), x y; one MotionEvent per process.
      const actions = { DOWN: 'down', UP: 'up', MOVE: 'move', CANCEL: 'cancel' } as const;
      const phase = actions[rest[0]?.toUpperCase() as keyof typeof actions] as (typeof actions)[keyof typeof actions] | undefined;
      // Android 10's Input.java takes DOWN, UP and MOVE only (CANCEL came with a later release).
      if (releaseSdk(shell.quirks) === 29 && (!phase || phase === 'cancel')) return { out: '', err: android10UnknownMotionEvent(rest[0] ?? ''), code: 0 };
      if (!phase) return { out: `Exception occurred while executing 'motionevent':\njava.lang.IllegalArgumentException: Unknown action: ${rest[0]}\n`, code: 255 };
      const p = shell.toPanel(rest.slice(1).map(Number), 2);
      shell.motionEvents.push(`${phase} ${p[0]},${p[1]}`);
      await shell.phone.touch(phase, p[0], p[1], ctx());
    } else if (verb === 'text') {
      const text = rest.join(' ').replace(/%s/g, ' ');
      // sendText: KeyCharacterMap.getEvents gives null for a character the virtual keyboard map lacks,
      // and the loop over it throws before any key is sent.
      if (/[^\x20-\x7e]/.test(text)) return untypableText(releaseSdk(shell.quirks));
      await shell.phone.typeText(text, ctx());
    } else return { out: `Error: Unknown command: ${verb}\n`, code: 1 };
  } catch (err) {
    // Real input injection never reports what the app did with the event.
    if (!(err instanceof ToolError)) throw err;
  }
  return ok();
}

/**
 * One key code by number or name; DEL is a backspace; MOVE_END and FORWARD_DEL change nothing, as the
 * model's cursor is always at the end of the field's text (one line).
 */
async function pressKey(phone: VirtualDevice, key: string): Promise<void> {
  if (key === 'KEYCODE_DEL' || key === '67') return phone.deleteBackward(ctx());
  if (key === 'KEYCODE_MOVE_END' || key === '123') return;
  if (key === 'KEYCODE_TAB' || key === '61') return phone.pressKey('TAB', ctx());
  const button = buttonForKey(key);
  if (button) await phone.pressButton(button, ctx());
}
