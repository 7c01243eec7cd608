import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { allocatorHint, ALLOCATOR_ENV, dropStartOnlyEnv, installedJemalloc, JEMALLOC_CONF, JEMALLOC_PATHS, jemallocLoaded, startEnv } from '../../src/cli/allocator-env.js';

const test = suite('the allocator the bridge runs on');
const ROOT = new URL('../../../', import.meta.url);
const START = new URL('scripts/start.sh', ROOT).pathname;
const settings = Object.entries(ALLOCATOR_ENV).map(([k, v]) => `${k}=${v}`).join(' ');

/** Installed jemalloc, or undefined with a one-line reason (an error in CI, where nothing may skip). */
function jemallocOrSkip(): string | undefined {
  const found = installedJemalloc();
  if (found) return found;
  const reason = 'jemalloc is not installed (apt-get install -y libjemalloc2); npm start\'s preload was not exercised';
  if (process.env.MOBILEBRIDGE_REQUIRE_SYSTEM_TOOLS === '1') throw new Error(`required in CI: ${reason}`);
  console.log(`  skip (part): ${reason}`);
  return undefined;
}

/** Runs scripts/start.sh with a stand-in `node` first on PATH that prints what it was given. */
async function start(env: Record<string, string>, args: string[] = []): Promise<{ env: Record<string, string>; args: string[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'mb-start-'));
  try {
    const fake = join(dir, 'node');
    writeFileSync(fake, `#!/bin/sh\nprintf 'LD_PRELOAD=%s\\nMALLOC_ARENA_MAX=%s\\nMALLOC_CONF=%s\\nADDED_PRELOAD=%s\\nADDED_CONF=%s\\n' "$LD_PRELOAD" "$MALLOC_ARENA_MAX" "$MALLOC_CONF" "$MOBILEBRIDGE_ADDED_PRELOAD" "$MOBILEBRIDGE_ADDED_MALLOC_CONF"\nfor a in "$@"; do printf 'ARG=%s\\n' "$a"; done\n`);
    chmodSync(fake, 0o755);
    const { stdout } = await promisify(execFile)('sh', [START, ...args], { env: { PATH: `${dir}:/usr/bin:/bin`, ...env } });
    const lines = stdout.trim().split('\n');
    const out: Record<string, string> = {};
    for (const l of lines.filter((x) => !x.startsWith('ARG='))) out[l.slice(0, l.indexOf('='))] = l.slice(l.indexOf('=') + 1);
    return { env: out, args: lines.filter((x) => x.startsWith('ARG=')).map((x) => x.slice(4)) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('npm start runs scripts/start.sh, which looks for jemalloc where allocator-env.ts does', () => {
  const pkg = JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')) as { scripts: { start: string } };
  assert.is(pkg.scripts.start, 'sh scripts/start.sh');
  const script = readFileSync(START, 'utf8');
  const listed = [...script.matchAll(/(\/usr\/\S*libjemalloc\.so\.2)/g)].map((m) => m[1]);
  assert.equal(listed, [...JEMALLOC_PATHS]);
  assert.ok(script.includes(`MALLOC_CONF="\${MALLOC_CONF:-${JEMALLOC_CONF}}"`), 'the same jemalloc settings');
});

test('start.sh: two glibc heaps always, jemalloc preloaded when installed (kept ahead of a preload already set), glibc on request; arguments pass through', async () => {
  const jemalloc = jemallocOrSkip();
  const plain = await start({}, ['--port', '4900']);
  assert.is(plain.env.MALLOC_ARENA_MAX, '2');
  assert.is(plain.env.LD_PRELOAD, jemalloc ?? '');
  assert.is(plain.env.MALLOC_CONF, jemalloc ? JEMALLOC_CONF : '');
  if (jemalloc) assert.is((await start({ MALLOC_CONF: 'narenas:1' })).env.MALLOC_CONF, 'narenas:1', 'the user\'s own settings win');
  assert.equal(plain.args.slice(-3), ['serve', '--port', '4900']);
  assert.match(plain.args[0], /dist\/src\/cli\/main\.js$/);
  assert.is((await start({ LD_PRELOAD: '/opt/other.so' })).env.LD_PRELOAD, jemalloc ? `${jemalloc}:/opt/other.so` : '/opt/other.so');
  assert.is((await start({ MOBILEBRIDGE_ALLOCATOR: 'glibc' })).env.LD_PRELOAD, '');
  assert.equal(startEnv(jemalloc), { ...ALLOCATOR_ENV, ...(jemalloc ? { LD_PRELOAD: jemalloc, MALLOC_CONF: JEMALLOC_CONF } : {}) });
  // What it added is named, so the bridge can take it out for the programs it starts.
  assert.equal([plain.env.ADDED_PRELOAD, plain.env.ADDED_CONF], jemalloc ? [jemalloc, '1'] : ['', '']);
  if (jemalloc) assert.is((await start({ MALLOC_CONF: 'narenas:1' })).env.ADDED_CONF, '', 'the user\'s settings are not marked as added');
});

test('what start.sh added for the bridge is not handed on to the programs it starts; the user\'s own preload and settings are', () => {
  const lib = '/usr/lib/x86_64-linux-gnu/libjemalloc.so.2';
  const ours: NodeJS.ProcessEnv = { LD_PRELOAD: lib, MALLOC_CONF: JEMALLOC_CONF, MALLOC_ARENA_MAX: '2', MOBILEBRIDGE_ADDED_PRELOAD: lib, MOBILEBRIDGE_ADDED_MALLOC_CONF: '1' };
  dropStartOnlyEnv(ours);
  assert.equal(ours, { MALLOC_ARENA_MAX: '2' });
  const mixed: NodeJS.ProcessEnv = { LD_PRELOAD: `${lib}:/opt/other.so`, MALLOC_CONF: 'narenas:1', MOBILEBRIDGE_ADDED_PRELOAD: lib };
  dropStartOnlyEnv(mixed);
  assert.equal(mixed, { LD_PRELOAD: '/opt/other.so', MALLOC_CONF: 'narenas:1' });
  const started: NodeJS.ProcessEnv = { LD_PRELOAD: lib, MALLOC_CONF: 'x' };
  dropStartOnlyEnv(started);
  assert.equal(started, { LD_PRELOAD: lib, MALLOC_CONF: 'x' }, 'not started by start.sh: nothing changes');
});

test('jemalloc is recognised in a process that has it loaded', async () => {
  assert.is(jemallocLoaded('7f00-7f01 r-xp 0 08:01 1 /usr/lib/x86_64-linux-gnu/libjemalloc.so.2\n'), true);
  assert.is(jemallocLoaded('7f00-7f01 r-xp 0 08:01 1 /usr/lib/x86_64-linux-gnu/libc.so.6\n'), false);
  const jemalloc = jemallocOrSkip();
  if (!jemalloc) return;
  const module = new URL('../../src/cli/allocator-env.js', import.meta.url).href;
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', `const m = await import(${JSON.stringify(module)}); process.stdout.write(String(m.jemallocLoaded()))`], { env: { ...process.env, LD_PRELOAD: jemalloc } });
  assert.is(stdout, 'true');
});

test('serve hints on glibc malloc only: what to install, and the setting when it is missing', () => {
  const bare = allocatorHint({}, '2.36', false, false);
  assert.ok(bare?.includes(settings) && bare.includes('libjemalloc2'), bare);
  const twoHeaps = allocatorHint({ ...ALLOCATOR_ENV }, '2.36', false, false);
  assert.ok(twoHeaps?.includes('libjemalloc2') && !twoHeaps.includes('started without'), twoHeaps);
  assert.is(allocatorHint({}, '2.36', true, false), undefined, 'jemalloc loaded: nothing to say');
  assert.is(allocatorHint({}, null, false, false), undefined, 'musl, macOS and Windows: the settings do not apply');
});

test('with jemalloc installed but not loaded, the hint says how to use it, or that it was skipped on request', () => {
  const lib = '/usr/lib/x86_64-linux-gnu/libjemalloc.so.2';
  const unused = allocatorHint({ ...ALLOCATOR_ENV }, '2.36', false, lib);
  assert.ok(unused?.includes('jemalloc is installed') && unused.includes(`LD_PRELOAD=${lib}`) && !unused.includes('apt-get'), unused);
  const skipped = allocatorHint({ ...ALLOCATOR_ENV, MOBILEBRIDGE_ALLOCATOR: 'glibc' }, '2.36', false, lib);
  assert.ok(skipped?.includes('installed but skipped') && skipped.includes('MOBILEBRIDGE_ALLOCATOR=glibc') && !skipped.includes('apt-get'), skipped);
  assert.is(allocatorHint({ MOBILEBRIDGE_ALLOCATOR: 'glibc' }, '2.36', true, lib), undefined);
});

test.run();
