import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';

const MAIN = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
const VALID = fileURLToPath(new URL('../../../test/fixtures/scenarios/valid/', import.meta.url));

const pipe = suite<{ dir: string }>('a reader that closes the pipe early');

pipe.before((ctx) => {
  // Enough output that the pipe is closed while the command still writes (each copy is one result).
  ctx.dir = mkdtempSync(join(tmpdir(), 'mb-pipe-'));
  for (let copy = 0; copy < 20; copy++) cpSync(VALID, join(ctx.dir, `copy-${copy}`), { recursive: true });
});
pipe.after((ctx) => rmSync(ctx.dir, { recursive: true, force: true }));

function validate(dir: string, closeEarly: boolean): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [MAIN, 'validate', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
  // Like `| head -c 1`: read one chunk, then close our end; else read everything.
  if (closeEarly) child.stdout.once('data', () => child.stdout.destroy());
  else child.stdout.resume();
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr })));
}

pipe('validate ends with its own exit code and no stack trace when its reader stops after the first bytes', async ({ dir }) => {
  const whole = await validate(dir, false);
  const cut = await validate(dir, true);
  assert.not.match(cut.stderr, /EPIPE|Error:|\n\s+at /, `stderr: ${cut.stderr}`);
  // The copies repeat scenario ids (an error), so the verdict is 3 either way: the one a full read gives.
  assert.is(whole.code, 3);
  assert.is(cut.code, whole.code);
});

pipe.run();
