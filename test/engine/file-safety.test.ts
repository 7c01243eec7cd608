import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { VirtualDriver } from '../../src/engine/drivers/virtual/index.js';
import { Engine } from '../../src/engine/engine.js';
import { ToolError } from '../../src/engine/errors.js';
import { injectWriteFault, readInside, realInside, writeInside } from '../../src/engine/files/safe-fs.js';
import { readApkManifest, readIpaInfoPlist } from '../../src/engine/files/package-files.js';
import { buildZip } from '../harness/zip-writer.js';

/** Issue 16, files: every read and write on a caller's behalf stays inside its roots and never hangs. */
type R = Record<string, any>;
const A = 'virtual-android-1';
const t = suite<{ engine: Engine; root: string; outside: string }>('file safety');

t.before.each((ctx) => {
  const base = mkdtempSync(join(tmpdir(), 'mb-files-'));
  ctx.root = join(base, 'allowed');
  ctx.outside = join(base, 'outside');
  mkdirSync(ctx.root);
  mkdirSync(ctx.outside);
  // Only `root` is allowed: the temp folder (a default root) is left out by using a cwd-less list.
  ctx.engine = new Engine({ drivers: [new VirtualDriver()] });
  (ctx.engine.allowedPaths as unknown as { roots: string[] }).roots = [ctx.root];
});
t.after.each(async (ctx) => {
  injectWriteFault(undefined);
  await ctx.engine.close();
  rmSync(join(ctx.root, '..'), { recursive: true, force: true });
});

const call = (e: Engine, tool: string, params: R) => e.call(tool, params) as Promise<R>;
const where = (root: string) => ({ roots: [root], param: 'saveTo' });
const rejection = async (p: Promise<unknown>): Promise<ToolError> => {
  const err = await p.then(() => undefined, (e: unknown) => e);
  assert.instance(err, ToolError, 'expected a ToolError');
  return err as ToolError;
};

t('a dangling symlink pointing outside is refused, and nothing is written there', async ({ engine, root, outside }) => {
  symlinkSync(join(outside, 'planted.png'), join(root, 'shot.png'));
  const r = await call(engine, 'mobile_save_screenshot', { device: A, saveTo: join(root, 'shot.png') });
  assert.is(r.code, 'PERMISSION_DENIED', r.message);
  assert.not.ok(existsSync(join(outside, 'planted.png')));
});

t('a symlinked folder inside the root that points outside is refused', async ({ engine, root, outside }) => {
  symlinkSync(outside, join(root, 'link'));
  const r = await call(engine, 'mobile_save_screenshot', { device: A, saveTo: join(root, 'link', 'x.png') });
  assert.is(r.code, 'PERMISSION_DENIED');
  assert.equal(readdirSync(outside), []);
});

t('a folder swapped for a symlink between check and write never lands outside (24 races)', async ({ root, outside }) => {
  const dir = join(root, 'shots');
  const parked = join(root, 'parked');
  let escaped = 0;
  for (let i = 0; i < 24; i++) {
    mkdirSync(dir, { recursive: true });
    // The swap happens right after the check, while the write is under way.
    injectWriteFault(() => {
      renameSync(dir, `${parked}${i}`);
      symlinkSync(outside, dir);
      return undefined;
    });
    await writeInside(join(dir, `s${i}.png`), Buffer.from('png'), where(root)).catch(() => undefined);
    injectWriteFault(undefined);
    escaped += readdirSync(outside).length;
    rmSync(dir, { force: true });
  }
  assert.is(escaped, 0, 'no write may land outside');
});

t('a FIFO is refused at once for reading and writing; later saves still work', async ({ engine, root }) => {
  const fifo = join(root, 'pipe.png');
  execFileSync('mkfifo', [fifo]);
  for (let i = 0; i < 6; i++) {
    const r = await call(engine, 'mobile_save_screenshot', { device: A, saveTo: fifo });
    assert.is(r.code, 'INVALID_PARAMETER');
    assert.match(r.message, /FIFO/);
  }
  const read = await rejection(readInside(fifo, where(root)));
  assert.match(read.message, /FIFO/);
  const ok = await call(engine, 'mobile_save_screenshot', { device: A, saveTo: join(root, 'after.png') });
  assert.is(ok.status, 'success', ok.message);
});

