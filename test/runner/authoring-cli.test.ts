import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { RUNS_DIR } from './harness.js';

const MAIN = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
const PASSWORD = 'secret123';

function cli(dir: string, args: string[], env: Record<string, string> = {}) {
  // Only the virtual phones: a test must never start or reach the developer's own adb server.
  const r = spawnSync(process.execPath, [MAIN, 'run', ...args, '--out', join(dir, 'out'), '--target-wait', '300', '--no-android', '--no-ios'], {
    encoding: 'utf8',
    cwd: dir,
    env: { ...process.env, MOBILEBRIDGE_STATE_DIR: join(dir, 'state'), ...env },
    timeout: 120_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

function withDir(fn: (dir: string, scenarios: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'mb-cli-22-'));
  try {
    const scenarios = join(dir, 'scenarios');
    cpSync(RUNS_DIR, scenarios, { recursive: true });
    fn(dir, scenarios);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const allFiles = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name)) : []);

test('run: a parameter with no value stops before anything runs (exit 3, named); --param fills it and the secret is nowhere', () => {
  withDir((dir, scenarios) => {
    const file = join(scenarios, 'params_login.json');
    const missing = cli(dir, [file, '--device', 'virtual-android-1']);
    assert.is(missing.code, 3, missing.err);
    assert.match(missing.err, /no value for parameter PASSWORD; give it with --param PASSWORD=\.\.\., a --params-file JSON object, or the environment variable MB_PARAM_PASSWORD/);
    assert.not.ok(existsSync(join(dir, 'out', 'results')), 'no result document: nothing ran');

    const ok = cli(dir, [file, '--device', 'virtual-android-1', '--param', `PASSWORD=${PASSWORD}`, '--param=EMAIL=demo@example.com']);
    assert.is(ok.code, 0, ok.err + ok.out);
    assert.not.ok(ok.out.includes(PASSWORD) || ok.err.includes(PASSWORD), 'stdout / stderr');
    const written = allFiles(join(dir, 'out')).filter((f) => /\.(json|xml|html)$/.test(f));
    assert.ok(written.some((f) => f.endsWith('junit.xml')) && written.some((f) => f.endsWith('report.html')) && written.some((f) => f.includes('results')));
    for (const f of written) assert.not.ok(readFileSync(f, 'utf8').includes(PASSWORD), `the secret leaked into ${f}`);
  });
});

test('run: --params-file and MB_PARAM_* give values; malformed parameters are usage errors (exit 3)', () => {
  withDir((dir, scenarios) => {
    const file = join(scenarios, 'params_login.json');
    writeFileSync(join(dir, 'params.json'), JSON.stringify({ PASSWORD }));
    const fromFile = cli(dir, [file, '--device', 'virtual-android-1', '--params-file', join(dir, 'params.json')]);
    assert.is(fromFile.code, 0, fromFile.err);
    const fromEnv = cli(dir, [file, '--list'], { MB_PARAM_PASSWORD: PASSWORD });
    assert.is(fromEnv.code, 0, fromEnv.err);
    assert.is(cli(dir, [file, '--param', 'password=x']).code, 3);
    assert.is(cli(dir, [file, '--param', 'PASSWORD']).code, 3);
    writeFileSync(join(dir, 'bad.json'), '["PASSWORD"]');
    const bad = cli(dir, [file, '--params-file', join(dir, 'bad.json')]);
    assert.is(bad.code, 3);
    assert.match(bad.err, /must hold one JSON object/);
  });
});

test('run: a malformed --params-file or --param says where and what to do, quoting none of the (secret) value', () => {
  withDir((dir, scenarios) => {
    const file = join(scenarios, 'params_login.json');
    writeFileSync(join(dir, 'broken.json'), '{\n  "PASSWORD": hunter2hunter2}');
    const broken = cli(dir, [file, '--params-file', join(dir, 'broken.json'), '--list']);
    assert.is(broken.code, 3);
    assert.match(broken.err, /--params-file \S+broken\.json is not valid JSON at line 2, column 15; fix it there/);
    assert.not.match(broken.err, /hunter|'h'/);
    writeFileSync(join(dir, 'empty.json'), ' ');
    assert.match(cli(dir, [file, '--params-file', join(dir, 'empty.json')]).err, /empty\.json is empty; /);
    const bare = cli(dir, [file, '--param', 'hunter2hunter2', '--list']);
    assert.is(bare.code, 3);
    assert.match(bare.err, /--param: there is no "="; write NAME=value/);
    assert.not.match(bare.err, /hunter/);
    assert.not.match(cli(dir, [file, '--param', '=hunter2hunter2']).err, /hunter/);
  });
});

test('run --list: tags and shards select, devices follow the platform, nothing runs', () => {
  withDir((dir, scenarios) => {
    const list = (args: string[]) => {
      const r = cli(dir, [scenarios, '--list', '--param', `PASSWORD=${PASSWORD}`, ...args]);
      assert.is(r.code, 0, r.err);
      return JSON.parse(r.out) as { data: { runs: { scenario_id: string; devices: string[]; parameters: string[]; platform: string }[]; not_selected: string[]; flows: string[]; shard: string | null; problems: string[] } };
    };
    const smoke = list(['--include-tags', 'smoke']);
    assert.equal(smoke.data.runs.map((x) => x.scenario_id), ['params_login']);
    assert.equal(smoke.data.runs[0].parameters, ['EMAIL', 'PASSWORD (secret)']);
    assert.equal(smoke.data.runs[0].devices, ['virtual-android-1']);
    const all = list([]);
    assert.equal(all.data.flows, [join('scenarios', 'flows', 'sign_in_flow.json')], 'a flow runs inside the scenarios that use it');
    const without = list(['--exclude-tags', 'login']);
    assert.is(without.data.runs.length, all.data.runs.length - 1);
    assert.ok(!without.data.runs.some((x) => x.scenario_id === 'params_login'));
    const half = list(['--shard', '1/2']);
    assert.is(half.data.shard, '1/2');
    assert.is(half.data.runs.length + half.data.not_selected.length, all.data.runs.length);
    // More machines than scenarios: an empty shard runs nothing, exit 0, and says so.
    const empty = cli(dir, [scenarios, '--list', '--param', `PASSWORD=${PASSWORD}`, '--include-tags', 'smoke', '--shard', '2/2']);
    assert.is(empty.code, 0, empty.err);
    assert.equal((JSON.parse(empty.out) as { data: { runs: unknown[] } }).data.runs, []);
    assert.match(empty.err, 'mobilebridge run: shard 2/2 of 1 scenario is empty: this machine runs nothing');
    const ios = list(['--devices', 'virtual-ios-1,virtual-android-1']);
    for (const run of ios.data.runs) {
      const want = run.platform === 'android' ? ['virtual-android-1'] : run.platform === 'ios' ? ['virtual-ios-1'] : ['virtual-ios-1', 'virtual-android-1'];
      assert.equal(run.devices, want, run.scenario_id);
    }
    // Without --device the devices are the run's own routing: every scenario lists the devices that may take it.
    for (const run of all.data.runs) assert.ok(run.devices.length > 0 && (run.platform === 'cross-platform' || run.devices.length === 1), JSON.stringify(run));
    // What the run would refuse, --list refuses with the same exit code: a device that is not there (2), one of the wrong platform (3).
    const refused = (device: string) => {
      const r = cli(dir, [join(scenarios, 'actions_android.json'), '--list', '--device', device]);
      return { code: r.code, plan: JSON.parse(r.out) as { ok: boolean; data: { problems: string[] } } };
    };
    const missing = refused('nosuch');
    assert.equal([missing.code, missing.plan.ok], [2, false]);
    assert.match(missing.plan.data.problems.join('\n'), /nosuch/);
    const wrongPlatform = refused('virtual-ios-1');
    assert.equal([wrongPlatform.code, wrongPlatform.plan.ok], [3, false]);
    assert.match(wrongPlatform.plan.data.problems.join('\n'), /no listed device can run/);
    assert.not.ok(existsSync(join(dir, 'out')), '--list runs nothing');
    // Without the secret the plan is still shown, with why the run would not start.
    const unready = cli(dir, [scenarios, '--list', '--include-tags', 'smoke']);
    assert.is(unready.code, 3, unready.err);
    const plan = JSON.parse(unready.out) as { ok: boolean; data: { runs: { scenario_id: string }[]; problems: string[] }; error: { message: string } };
    assert.equal([plan.ok, plan.data.runs.map((x) => x.scenario_id)], [false, ['params_login']]);
    assert.match(plan.data.problems.join('\n'), /^scenarios\/params_login\.json: no value for parameter PASSWORD/, 'named from the working folder, as runs[].scenario is');
    assert.match(plan.error.message, /^the run would stop before its first step: /);
    assert.equal(smoke.data.problems, [], 'none when every parameter has a value');
    const none = cli(dir, [scenarios, '--include-tags', 'nope']);
    assert.is(none.code, 3);
    assert.match(none.err, /no scenario is left/);
  });
});

test('run: a --param that no scenario or flow of the run declares is refused with the name meant, not ignored for the default', () => {
  withDir((dir, scenarios) => {
    const file = join(scenarios, 'params_login.json');
    const typo = cli(dir, [file, '--device', 'virtual-android-1', '--param', `PASSWORD=${PASSWORD}`, '--param', 'EMIAL=qa@example.com']);
    assert.is(typo.code, 3, typo.err);
    assert.match(typo.err, /--param EMIAL \(did you mean EMAIL\?\): no scenario of this run declares this parameter, so the value would be ignored; the scenarios declare EMAIL, PASSWORD/);
    assert.not.ok(existsSync(join(dir, 'out', 'results')), 'nothing ran');
    assert.is(cli(dir, [file, '--list', '--param', `PASSWORD=${PASSWORD}`, '--param', 'EMIAL=x']).code, 3, '--list refuses it too');

    // A parameter only a flow declares is the run's too: --param reaches the flow.
    const top = { $schema_version: '2.2', scenario_id: 'top_without_parameters', name: 'Top', description: 'Uses the flow only', platform: 'android', app_package: 'com.mobilebridge.demo', metadata: { app_version: '1.0.0', environment: 'development' }, steps: [{ id: 'login', flow: 'flows/sign_in_flow.json', description: 'Sign in' }], assertions: [] };
    const topFile = join(scenarios, 'top_without_parameters.json');
    writeFileSync(topFile, JSON.stringify(top, null, 2));
    const viaFlow = cli(dir, [topFile, '--list', '--param', 'EMAIL=qa@example.com', '--param', `PASSWORD=${PASSWORD}`]);
    assert.is(viaFlow.code, 0, viaFlow.err);
  });
});

test.run();
