import type { CallContext } from '../../driver.js';
import { ToolError } from '../../errors.js';
import type { UiElement } from '../../types.js';
import type { ControlChannel } from './scrcpy/control-channel.js';
import { ControlUnavailable } from './scrcpy/control-unavailable.js';
import { inputRefusal } from './input-commands.js';
import { deleteKeyCommands, inputTextCommands, monkeyTypeLine } from './text-input.js';

/** What typing needs from its device (android-device.ts), with the device's error mapping. */
export interface TypingIo {
  serial: string;
  /** scrcpy's control socket while a session runs. */
  control(): ControlChannel | undefined;
  /** Runs `work` over scrcpy's control socket, starting scrcpy for it when needed. */
  withScrcpyInput(work: (control: ControlChannel) => Promise<void>): Promise<void>;
  /** Lines over the monkey channel; false when `input` must do the work (monkey off, unavailable or dead). */
  monkey(lines: string[], ctx: CallContext, what: string): Promise<boolean>;
  /** Sets text on the focused field through the UiAutomator2 server; false when it is not running. */
  uiServerType?(text: string, signal: AbortSignal): Promise<boolean>;
  /** A shell command's output, with SecurityExceptions already turned into PERMISSION_DENIED. */
  shell(command: string, ctx: CallContext, what: string): Promise<string>;
  listElements(ctx: CallContext): Promise<UiElement[]>;
}

/**
 * Said in the result of typing by key events: they go to whatever window is in front, and nothing
 * tells whether a text field took them (only the UiAutomator2 server's path finds the focused field).
 */
export const UNCONFIRMED_TYPING = 'Android does not confirm that a text field took it: with none focused the keys went to the screen in front (tap the field first; mobile_list_elements_on_screen shows its text)';

/**
 * Text goes to whatever holds input focus; adb offers no cheap, reliable focus check, so these paths
 * resolve to UNCONFIRMED_TYPING. Over scrcpy's control socket while it runs; else monkey's `type` or
 * `input text` (text-input.ts says which); non-ASCII through the UiAutomator2 server (which finds the
 * focused field, or refuses) or scrcpy (started for it), as neither monkey nor `input` can type it.
 */
export async function typeText(io: TypingIo, text: string, ctx: CallContext): Promise<void | string> {
  const control = io.control();
  if (control) {
    try {
      await control.typeText(text, ctx.signal);
      return UNCONFIRMED_TYPING;
    } catch (err) {
      if (!(err instanceof ControlUnavailable)) throw err;
    }
  }
  // No `input` process when monkey's line splitting keeps the text as it is: `input` costs a JVM
  // start (226–400 ms) on older phones and tens of ms with `cmd input`.
  const line = monkeyTypeLine(text);
  if (line && (await io.monkey([line], ctx, 'typing'))) return UNCONFIRMED_TYPING;
  if (/[^\x20-\x7e\n\t]/.test(text)) {
    // `input text` knows printable ASCII only: the UiAutomator2 server sets any text on the focused
    // field; else scrcpy (started for it) pastes it from the clipboard.
    if (!/[\n\t]/.test(text) && (await io.uiServerType?.(text, ctx.signal))) return;
    let started = false;
    await io.withScrcpyInput((c) => ((started = true), c.typeText(text, ctx.signal))).catch((err: unknown) => {
      if (started && !(err instanceof ControlUnavailable)) throw err;
      throw new ToolError('UNSUPPORTED', `cannot type non-ASCII text on ${io.serial}: "input text" has no keys for it, and neither the UiAutomator2 server nor scrcpy, which paste it, is available (${(err as Error).message})`);
    });
    return UNCONFIRMED_TYPING;
  }
  const { commands, typed } = inputTextCommands(text, io.serial);
  for (let i = 0; i < commands.length; i++) {
    // A long text goes as several commands: what the earlier ones typed is in the field already.
    const earlier = i > 0 ? alreadyTyped(typed[i - 1]) : '';
    const out = await io.shell(commands[i], ctx, 'typing').catch((err: unknown) => {
      if (earlier && err instanceof Error) err.message = `${err.message} (${earlier})`;
      throw err;
    });
    const refused = inputRefusal(out);
    if (refused) throw new ToolError(refused.lacking ? 'UNSUPPORTED' : 'INTERNAL', `typing on ${io.serial} failed${earlier ? ` (${earlier})` : ''}: ${out.trim()}`);
  }
  return UNCONFIRMED_TYPING;
}

