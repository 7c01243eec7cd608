/**
 * The fast paths generate JavaScript (shape-accept.ts, step-fields.ts). A process that forbids code
 * generation from strings must still validate, with the same reports, through the full path.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { validateScenarioText } from '../../src/validate/index.js';
import { FIXTURES, fixtureNames, ROOT } from './helpers.js';

const run = promisify(execFile);

test('with code generation from strings disallowed, every fixture gets the same report', async () => {
  const script = `
    import { readFileSync } from 'node:fs';
    import { validateScenarioText } from ${JSON.stringify(`${ROOT}dist/src/validate/index.js`)};
    const names = JSON.parse(process.argv[1]);
    const out = names.map((n) => validateScenarioText(readFileSync(${JSON.stringify(FIXTURES)} + '/' + n, 'utf8'), n));
    process.stdout.write(JSON.stringify(out));`;
  const names = [...fixtureNames('valid').map((n) => `valid/${n}`), ...fixtureNames('invalid').map((n) => `invalid/${n}`)];
  const { stdout } = await run(process.execPath, ['--disallow-code-generation-from-strings', '--input-type=module', '-e', script, JSON.stringify(names)], { maxBuffer: 64 << 20, timeout: 60_000 });
  const reports = JSON.parse(stdout) as unknown[];
  names.forEach((n, i) => assert.equal(reports[i], validateScenarioText(readFileSync(`${FIXTURES}/${n}`, 'utf8'), n), n));
});

test.run();
