import { ToolError } from '../../errors.js';
import { shellQuote } from './adb-client.js';

const KEY_ENTER = 66;
const KEY_TAB = 61;

/**
 * Builds one device shell command that types `text` with `input text`, which injects key events
 * from the ASCII key map only. Spaces become "%s" (input's own escape, needed on older releases); a
 * literal "%s" is split across two calls so input does not turn it into a space; newline and tab
 * become key events. Everything else is protected by single quotes from the device shell.
 */
export function inputTextCommand(text: string, device: string): string {
  const untypable = [...new Set([...text].filter((c) => !/[\x20-\x7e\n\t]/.test(c)))];
  if (untypable.length) {
    throw new ToolError(
      'INVALID_PARAMETER',
      `cannot type ${untypable.slice(0, 8).map((c) => JSON.stringify(c)).join(', ')} on ${device}: Android's "input text" injects printable ASCII only. ` +
        'Type the text without these characters, or enter them with taps on the on-screen keyboard',
    );
  }
  const commands: string[] = [];
  let chunk = '';
  const flush = () => {
    if (chunk) commands.push(`input text ${shellQuote(chunk)}`);
    chunk = '';
  };
  for (const c of text) {
    if (c === '\n' || c === '\t') {
      flush();
      commands.push(`input keyevent ${c === '\n' ? KEY_ENTER : KEY_TAB}`);
    } else if (c === ' ') {
      chunk += '%s';
    } else {
      if (c === 's' && chunk.endsWith('%') && !chunk.endsWith('%s')) flush();
      chunk += c;
    }
  }
  flush();
  return commands.join(' && ');
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
