import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { validateFiles } from '../../src/validate/files.js';

const root = suite<{ dir: string }>('validate of a folder or glob: a flow of another file is checked in its top scenario\'s folder');
root.before.each((ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'mb-project-root-'));
});
root.after.each(({ dir }) => rmSync(dir, { recursive: true, force: true }));

const scenario = (id: string, steps: unknown[]) =>
  JSON.stringify({ $schema_version: '2.2', scenario_id: id, name: id, description: id, platform: 'android', app_package: 'com.example.app', metadata: { app_version: '1', environment: 'test' }, steps, assertions: [] }, null, 2);
const open = { id: 'open', action: 'open_url', description: 'open', value: 'https://example.com' };

/** The layout docs/validation.md describes: top.json → flows/login.json → ../common/setup.json. */
function project(dir: string): void {
  mkdirSync(join(dir, 'flows'));
  mkdirSync(join(dir, 'common'));
  writeFileSync(join(dir, 'common', 'setup.json'), scenario('setup', [open]));
  writeFileSync(join(dir, 'flows', 'login.json'), scenario('login', [{ id: 'setup', flow: '../common/setup.json' }]));
  writeFileSync(join(dir, 'top.json'), scenario('top', [{ id: 'login', flow: 'flows/login.json' }]));
}

const errorsOf = (args: string[]) => validateFiles(args).flatMap((o) => o.report.errors.map((e) => `${o.report.file}: ${e.rule} ${e.path}`));

root('the folder, a glob over it and a glob with the folder as base all pass', ({ dir }) => {
  project(dir);
  assert.equal(errorsOf([dir]), []);
  assert.equal(errorsOf([`${dir}/**/*.json`]), []);
  assert.equal(validateFiles([dir]).length, 3);
});

root('the root stays the folder given: a flow that climbs above it still fails', ({ dir }) => {
  project(dir);
  writeFileSync(join(dir, 'flows', 'out.json'), scenario('out', [{ id: 'x', flow: '../../elsewhere.json' }]));
  const errors = errorsOf([dir]);
  assert.equal(errors, [`${join(dir, 'flows', 'out.json')}: path-escapes-scenario /steps/0/flow`]);
});

root('one file given alone keeps its own folder as the root, as run does', ({ dir }) => {
  project(dir);
  assert.equal(errorsOf([join(dir, 'flows', 'login.json')]), [`${join(dir, 'flows', 'login.json')}: path-escapes-scenario /steps/0/flow`]);
  assert.equal(errorsOf([join(dir, 'top.json')]), []);
});

root('a flow\'s own preconditions are said to be ignored, not how they would replay; alone it is a scenario and keeps those warnings', ({ dir }) => {
  project(dir);
  const login = JSON.parse(scenario('login', [{ id: 'setup', flow: '../common/setup.json' }]));
  login.platform = 'ios';
  login.app_package = 'com.example.app';
  login.preconditions = { device_actions: [{ action: 'clear_app_data' }] };
  writeFileSync(join(dir, 'flows', 'login.json'), JSON.stringify(login, null, 2));
  const warningsOf = (args: string[], file: string) => validateFiles(args).find((o) => o.report.file === file)!.report.warnings.filter((w) => w.path.startsWith('/preconditions'));
  const asFlow = warningsOf([dir], join(dir, 'flows', 'login.json'));
  assert.equal(asFlow.map((w) => `${w.rule} ${w.path}`), ['field-unused /preconditions']);
  assert.match(asFlow[0].message, new RegExp(`is a flow of ${join(dir, 'top.json')}, and a flow's preconditions are not applied`));
  const alone = warningsOf([join(dir, 'flows', 'login.json'), join(dir, 'common', 'setup.json')], join(dir, 'flows', 'login.json'));
  assert.equal(alone.map((w) => `${w.rule} ${w.path}`), ['unattended-replay /preconditions/device_actions/0/action']);
});

root('a flow of another file is not told it has no assertions: the scenario running it holds the checks', ({ dir }) => {
  project(dir);
  const rulesOf = (args: string[], file: string) => validateFiles(args).find((o) => o.report.file === file)!.report.warnings.map((w) => w.rule);
  assert.not.ok(rulesOf([dir], join(dir, 'flows', 'login.json')).includes('no-assertions'));
  assert.ok(rulesOf([dir], join(dir, 'top.json')).includes('no-assertions'), 'the top scenario still is');
  assert.ok(rulesOf([join(dir, 'common', 'setup.json')], join(dir, 'common', 'setup.json')).includes('no-assertions'), 'and a file validated alone');
});

root.run();
