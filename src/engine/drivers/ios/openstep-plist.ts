/**
 * A reader for the old-style (OpenStep/NeXTSTEP) property list text that `xcrun simctl listapps <udid>`
 * prints: `{ key = value; }` dictionaries, `( a, b )` arrays, quoted or bare strings and `<hex>` data
 * (format: Apple's "Old-Style ASCII Property Lists", Property List Programming Guide). Parsing it here
 * avoids a round trip through `plutil` and keeps the simulator path testable anywhere.
 */
export type PlistValue = string | PlistValue[] | { [key: string]: PlistValue };

const BARE = /[A-Za-z0-9_$+/:.\-]/;

export function parseOpenStepPlist(text: string): PlistValue {
  let i = 0;

  const fail = (what: string): never => {
    const line = text.slice(0, i).split('\n').length;
    throw new Error(`old-style plist: ${what} at line ${line}`);
  };

  const skip = () => {
    for (;;) {
      while (i < text.length && /\s/.test(text[i])) i++;
      if (text.startsWith('//', i)) {
        const end = text.indexOf('\n', i);
        i = end < 0 ? text.length : end;
      } else if (text.startsWith('/*', i)) {
        const end = text.indexOf('*/', i + 2);
        if (end < 0) fail('unterminated comment');
        i = end + 2;
      } else return;
    }
  };

  const quoted = (): string => {
    const quote = text[i++];
    let out = '';
    while (i < text.length && text[i] !== quote) {
      const c = text[i++];
      if (c !== '\\') {
        out += c;
        continue;
      }
      const e = text[i++];
      if (e === 'n') out += '\n';
      else if (e === 't') out += '\t';
      else if (e === 'r') out += '\r';
      else if (e === 'U' || e === 'u') {
        out += String.fromCharCode(parseInt(text.slice(i, i + 4), 16));
        i += 4;
      } else if (e !== undefined && /[0-7]/.test(e)) {
        const digits = text.slice(i - 1, i + 2).match(/^[0-7]{1,3}/)![0];
        out += String.fromCharCode(parseInt(digits, 8));
        i += digits.length - 1;
      } else out += e ?? '';
    }
    if (text[i] !== quote) fail('unterminated string');
    i++;
    return out;
  };

  const string = (): string => {
    if (text[i] === '"' || text[i] === "'") return quoted();
    const start = i;
    while (i < text.length && BARE.test(text[i])) i++;
    if (i === start) fail(`unexpected ${JSON.stringify(text[i] ?? 'end of text')}`);
    return text.slice(start, i);
  };

  const value = (): PlistValue => {
    skip();
    const c = text[i];
    if (c === '{') {
      i++;
      const dict: { [key: string]: PlistValue } = {};
      for (;;) {
        skip();
        if (text[i] === '}') {
          i++;
          return dict;
        }
        const key = string();
        skip();
        if (text[i++] !== '=') fail(`expected = after key ${JSON.stringify(key)}`);
        dict[key] = value();
        skip();
        if (text[i++] !== ';') fail(`expected ; after the value of ${JSON.stringify(key)}`);
      }
    }
    if (c === '(') {
      i++;
      const list: PlistValue[] = [];
      for (;;) {
        skip();
        if (text[i] === ')') {
          i++;
          return list;
        }
        list.push(value());
        skip();
        if (text[i] === ',') i++;
        else if (text[i] !== ')') fail('expected , or ) in array');
      }
    }
    if (c === '<') {
      const end = text.indexOf('>', i);
      if (end < 0) fail('unterminated data');
      const hex = text.slice(i + 1, end).replace(/\s+/g, '');
      i = end + 1;
      return hex;
    }
    return string();
  };

  const result = value();
  skip();
  if (i < text.length) fail('trailing text');
  return result;
}