t('installing a device file or a FIFO is refused before opening it', async ({ engine, root }) => {
  (engine.allowedPaths as unknown as { roots: string[] }).roots = [root, '/dev'];
  const r = await call(engine, 'mobile_install_app', { device: A, path: '/dev/zero' });
  assert.is(r.code, 'INVALID_PARAMETER');
  assert.match(r.message, /device/);
});

t('a path outside gets the same answer whether or not the file exists (no oracle)', async ({ root, outside }) => {
  writeFileSync(join(outside, 'exists.png'), 'not a png');
  const a = await rejection(readInside(join(outside, 'exists.png'), where(root)));
  const b = await rejection(readInside(join(outside, 'missing.png'), where(root)));
  assert.is(a.code, 'PERMISSION_DENIED');
  assert.is(b.code, 'PERMISSION_DENIED');
  assert.is(a.message.replace('exists', 'X'), b.message.replace('missing', 'X'));
  symlinkSync(join(outside, 'exists.png'), join(root, 'l1.png'));
  symlinkSync(join(outside, 'missing.png'), join(root, 'l2.png'));
  const c = await rejection(realInside(join(root, 'l1.png'), where(root)));
  const d = await rejection(realInside(join(root, 'l2.png'), where(root)));
  assert.is(c.message.replace('l1', 'X'), d.message.replace('l2', 'X'));
});

t('a full disk answers DISK_FULL, leaves no 0-byte file and keeps the old content', async ({ engine, root }) => {
  const file = join(root, 'shot.png');
  writeFileSync(file, 'previous');
  injectWriteFault(() => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }));
  const r = await call(engine, 'mobile_save_screenshot', { device: A, saveTo: file });
  assert.is(r.code, 'DISK_FULL', r.message);
  assert.match(r.message, /disk is full/);
  assert.equal(readdirSync(root), ['shot.png'], 'no temp file left behind');
  assert.is(statSync(file).size, 'previous'.length);
  const fresh = await call(engine, 'mobile_save_screenshot', { device: A, saveTo: join(root, 'new.png') });
  assert.is(fresh.code, 'DISK_FULL');
  assert.not.ok(existsSync(join(root, 'new.png')), 'no 0-byte PNG');
});

t('an .ipa whose Info.plist inflates past the cap is refused quickly, without reading it all', async ({ root }) => {
  const bomb = buildZip([{ name: 'Payload/Bomb.app/Info.plist', data: Buffer.alloc(40 * 1024 * 1024, 0x20) }]);
  const file = join(root, 'bomb.ipa');
  writeFileSync(file, bomb);
  const err = await rejection(readIpaInfoPlist(file));
  assert.is(err.code, 'INVALID_PARAMETER');
  assert.match(err.message, /inflates to more than/);
});

t('an .apk whose manifest inflates past the cap is refused', async ({ root }) => {
  const file = join(root, 'bomb.apk');
  writeFileSync(file, buildZip([{ name: 'AndroidManifest.xml', data: Buffer.alloc(40 * 1024 * 1024) }]));
  const err = await rejection(readApkManifest(file));
  assert.match(err.message, /inflates to more than/);
});

t('writes are atomic: the temp file lives in the target folder and is gone afterwards', async ({ root }) => {
  const file = join(root, 'a', 'b', 'c.json');
  assert.is(await writeInside(file, '{}', where(root), { createFolders: true }), file);
  assert.equal(readdirSync(join(root, 'a', 'b')), ['c.json']);
  const err = await rejection(writeInside(join(root, '..', 'outside', 'x.json'), '{}', where(root), { createFolders: true }));
  assert.is(err.code, 'PERMISSION_DENIED');
});

t.run();
