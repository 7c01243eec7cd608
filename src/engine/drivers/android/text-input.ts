import { ToolError } from '../../errors.js';
import { shellQuote } from './adb-client.js';

const KEY_ENTER = 66;
const KEY_TAB = 61;
const KEY_DEL = 67;
const KEY_FORWARD_DEL = 112;
const KEY_MOVE_END = 123;

/**
 * The longest typing command sent at once, in bytes: under adb-client's MAX_SERVICE_BYTES (which
 * says why) once `exec:` is put in front; a longer text goes as several commands.
 */
export const MAX_COMMAND_BYTES = 4000;

/**
 * Device shell commands that type `text` with `input text`, which injects key events from the
 * ASCII key map only, each command under MAX_COMMAND_BYTES. Spaces become "%s" (input's own escape,
 * needed on older releases); a literal "%s" is split across two calls so input does not turn it into
 * a space; newline and tab become key events. Everything else is protected by single quotes from
 * the device shell. `typed[i]` is the text that commands[0..i] type, for saying where a failure left off.
 */
export function inputTextCommands(text: string, device: string): { commands: string[]; typed: string[] } {
  const untypable = [...new Set([...text].filter((c) => !/[\x20-\x7e\n\t]/.test(c)))];
  if (untypable.length) {
    throw new ToolError(
      'INVALID_PARAMETER',
      `cannot type ${untypable.slice(0, 8).map((c) => JSON.stringify(c)).join(', ')} on ${device}: Android's "input text" injects printable ASCII only. ` +
        'Type the text without these characters, or enter them with taps on the on-screen keyboard',
    );
  }
  // Steps of one command each (a chunk of `input text`, or a key event), with the text each types.
  const steps: { command: string; types: string }[] = [];
  // What the chunk costs once quoted: a quote becomes '\'' (4 bytes), a space %s (2).
  const chunkLimit = MAX_COMMAND_BYTES - 32;
  let chunk = '';
  let chunkText = '';
  let chunkBytes = 0;
  const flush = () => {
    if (chunk) steps.push({ command: `input text ${shellQuote(chunk)}`, types: chunkText });
    chunk = '';
    chunkText = '';
    chunkBytes = 0;
  };
  for (const c of text) {
    if (c === '\n' || c === '\t') {
      flush();
      steps.push({ command: `input keyevent ${c === '\n' ? KEY_ENTER : KEY_TAB}`, types: c });
      continue;
    }
    const bytes = c === "'" ? 4 : c === ' ' ? 2 : 1;
    if ((c === 's' && chunk.endsWith('%') && !chunk.endsWith('%s')) || chunkBytes + bytes > chunkLimit) flush();
    chunk += c === ' ' ? '%s' : c;
    chunkText += c;
    chunkBytes += bytes;
  }
  flush();
  const commands: string[] = [];
  const typed: string[] = [];
  let done = '';
  for (const step of steps) {
    const last = commands.length - 1;
    done += step.types;
    if (last >= 0 && Buffer.byteLength(commands[last]) + 4 + Buffer.byteLength(step.command) <= MAX_COMMAND_BYTES) {
      commands[last] += ` && ${step.command}`;
      typed[last] = done;
    } else {
      commands.push(step.command);
      typed.push(done);
    }
  }
  return { commands, typed };
}

/**
 * `input keyevent` commands that send MOVE_END, then `count` DELs, then `count` FORWARD_DELs, each
 * command under MAX_COMMAND_BYTES: key codes by number (3–4 bytes each; a name is 12–20), so a field
 * of about 550 characters is emptied by one command and a longer one by several, where one command
 * of names stopped at about 125 characters. `deletes[i]` is how many keys commands[0..i] sent.
 */
export function deleteKeyCommands(count: number): { commands: string[]; deletes: number[] } {
  const keys = [KEY_MOVE_END, ...Array<number>(count).fill(KEY_DEL), ...Array<number>(count).fill(KEY_FORWARD_DEL)];
  const commands: string[] = [];
  const deletes: number[] = [];
  let command = '';
  let sent = 0;
  for (const key of keys) {
    const word = ` ${key}`;
    if (command && command.length + word.length > MAX_COMMAND_BYTES) {
      commands.push(command);
      deletes.push(sent);
      command = '';
    }
    command = (command || 'input keyevent') + word;
    if (key !== KEY_MOVE_END) sent++;
  }
  commands.push(command);
  deletes.push(sent);
  return { commands, deletes };
}

/**
 * The `monkey --port` line that types `text`, or undefined when monkey would not type it as given
 * (then `input text` does). MonkeySourceNetwork splits a line on runs of whitespace; a word starting
 * with `"` opens a quoted run that the next word ending in `"` closes, joined with single spaces and
 * with `\"` read as `"`; `type` takes exactly one argument and injects its characters from the
 * virtual key map, which has all of printable ASCII. So the text must be printable ASCII without
 * `"` or `\`, with no space at either end nor two in a row, and is quoted when it holds a space.
 */
export function monkeyTypeLine(text: string): string | undefined {
  if (!/^[\x21\x23-\x5b\x5d-\x7e]+(?: [\x21\x23-\x5b\x5d-\x7e]+)*$/.test(text)) return undefined;
  return text.includes(' ') ? `type "${text}"` : `type ${text}`;
}
