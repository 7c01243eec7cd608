import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { validateFiles } from '../../src/validate/files.js';

const out = suite<{ dir: string }>('validate of a folder leaves out what run writes there, as run does');
out.before.each((ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'mb-validate-out-'));
});
out.after.each(({ dir }) => rmSync(dir, { recursive: true, force: true }));

const scenario = JSON.stringify({ $schema_version: '2.1', scenario_id: 'login', name: 'Login', description: 'Login', platform: 'android', app_package: 'com.example.app', metadata: { app_version: '1', environment: 'test' }, steps: [{ id: 'open', action: 'launch_app', description: 'open' }], assertions: [] });

/** `run .` leaves ./mobilebridge-out/results/<run_id>.json and cache/<scenario>.resolutions.json behind. */
function afterRun(dir: string): string {
  const outDir = join(dir, 'mobilebridge-out');
  mkdirSync(join(outDir, 'results'), { recursive: true });
  mkdirSync(join(outDir, 'cache'));
  writeFileSync(join(dir, 'login.json'), scenario);
  writeFileSync(join(outDir, 'results', 'run_20261129_120000.json'), JSON.stringify({ run_id: 'run_20261129_120000', status: 'passed' }));
  writeFileSync(join(outDir, 'cache', 'login.resolutions.json'), JSON.stringify({ 'login/open\u0000x\u0000': {} }));
  return outDir;
}

const filesOf = (args: string[], outDir: string) => validateFiles(args, outDir).map((o) => `${o.report.file} ${o.report.valid}`);

out('a folder or a glob over it: the results and caches of the run are not judged as scenarios', ({ dir }) => {
  const outDir = afterRun(dir);
  assert.equal(filesOf([dir], outDir), [`${join(dir, 'login.json')} true`]);
  assert.equal(filesOf([`${dir}/**/*.json`], outDir), [`${join(dir, 'login.json')} true`]);
});

out('a file of the output folder named directly is still validated; searched from inside, only results/ and cache/ are left out', ({ dir }) => {
  const outDir = afterRun(dir);
  const result = join(outDir, 'results', 'run_20261129_120000.json');
  assert.equal(filesOf([result], outDir), [`${result} false`]);
  writeFileSync(join(outDir, 'kept.json'), scenario.replace('"login"', '"kept"'));
  assert.equal(filesOf([outDir], outDir), [`${join(outDir, 'kept.json')} true`]);
});

out.run();