/** What earlier commands of a long text typed, for a failure of a later one: its length and end. */
function alreadyTyped(text: string): string {
  const chars = [...text];
  const end = chars.length <= 40 ? text : `…${chars.slice(-40).join('')}`;
  return `the first ${chars.length} characters, ${JSON.stringify(end)}, were typed before it`;
}

/**
 * There is no shell command that empties a field, and select-all (`input keycombination`) only
 * exists from Android 13, so: one DEL and one FORWARD_DEL per character the focused field holds (a
 * password field lists one bullet per character, so its length is known too). DELs remove what lies
 * before the cursor and FORWARD_DELs what lies after it, wherever the cursor is: MOVE_END alone only
 * reaches the end of the cursor's line in a multi-line field (ArrowKeyMovementMethod.end is lineEnd).
 * Then the field is listed again, and the answer is what that listing shows: emptied, not emptied
 * (an input filter, a field that refuses edits), or a note when the listing cannot tell.
 */
export async function clearText(io: TypingIo, ctx: CallContext): Promise<void | string> {
  const before = focusedField(await io.listElements(ctx));
  if (!before) throw new ToolError('INVALID_PARAMETER', `no text field is focused on ${io.serial}; tap a text field first`);
  // A field holding exactly its hint is listed empty (uiautomator.ts): delete as many as the hint has.
  const count = Math.max([...before.text].length, before.text === '' && before.hint ? [...before.hint].length : 0);
  if (count === 0) return;
  const { commands, deletes } = deleteKeyCommands(count);
  for (let i = 0; i < commands.length; i++) {
    // A long field takes several commands: a failure after the first has deleted part of its text.
    const partly = i > 0 ? ` after ${deletes[i - 1]} of the ${2 * count} deletes, so part of its text is gone` : '';
    const out = await io.shell(commands[i], ctx, 'clearing a field').catch((err: unknown) => {
      if (partly && err instanceof Error) err.message = `${err.message} (clearing the field stopped${partly})`;
      throw err;
    });
    const refused = inputRefusal(out);
    if (refused) throw new ToolError(refused.lacking ? 'UNSUPPORTED' : 'INTERNAL', `clearing a field on ${io.serial} failed${partly}: ${out.trim()}`);
  }
  return clearedVerdict(before, focusedField(await io.listElements(ctx)), count, io.serial);
}

function focusedField(elements: UiElement[]): UiElement | undefined {
  return elements.find((e) => e.focused && e.type === 'edittext');
}

/**
 * What the listing after the deletes says. Without the `hint` attribute (the platform's own dumper)
 * an empty field lists its hint as its text, and nothing tells the two apart: a text that is not
 * part of what the field held is that hint; the same text as before may be either.
 */
function clearedVerdict(before: UiElement, after: UiElement | undefined, count: number, serial: string): void | string {
  if (!after) return `Android did not confirm the field is empty: no field is focused after the ${count} deletes (check it with mobile_list_elements_on_screen)`;
  if (after.text === '') return;
  const hintUnknown = after.hint === undefined;
  if (hintUnknown && after.text === before.text) {
    return `Android did not confirm the field is empty: it still lists "${after.text}", which an empty field shows when that is its hint; if it is not its hint, the field refused the deletes`;
  }
  if (hintUnknown && !before.text.includes(after.text)) return;
  throw new ToolError('INTERNAL', `the focused field on ${serial} still holds "${after.text}" after ${count} deletes (it held "${before.text}"): it refuses edits or filters deletions; nothing was typed`);
}
