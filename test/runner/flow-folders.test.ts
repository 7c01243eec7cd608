import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { validateFiles } from '../../src/validate/files.js';
import { runCli as cli } from './run-cli.js';

const scenario = (id: string, steps: unknown[]) =>
  JSON.stringify({ $schema_version: '2.2', scenario_id: id, name: id, description: id, platform: 'android', app_package: 'com.mobilebridge.demo', metadata: { app_version: '1', environment: 'test' }, steps, assertions: [] }, null, 2);
const launch = { id: 'open', action: 'launch_app', description: 'open the app' };

/** The layout docs/validation.md and docs/runner.md describe: top.json → flows/login.json → ../common/setup.json. */
async function withProject(fn: (dir: string, project: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'mb-flow-folders-'));
  try {
    const project = join(dir, 'scenarios');
    mkdirSync(join(project, 'flows'), { recursive: true });
    mkdirSync(join(project, 'common'));
    writeFileSync(join(project, 'common', 'setup.json'), scenario('setup', [launch]));
    writeFileSync(join(project, 'flows', 'login.json'), scenario('login', [{ id: 'setup', flow: '../common/setup.json' }]));
    writeFileSync(join(project, 'top.json'), scenario('top', [{ id: 'login', flow: 'flows/login.json' }]));
    await fn(dir, project);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const errorsOf = (args: string[]) => validateFiles(args).flatMap((o) => o.report.errors.map((e) => `${o.report.file}: ${e.rule} ${e.path}`));

test('run of a folder takes a flow that names ../common/x.json as validate does: inside its top scenario, not refused on its own', async () => {
  await withProject(async (dir, project) => {
    assert.equal(errorsOf([project]), []);
    const [listed, ran, named] = await Promise.all([
      cli(dir, [project, '--list'], { out: join(dir, 'out-list'), state: join(dir, 'state-list') }),
      cli(dir, [project, '--device', 'virtual-android-1'], { out: join(dir, 'out-run'), state: join(dir, 'state-run') }),
      // Named one by one, the flow file is still the top scenario's flow.
      cli(dir, [join(project, 'top.json'), join(project, 'flows', 'login.json'), '--list'], { out: join(dir, 'out-named'), state: join(dir, 'state-named') }),
    ]);
    assert.is(listed.code, 0, listed.out + listed.err);
    const plan = JSON.parse(listed.out) as { data: { runs: { scenario_id: string }[]; flows: string[] } };
    assert.equal(plan.data.runs.map((r) => r.scenario_id), ['top']);
    assert.equal(plan.data.flows, [join('scenarios', 'common', 'setup.json'), join('scenarios', 'flows', 'login.json')]);
    assert.is(ran.code, 0, ran.out + ran.err);
    assert.match(ran.err, /flows\/login\.json is a flow of scenarios\/top\.json: it runs inside it, not on its own/);
    assert.is(named.code, 0, named.out + named.err);
  });
});

test('a file of the folder that no scenario uses as a flow runs on its own, so validate judges it in its own folder as run does', async () => {
  await withProject(async (dir, project) => {
    mkdirSync(join(project, 'extra'));
    const orphan = join(project, 'extra', 'orphan.json');
    writeFileSync(orphan, scenario('orphan', [{ id: 'setup', flow: '../common/setup.json' }]));
    assert.equal(errorsOf([project]), [`${orphan}: path-escapes-scenario /steps/0/flow`]);
    assert.equal(errorsOf([`${project}/**/*.json`]), [`${orphan}: path-escapes-scenario /steps/0/flow`]);
    const listed = await cli(dir, [project, '--list']);
    assert.is(listed.code, 3, listed.out + listed.err);
    assert.match(listed.out, /orphan\.json[\s\S]*path-escapes-scenario/);
  });
});

test.run();
