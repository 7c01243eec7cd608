import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { exitWithOutput } from '../support/child-exit.js';

const ECHO = fileURLToPath(new URL('../support/failure-echo.js', import.meta.url));
const UVU = fileURLToPath(new URL('../../../node_modules/uvu/bin.js', import.meta.url));
const UVU_ENTRY = fileURLToPath(new URL('../../../node_modules/uvu/dist/index.mjs', import.meta.url));

async function runUvu(files: Record<string, string>, preload: boolean): Promise<{ code: number | null; out: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'failure-echo-'));
  try {
    for (const [name, body] of Object.entries(files)) await writeFile(join(dir, name), body);
    const child = spawn(process.execPath, [...(preload ? ['--import', ECHO] : []), UVU, dir, '\\.test\\.mjs$'], {
      env: { ...process.env, FORCE_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    const code = await exitWithOutput(child);
    clearTimeout(killer);
    return { code, out: out.replace(/\x1b\[[0-9;]*m/g, '') };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const suiteFile = (name: string, ok: boolean) =>
  `import { test } from ${JSON.stringify(UVU_ENTRY)};\n` +
  `test(${JSON.stringify(name)}, () => { if (!${ok}) throw new Error('broke in ${name}'); });\n` +
  `test.run();\n`;

test('after the summary, every failed test is written again under the file it came from', async () => {
  const { code, out } = await runUvu(
    { 'a.test.mjs': suiteFile('first fails', false), 'b.test.mjs': suiteFile('passes', true), 'c.test.mjs': suiteFile('third fails', false) },
    true,
  );
  assert.is(code, 1);
  const [, after] = out.split(/Duration: .*\n/);
  assert.ok(after, out);
  assert.match(after, /Failed, again \(2 suites\):/);
  assert.match(after, /a\.test\.mjs\n\s*FAIL\s+"first fails"\n\s+broke in first fails/);
  assert.match(after, /c\.test\.mjs\n\s*FAIL\s+"third fails"/);
  assert.not.match(after, /passes/);
});

test('a run without failures ends with the summary, as before', async () => {
  const { code, out } = await runUvu({ 'a.test.mjs': suiteFile('passes', true) }, true);
  assert.is(code, 0);
  assert.match(out, /Duration: .*\n\s*$/);
  assert.not.match(out, /again/);
});

test.run();
