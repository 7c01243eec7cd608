import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { validateFiles } from '../../src/validate/files.js';

/** Issue 16: validate answers at once for FIFOs, devices and folders holding them (it used to hang or run forever). */

test('a FIFO, /dev/zero and a folder holding a FIFO are refused at once as unreadable', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mb-validate-special-'));
  try {
    execFileSync('mkfifo', [join(dir, 'pipe.json')]);
    writeFileSync(join(dir, 'ok.json'), '{}');
    const [fifo] = validateFiles([join(dir, 'pipe.json')]);
    assert.match(fifo.readError ?? '', /FIFO/);
    const [zero] = validateFiles(['/dev/zero']);
    assert.match(zero.readError ?? '', /device, not a regular file/);
    const folder = validateFiles([dir]);
    assert.equal(folder.map((o) => o.report.file), [join(dir, 'ok.json')], 'the FIFO in the folder is skipped');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
