import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { AllowedPaths } from '../../src/engine/allowed-paths.js';

/**
 * SPEC §2: files are touched only in the working directory, the temp directory and --allow-path
 * folders. A working directory that is the filesystem's root (an MCP client or a service started in /)
 * would make that every path on the machine, so it does not count.
 */

test('a working directory of / is not an allowed folder: a path elsewhere is refused, the temp folder still works', async () => {
  const allowed = new AllowedPaths([], '/');
  assert.not.ok(allowed.list().includes('/'), allowed.list().join(', '));
  assert.equal(allowed.list().filter((r) => r === tmpdir()).length, 1, 'the temp folder is listed once');
  const refused = await allowed.check('/etc/hostname', 'saveTo', '/').then(() => 'allowed', (err: Error & { code?: string }) => `${err.code}: ${err.message}`);
  assert.match(refused, /^PERMISSION_DENIED: /);
  const dir = mkdtempSync(join(tmpdir(), 'mb-root-cwd-'));
  try {
    const written = await allowed.write(join(dir, 'shot.png'), 'saveTo', Buffer.from('x'));
    assert.is(readFileSync(written, 'utf8'), 'x');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('any other working directory stays an allowed folder', () => {
  const cwd = mkdtempSync(join(tmpdir(), 'mb-cwd-'));
  try {
    assert.ok(new AllowedPaths([], cwd).list().includes(cwd));
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
});

test.run();
