import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { exitWithOutput } from '../support/child-exit.js';

const WATCH = fileURLToPath(new URL('../support/stall-watch.js', import.meta.url));

/** A runner that finishes one test, starts a helper process, then waits forever, as a hung test does. */
const HUNG_RUN = `
const { spawn } = require('node:child_process');
process.stdout.write('hung.test.js\\n• ');
const helper = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
console.error('helper ' + helper.pid);
setInterval(() => {}, 1000);
`;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

test('a run with no test finishing for MOBILEBRIDGE_STALL_MS fails, names where it stopped, and stops the processes it started', async () => {
  const suite = `stall-watch-${process.pid}-${Date.now()}`;
  const child = spawn(process.execPath, ['--import', WATCH, '-e', HUNG_RUN], {
    env: { ...process.env, MOBILEBRIDGE_STALL_MS: '600', MOBILEBRIDGE_SUITE_ID: suite },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  let helper = 0;
  try {
    const code = await exitWithOutput(child);
    helper = Number(/helper (\d+)/.exec(stderr)?.[1]);
    assert.is(code, 1, stderr);
    assert.match(stderr, /stall-watch: no test finished for 0\.6 s, so the run is stopped as failed/);
    assert.match(stderr, /hung\.test\.js\n• /);
    assert.match(stderr, new RegExp(`processes of this suite stopped: \\n${helper}: `));
    if (process.platform === 'linux') {
      for (let i = 0; i < 40 && alive(helper); i++) await new Promise((r) => setTimeout(r, 50));
      assert.not.ok(alive(helper), 'the helper process was stopped');
    }
  } finally {
    clearTimeout(killer);
    if (helper && alive(helper)) process.kill(helper, 'SIGKILL');
  }
});

test('without MOBILEBRIDGE_STALL_MS the watch does nothing', async () => {
  const child = spawn(process.execPath, ['--import', WATCH, '-e', 'setTimeout(() => process.stdout.write("done"), 300)'], {
    env: { ...process.env, MOBILEBRIDGE_STALL_MS: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  assert.is(await exitWithOutput(child), 0);
  assert.is(out, 'done');
});

test.run();
