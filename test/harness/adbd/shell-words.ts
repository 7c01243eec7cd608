/**
 * Splits a device shell command line into simple commands joined by `;`, `&&`, `||`, with POSIX
 * quoting (single quotes literal, double quotes with \ before $ ` " \, backslash escapes outside).
 * Enough of /system/bin/sh for what adb clients send; pipes and substitutions are refused.
 */
export type Connector = ';' | '&&' | '||';

export interface SimpleCommand {
  /** How this command joins the previous one. */
  after: Connector;
  words: string[];
}

export function parseCommandLine(line: string): SimpleCommand[] {
  const commands: SimpleCommand[] = [];
  let words: string[] = [];
  let word: string | null = null;
  let after: Connector = ';';
  const endWord = () => {
    if (word !== null) words.push(word);
    word = null;
  };
  const endCommand = (next: Connector) => {
    endWord();
    if (words.length) commands.push({ after, words });
    words = [];
    after = next;
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new Error('unterminated quoted string');
      word = (word ?? '') + line.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      let value = '';
      for (i++; i < line.length && line[i] !== '"'; i++) {
        if (line[i] === '\\' && '$`"\\\n'.includes(line[i + 1] ?? '')) i++;
        else if (line[i] === '$' || line[i] === '`') throw new Error('substitutions are not emulated');
        value += line[i];
      }
      if (i >= line.length) throw new Error('unterminated quoted string');
      word = (word ?? '') + value;
    } else if (c === '\\') {
      word = (word ?? '') + (line[++i] ?? '');
    } else if (c === ' ' || c === '\t' || c === '\n') {
      endWord();
    } else if (c === ';') {
      endCommand(';');
    } else if (c === '&' && line[i + 1] === '&') {
      endCommand('&&');
      i++;
    } else if (c === '|' && line[i + 1] === '|') {
      endCommand('||');
      i++;
    } else if (c === '|' || c === '`' || (c === '$' && line[i + 1] === '(')) {
      throw new Error(`"${c}" is not emulated by the test adbd`);
    } else {
      word = (word ?? '') + c;
    }
  }
  endCommand(';');
  return commands;
}
