/**
 * Loaded into the test runner by `npm test` (node --import): uvu prints a failure's details right
 * after its file, somewhere in the middle of ten minutes of output, and a CI log is often read
 * from its end. After the summary, this writes every failure again with the file it came from.
 */
const ESCAPES = /\x1b\[[0-9;]*m/g;

const failures: string[] = [];
let file = '';
const write = process.stdout.write.bind(process.stdout);

process.stdout.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
  const text = String(chunk);
  const plain = text.replace(ESCAPES, '');
  // uvu writes a file's name alone on a line before its suites, and a failed suite's details as
  // one block that starts with a blank line and holds " FAIL ".
  if (/^\S+\.[cm]?js\n$/.test(plain)) file = plain.trim();
  else if (plain.startsWith('\n') && plain.includes(' FAIL ')) failures.push(`${file}\n${plain.trim()}`);
  const written = write(chunk, ...rest);
  if (failures.length && /\n {2}Duration: .*\n/.test(plain)) {
    write(`\n  Failed, again (${failures.length} ${failures.length === 1 ? 'suite' : 'suites'}):\n\n${failures.join('\n\n')}\n\n`);
  }
  return written;
}) as typeof process.stdout.write;

export {};
