import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { undeclaredParameters } from '../../src/cli/run-authoring.js';
import { loadScenario } from '../../src/validate/index.js';

const doc = (id: string, extra: Record<string, unknown>) => ({
  $schema_version: '2.2', scenario_id: id, name: id, description: id, platform: 'android', app_package: 'com.mobilebridge.demo',
  metadata: { app_version: '1', environment: 't' }, assertions: [], ...extra,
});

test('--param for a flow parameter that every use of the flow passes in its step is refused, naming the steps; one use that reads it is enough', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mb-given-'));
  try {
    mkdirSync(join(dir, 'flows'));
    writeFileSync(join(dir, 'flows', 'check.json'), JSON.stringify(doc('check', {
      parameters: { TITLE: { description: 'the title' } },
      steps: [{ id: 'open', action: 'open_url', description: 'o', value: 'mbdemo://screen/${TITLE}' }],
    })));
    const item = (name: string, steps: object[]) => {
      const file = join(dir, `${name}.json`);
      writeFileSync(file, JSON.stringify(doc(name, { parameters: { ITEM: { default: 'home' } }, steps })));
      const { scenario } = loadScenario(readFileSync(file, 'utf8'), file, { baseDir: dir });
      if (!scenario) throw new Error(`${name} is invalid`);
      return { file, scenario };
    };
    const passing = item('passing', [
      { id: 'one', flow: 'flows/check.json', parameters: { TITLE: '${ITEM}' } },
      { id: 'two', flow: 'flows/check.json', parameters: { TITLE: 'list' } },
    ]);
    assert.is(
      undeclaredParameters([passing], { TITLE: 'Bogus', ITEM: 'home' }),
      '--param TITLE: no scenario declares it, and every use of a flow declaring it passes its own value in the flow step\'s "parameters" (one, two), so this value would be ignored; leave it out, or take TITLE out of those steps\' "parameters"',
    );
    // A typo and an overridden name are both said.
    assert.match(undeclaredParameters([passing], { TITEL: 'x', TITLE: 'y' }) ?? '', /^--param TITEL \(did you mean TITLE\?\): no scenario of this run declares this parameter, .*; --param TITLE: no scenario declares it/);
    const reading = item('reading', [{ id: 'three', flow: 'flows/check.json' }]);
    assert.is(undeclaredParameters([passing, reading], { TITLE: 'Bogus' }), undefined, 'the flow use in "reading" takes it');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
