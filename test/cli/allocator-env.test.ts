import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { allocatorHint, ALLOCATOR_ENV } from '../../src/cli/allocator-env.js';

const settings = Object.entries(ALLOCATOR_ENV).map(([k, v]) => `${k}=${v}`).join(' ');

test('npm start runs the bridge with the allocator settings', () => {
  const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { scripts: { start: string } };
  assert.is(pkg.scripts.start, `${settings} node dist/src/cli/main.js serve`);
});

test('serve hints at the settings on glibc when any is missing, and only then', () => {
  const hint = allocatorHint({ MALLOC_TOP_PAD_: '0' }, '2.36');
  assert.ok(hint?.includes(settings), hint);
  assert.ok(hint?.includes('npm start'), hint);
  assert.is(allocatorHint({ ...ALLOCATOR_ENV }, '2.36'), undefined);
  assert.is(allocatorHint({}, null), undefined, 'musl, macOS and Windows ignore them');
});

test.run();
