import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';

const MAIN = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

function cli(dir: string, args: string[]) {
  // Only the virtual phones: a test must never start or reach the developer's own adb server. The
  // phones' state sits in a dot folder, which folder expansion skips.
  const r = spawnSync(process.execPath, [MAIN, 'run', ...args, '--target-wait', '300', '--no-android', '--no-ios'], {
    encoding: 'utf8',
    cwd: dir,
    env: { ...process.env, MOBILEBRIDGE_STATE_DIR: join(dir, '.state') },
    timeout: 120_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const scenario = (id: string) => ({
  $schema_version: '2.1', scenario_id: id, name: id, description: 'd', platform: 'android', app_package: 'com.mobilebridge.demo',
  metadata: { app_version: '1', environment: 't' },
  steps: [{ id: 'launch', action: 'launch_app', description: 'Launch' }],
  assertions: [{ id: 'shown', after_step: 'launch', type: 'text_not_empty', description: 'something shows', element_description: 'the first text' }],
});

type Listed = { data: { runs: { scenario: string }[] } };

const t = suite<{ dir: string }>('run: which files a folder or a list of names gives');
t.before.each((ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'mb-cli-files-'));
  writeFileSync(join(ctx.dir, 'a.json'), JSON.stringify(scenario('first')));
});
t.after.each(({ dir }) => rmSync(dir, { recursive: true, force: true }));

t('run . twice: the second leaves the first one\'s output folder (results, cache) out instead of refusing it as invalid', ({ dir }) => {
  const first = cli(dir, ['.']);
  assert.is(first.code, 0, first.err + first.out);
  assert.is(readdirSync(join(dir, 'mobilebridge-out', 'cache')).length, 1, 'a cache file to trip over');
  const second = cli(dir, ['.']);
  assert.is(second.code, 0, second.err + second.out);
  assert.equal((JSON.parse(second.out) as Listed).data.runs.map((r) => r.scenario), ['a.json']);
});

t('the same for a named --out below the folder, and for --out being the folder itself (only results/ and cache/ are the run\'s)', ({ dir }) => {
  mkdirSync(join(dir, 'reports'));
  assert.is(cli(dir, ['.', '--out', 'reports/o']).code, 0);
  const below = cli(dir, ['.', '--out', 'reports/o', '--list']);
  assert.is(below.code, 0, below.err + below.out);
  rmSync(join(dir, 'reports'), { recursive: true });
  assert.is(cli(dir, ['.', '--out', '.']).code, 0);
  const here = cli(dir, ['.', '--out', '.', '--list']);
  assert.equal([here.code, (JSON.parse(here.out) as Listed).data.runs.map((r) => r.scenario)], [0, ['a.json']], here.err);
  const results = cli(dir, ['results', '--out', '.']);
  assert.is(results.code, 3);
  assert.match(results.err, /no \.json scenarios in results \(the run's results under the output folder \. are left out: they are not scenarios\)/);
});

t('a file given twice, or a folder and a file inside it, runs once', ({ dir }) => {
  const r = cli(dir, ['a.json', './a.json', '.', '--out', 'o']);
  assert.is(r.code, 0, r.err + r.out);
  assert.equal((JSON.parse(r.out) as Listed).data.runs.map((x) => x.scenario), ['a.json']);
  assert.is(readdirSync(join(dir, 'o', 'results')).length, 1);
});

t('two files with one scenario_id are refused as validate refuses them (exit 3, scenario-id-duplicate), before anything runs', ({ dir }) => {
  mkdirSync(join(dir, 'more'));
  writeFileSync(join(dir, 'more', 'b.json'), JSON.stringify(scenario('first')));
  const r = cli(dir, ['.', '--out', 'o']);
  assert.is(r.code, 3, r.err);
  const env = JSON.parse(r.out) as { ok: boolean; data: { results: { file: string; valid: boolean; errors: { rule: string; message: string }[] }[] } };
  assert.equal(env.data.results.map((x) => [x.file.slice(dir.length), x.valid]), [['/a.json', true], ['/more/b.json', false]]);
  assert.equal(env.data.results[1].errors.map((e) => e.rule), ['scenario-id-duplicate']);
  assert.match(env.data.results[1].errors[0].message, /scenario_id "first" is already used by .*a\.json; scenario ids are unique within the project, rename one/);
  assert.not.ok(existsSync(join(dir, 'o', 'results')) && readdirSync(join(dir, 'o', 'results')).length, 'nothing ran');
});

t.run();
