import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parameterSources } from '../../src/cli/run-authoring.js';

test('--params-file giving a name twice is refused with where, quoting neither value: JSON would keep the last one silently', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mb-params-file-'));
  try {
    const file = join(dir, 'params.json');
    writeFileSync(file, '{\n  "PASSWORD": "first-secret-value",\n  "EMAIL": "qa@example.com",\n  "PASSWORD": "second-secret-value"\n}\n');
    const r = parameterSources([], file, {});
    assert.is(r.sources, undefined);
    assert.match(r.error ?? '', /PASSWORD is given twice \(again at line 4, column 3\); keep one/);
    assert.not.match(r.error ?? '', /secret-value/);
    // One value per name is taken as it is.
    writeFileSync(file, '{"PASSWORD": "only-one", "EMAIL": "qa@example.com"}');
    assert.equal(parameterSources([], file, {}).sources?.file, { PASSWORD: 'only-one', EMAIL: 'qa@example.com' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
