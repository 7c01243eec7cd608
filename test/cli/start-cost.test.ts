import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { deadPort } from '../support/dead-port.js';

/*
 * What a command loads is what it costs to start: sharp ~150 ms, adbkit ~110, the scrcpy library
 * ~200, the XML parser ~80, ws ~90. A one-shot command loads only what its work needs.
 */
const run = promisify(execFile);
const MAIN = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
const RECORDER = fileURLToPath(new URL('../support/load-recorder.js', import.meta.url));
const HEAVY = ['sharp', '@devicefarmer/adbkit', '@yume-chan/scrcpy', 'fast-xml-parser', 'ws', 'hono', '@modelcontextprotocol/sdk'];

const start = suite<{ dir: string; adbPort: number }>('what a command loads at start');

start.before(async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'mb-start-'));
  ctx.adbPort = await deadPort();
});
start.after((ctx) => rmSync(ctx.dir, { recursive: true, force: true }));

/** The heavy libraries a command loaded (its exit code does not matter here), and the Android or iOS driver if it did. */
async function heavyLoaded(ctx: { dir: string; adbPort: number }, ...args: string[]): Promise<string[]> {
  const record = join(ctx.dir, `loads-${Math.random().toString(36).slice(2)}.txt`);
  writeFileSync(record, '');
  const env = { ...process.env, MB_LOAD_RECORD: record, MOBILEBRIDGE_STATE_DIR: join(ctx.dir, 'state') };
  // The Android driver stays on (as for a user) but is pointed at a dead port with --adb, which
  // never starts a server there (a local default address would: the CLI starts adb as adb does).
  const device = ['call', 'devices'].includes(args[0]) ? ['--adb', `127.0.0.1:${ctx.adbPort}`] : [];
  await run(process.execPath, ['--import', RECORDER, MAIN, ...args, ...device], { env, cwd: ctx.dir }).catch(() => undefined);
  const lines = readFileSync(record, 'utf8').split('\n');
  // Their setup helpers (flag parsing) are light and load with every command; the drivers are not.
  const drivers = ['android/android-device', 'ios/ios-device'].filter((m) => lines.some((l) => l.endsWith(`/dist/src/engine/drivers/${m}.js`))).map((m) => `${m.split('/')[0]} driver`);
  return [...HEAVY.filter((name) => lines.some((l) => l === `require:${name}` || l.includes(`/node_modules/${name}/`))), ...drivers];
}

start('--help loads no command, so none of their libraries', async (ctx) => {
  assert.equal(await heavyLoaded(ctx, '--help'), []);
});

start('a tool call on a virtual phone loads no image, adb, scrcpy, XML or network library, nor the Android or iOS driver', async (ctx) => {
  assert.equal(await heavyLoaded(ctx, 'call', 'mobile_get_screen_size', '{"device":"virtual-android-1"}', '--no-ios'), []);
  assert.equal(await heavyLoaded(ctx, 'call', 'mobile_click_on_screen_at_coordinates', '{"device":"virtual-android-1","x":10,"y":10}', '--no-ios'), []);
});

start('a screenshot loads the image library, and only it', async (ctx) => {
  // Also shows that the recorder sees what is loaded: without it the tests above prove nothing.
  assert.equal(await heavyLoaded(ctx, 'call', 'mobile_take_screenshot', '{"device":"virtual-android-1"}', '--no-ios'), ['sharp']);
});

start('a call on an Android serial loads the Android driver and adbkit (and finds no phone at the dead port)', async (ctx) => {
  assert.equal(await heavyLoaded(ctx, 'call', 'mobile_get_screen_size', '{"device":"emulator-5554"}', '--no-ios'), ['@devicefarmer/adbkit', 'android driver']);
});

start('validate loads none of them', async (ctx) => {
  const file = join(ctx.dir, 'x.json');
  writeFileSync(file, '{}');
  assert.equal(await heavyLoaded(ctx, 'validate', file), []);
});

start.run();
