import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ToolError } from '../../src/engine/errors.js';
import { readApkManifest, readIpaInfoPlist } from '../../src/engine/files/package-files.js';
import { buildApk } from '../harness/apk-builder.js';
import { buildZip } from '../harness/zip-writer.js';

/** Audit 24 c5: corrupt app files are refused with a clear INVALID_PARAMETER, never hang or abort the process. */
const t = suite<{ dir: string }>('app files');
t.before.each((ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'mb-appfiles-'));
});
t.after.each((ctx) => rmSync(ctx.dir, { recursive: true, force: true }));

const rejection = async (p: Promise<unknown>): Promise<ToolError> => {
  const err = await p.then(() => undefined, (e: unknown) => e);
  assert.instance(err, ToolError, `expected a ToolError, got ${String(err)}`);
  return err as ToolError;
};

const apkWithManifest = (dir: string, manifest: Buffer): string => {
  const file = join(dir, 'app.apk');
  writeFileSync(file, buildZip([{ name: 'AndroidManifest.xml', data: manifest }]));
  return file;
};

t('a binary manifest holding a chunk of size 0 is refused instead of looping forever', async ({ dir }) => {
  // The XML header (type 3, header 8, size 24) followed by 16 zero bytes: a NULL chunk of size 0.
  const manifest = Buffer.alloc(24);
  manifest.writeUInt16LE(3, 0);
  manifest.writeUInt16LE(8, 2);
  manifest.writeUInt32LE(24, 4);
  const err = await rejection(readApkManifest(apkWithManifest(dir, manifest)));
  assert.is(err.code, 'INVALID_PARAMETER');
  assert.match(err.message, 'corrupt binary XML at offset 8');
});

t('a string pool whose offsets all point at one long string is refused', async ({ dir }) => {
  const count = 1000;
  const pool = Buffer.alloc(28 + 4 * count + 4 + 2000 + 2);
  pool.writeUInt16LE(1, 0);
  pool.writeUInt16LE(28, 2);
  pool.writeUInt32LE(pool.length, 4);
  pool.writeUInt32LE(count, 8);
  pool.writeUInt32LE(28 + 4 * count, 20);
  pool.writeUInt16LE(1000, 28 + 4 * count); // every offset is 0: the same 1000-char string
  const header = Buffer.alloc(8);
  header.writeUInt16LE(3, 0);
  header.writeUInt16LE(8, 2);
  header.writeUInt32LE(8 + pool.length, 4);
  const err = await rejection(readApkManifest(apkWithManifest(dir, Buffer.concat([header, pool]))));
  assert.match(err.message, 'corrupt binary XML at offset 8');
});

t('a well-formed manifest still parses', async ({ dir }) => {
  const file = join(dir, 'ok.apk');
  writeFileSync(file, buildApk({ package: 'com.example.ok' }));
  assert.is((await readApkManifest(file)).package, 'com.example.ok');
});

const eocdOf = (zip: Buffer): number => zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));

t('an end record declaring a 2 GiB central directory is refused, not a process abort', async ({ dir }) => {
  const zip = buildApk({ package: 'com.example.cd' });
  zip.writeUInt32LE(0x80000000, eocdOf(zip) + 12);
  const apk = join(dir, 'cd2g.apk');
  const ipa = join(dir, 'cd2g.ipa');
  writeFileSync(apk, zip);
  writeFileSync(ipa, zip);
  for (const err of [await rejection(readApkManifest(apk)), await rejection(readIpaInfoPlist(ipa))]) {
    assert.is(err.code, 'INVALID_PARAMETER');
    assert.match(err.message, 'corrupt zip end record');
  }
});

t('a central directory entry whose name runs past the directory is refused without a raw RangeError', async ({ dir }) => {
  const zip = buildZip([{ name: 'a.txt', data: Buffer.from('a') }, { name: 'AndroidManifest.xml', data: Buffer.from('b') }]);
  const cdOffset = zip.readUInt32LE(eocdOf(zip) + 16);
  zip.writeUInt16LE(0xffff, cdOffset + 28);
  const file = join(dir, 'name.apk');
  writeFileSync(file, zip);
  const err = await rejection(readApkManifest(file));
  assert.is(err.code, 'INVALID_PARAMETER');
  assert.match(err.message, 'corrupt zip central directory');
  assert.not.match(err.message, 'out of range');
});

t('a manifest that ends inside an element says so, without the RangeError text', async ({ dir }) => {
  // The XML header, then a start-element chunk that claims only 16 bytes: the parser reads past it.
  const manifest = Buffer.alloc(24);
  manifest.writeUInt16LE(3, 0);
  manifest.writeUInt16LE(8, 2);
  manifest.writeUInt32LE(24, 4);
  manifest.writeUInt16LE(0x0102, 8);
  manifest.writeUInt16LE(16, 10);
  manifest.writeUInt32LE(16, 12);
  const err = await rejection(readApkManifest(apkWithManifest(dir, manifest)));
  assert.is(err.code, 'INVALID_PARAMETER');
  assert.match(err.message, 'corrupt binary XML (a chunk ends before its content)');
  assert.not.match(err.message, 'out of range');
});

t('an app file the OS refuses to open is PERMISSION_DENIED saying to make it readable, not a format problem', async ({ dir }) => {
  const file = join(dir, 'unreadable.apk');
  writeFileSync(file, buildApk({ package: 'com.example.locked' }));
  chmodSync(file, 0o000);
  chmodSync(dir, 0o755);
  const reader = join(dirname(fileURLToPath(import.meta.url)), '../../src/engine/files/package-files.js');
  const script = `import(${JSON.stringify(reader)}).then((m) => m.readApkManifest(${JSON.stringify(file)})).then(() => console.log('{}'), (e) => console.log(JSON.stringify({ code: e.code, message: e.message })))`;
  // root reads a mode-000 file anyway: the read runs as nobody then.
  const asUser = process.getuid?.() === 0 ? ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', process.execPath] : [process.execPath];
  const out = JSON.parse(execFileSync(asUser[0], [...asUser.slice(1), '--input-type=module', '-e', script], { encoding: 'utf8' })) as { code?: string; message?: string };
  assert.is(out.code, 'PERMISSION_DENIED', out.message);
  assert.match(out.message ?? '', 'make it readable by the user running mobilebridge');
});

t.run();
