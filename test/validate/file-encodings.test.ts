import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { validateFiles } from '../../src/validate/files.js';
import { decodeText } from '../../src/validate/text-decode.js';
import { readFixture } from './helpers.js';

/** What the file reader makes of bytes that are not plain UTF-8 (scenario files, flows, params). */

const login = readFixture('valid', 'login.json');
const utf16le = (text: string, bom: boolean) => Buffer.concat([bom ? Buffer.from([0xff, 0xfe]) : Buffer.alloc(0), Buffer.from(text, 'utf16le')]);
const utf16be = (text: string, bom: boolean) => Buffer.from(utf16le(text, bom)).swap16();

function inTemp(run: (dir: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'mb-encodings-'));
  try {
    run(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('UTF-16 files, with or without a byte-order mark, either byte order, are validated like their UTF-8 text', () => {
  inTemp((dir) => {
    const files = {
      'le-bom.json': utf16le(login, true),
      'be-bom.json': utf16be(login, true),
      'le.json': utf16le(login, false),
      'be.json': utf16be(login, false),
    };
    for (const [name, bytes] of Object.entries(files)) writeFileSync(join(dir, name), bytes);
    const outcomes = validateFiles(Object.keys(files).map((n) => join(dir, n)));
    // Four copies of one scenario: the first is valid, the rest repeat its scenario_id (a verdict on the content).
    assert.equal(outcomes.map((o) => o.readError), [undefined, undefined, undefined, undefined]);
    assert.ok(outcomes[0].report.valid, JSON.stringify(outcomes[0].report.errors));
    assert.equal(outcomes.slice(1).map((o) => o.report.errors.map((e) => e.rule)), [['scenario-id-duplicate'], ['scenario-id-duplicate'], ['scenario-id-duplicate']]);
  });
});

test('an error in a UTF-16 file is placed at the same line and column as in its UTF-8 text', () => {
  const doc = JSON.parse(login) as Record<string, unknown>;
  doc.platform = 'windows';
  const text = JSON.stringify(doc, null, 2);
  const placed = (bytes: Buffer) => {
    let errors: unknown;
    inTemp((dir) => {
      writeFileSync(join(dir, 's.json'), bytes);
      errors = validateFiles([join(dir, 's.json')])[0].report.errors.map((e) => [e.rule, e.line, e.column]);
    });
    return errors;
  };
  const utf8 = placed(Buffer.from(text));
  assert.equal(utf8, [['platform-invalid', 6, 15]]);
  assert.equal(placed(utf16le(text, true)), utf8);
  assert.equal(placed(utf16be(text, false)), utf8);
});

test('Latin-1 bytes are refused naming the byte and its place, not turned into replacement characters', () => {
  const bytes = Buffer.concat([Buffer.from('{\n  "name": "caf'), Buffer.from([0xe9]), Buffer.from('"\n}')]);
  const read = decodeText(bytes);
  assert.ok('problem' in read);
  if ('problem' in read) {
    assert.match(read.problem, /^not UTF-8 text: the byte 0xE9 at line 2, column 15 /);
    assert.equal([read.line, read.column], [2, 15]);
  }
  inTemp((dir) => {
    writeFileSync(join(dir, 'latin1.json'), bytes);
    // The user's input, not an internal failure: json-syntax at the byte, as POST /api/validate says.
    const [o] = validateFiles([join(dir, 'latin1.json')]);
    assert.is(o.readError, undefined);
    const [e] = o.report.errors;
    assert.equal([e.rule, e.line, e.column, e.suggestion], ['json-syntax', 2, 15, 'save the file as UTF-8']);
    assert.match(e.message, /^the file is not UTF-8 text: the byte 0xE9 at line 2, column 15 .*; save the file as UTF-8$/);
  });
});

test('truncated, overlong and surrogate UTF-8 forms are blamed on their lead byte; a UTF-8 BOM is fine', () => {
  const why = (bytes: number[]) => {
    const r = decodeText(Buffer.from([0x7b, 0x22, ...bytes]));
    return 'problem' in r ? /the byte (0x..) at line 1, column (\d+)/.exec(r.problem)?.slice(1) : 'decoded';
  };
  assert.equal(why([0xe2, 0x82]), ['0xE2', '3'], 'truncated at the end');
  assert.equal(why([0xc0, 0xaf, 0x22, 0x7d]), ['0xC0', '3'], 'overlong');
  assert.equal(why([0xed, 0xa0, 0x80, 0x22, 0x7d]), ['0xED', '3'], 'surrogate');
  assert.equal(why([0xe2, 0x82, 0xac, 0x22, 0x7d]), 'decoded', 'a euro sign is UTF-8');
  const bom = decodeText(Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]));
  assert.ok('text' in bom);
});

test('UTF-32 and odd-length UTF-16 are refused with what to do', () => {
  const u32 = decodeText(Buffer.from([0xff, 0xfe, 0, 0, 0x7b, 0, 0, 0]));
  assert.ok('problem' in u32 && /UTF-32/.test(u32.problem));
  const odd = decodeText(Buffer.from([0x7b, 0, 0x7d]));
  assert.ok('problem' in odd && /odd number of bytes/.test(odd.problem));
});

test('a symbolic link loop is named as one, not as a missing file', () => {
  inTemp((dir) => {
    symlinkSync(join(dir, 'b.json'), join(dir, 'a.json'));
    symlinkSync(join(dir, 'a.json'), join(dir, 'b.json'));
    const [o] = validateFiles([join(dir, 'a.json')]);
    assert.match(o.readError ?? '', /symbolic links loop/);
  });
});

test.run();
