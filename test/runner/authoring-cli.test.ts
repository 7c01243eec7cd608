import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { RUNS_DIR } from './harness.js';
import { runCli as cli } from './run-cli.js';

const PASSWORD = 'secret123';

async function withDir(fn: (dir: string, scenarios: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'mb-cli-22-'));
  try {
    const scenarios = join(dir, 'scenarios');
    cpSync(RUNS_DIR, scenarios, { recursive: true });
    await fn(dir, scenarios);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Output and phone state of its own, for a run that goes side by side with others. */
const own = (dir: string, name: string) => ({ out: join(dir, `out-${name}`), state: join(dir, `state-${name}`) });

const allFiles = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name)) : []);

test('run: a parameter with no value stops before anything runs (exit 3, named); --param fills it and the secret is nowhere', async () => {
  await withDir(async (dir, scenarios) => {
    const file = join(scenarios, 'params_login.json');
    const [missing, ok] = await Promise.all([
      cli(dir, [file, '--device', 'virtual-android-1'], own(dir, 'missing')),
      cli(dir, [file, '--device', 'virtual-android-1', '--param', `PASSWORD=${PASSWORD}`, '--param=EMAIL=demo@example.com'], own(dir, 'ok')),
    ]);
    assert.is(missing.code, 3, missing.err);
    assert.match(missing.err, /no value for parameter PASSWORD; give it with --param PASSWORD=\.\.\., a --params-file JSON object, or the environment variable MB_PARAM_PASSWORD/);
    assert.not.ok(existsSync(join(dir, 'out-missing', 'results')), 'no result document: nothing ran');

    assert.is(ok.code, 0, ok.err + ok.out);
    assert.not.ok(ok.out.includes(PASSWORD) || ok.err.includes(PASSWORD), 'stdout / stderr');
    const written = allFiles(join(dir, 'out-ok')).filter((f) => /\.(json|xml|html)$/.test(f));
    assert.ok(written.some((f) => f.endsWith('junit.xml')) && written.some((f) => f.endsWith('report.html')) && written.some((f) => f.includes('results')));
    for (const f of written) assert.not.ok(readFileSync(f, 'utf8').includes(PASSWORD), `the secret leaked into ${f}`);
  });
});

test('run: --params-file and MB_PARAM_* give values; malformed parameters are usage errors (exit 3)', async () => {
  await withDir(async (dir, scenarios) => {
    const file = join(scenarios, 'params_login.json');
    writeFileSync(join(dir, 'params.json'), JSON.stringify({ PASSWORD }));
    writeFileSync(join(dir, 'bad.json'), '["PASSWORD"]');
    const [fromFile, fromEnv, lowercase, valueless, bad] = await Promise.all([
      cli(dir, [file, '--device', 'virtual-android-1', '--params-file', join(dir, 'params.json')], own(dir, 'file')),
      cli(dir, [file, '--list'], { env: { MB_PARAM_PASSWORD: PASSWORD }, ...own(dir, 'env') }),
      cli(dir, [file, '--param', 'password=x'], own(dir, 'lowercase')),
      cli(dir, [file, '--param', 'PASSWORD'], own(dir, 'valueless')),
      cli(dir, [file, '--params-file', join(dir, 'bad.json')], own(dir, 'bad')),
    ]);
    assert.is(fromFile.code, 0, fromFile.err);
    assert.is(fromEnv.code, 0, fromEnv.err);
    assert.is(lowercase.code, 3);
    assert.is(valueless.code, 3);
    assert.is(bad.code, 3);
    assert.match(bad.err, /must hold one JSON object/);
  });
});

test('run: a malformed --params-file or --param says where and what to do, quoting none of the (secret) value', async () => {
  await withDir(async (dir, scenarios) => {
    const file = join(scenarios, 'params_login.json');
    writeFileSync(join(dir, 'broken.json'), '{\n  "PASSWORD": hunter2hunter2}');
    writeFileSync(join(dir, 'empty.json'), ' ');
    const [broken, empty, bare, nameless, key, twice] = await Promise.all([
      cli(dir, [file, '--params-file', join(dir, 'broken.json'), '--list'], own(dir, 'broken')),
      cli(dir, [file, '--params-file', join(dir, 'empty.json')], own(dir, 'empty')),
      cli(dir, [file, '--param', 'hunter2hunter2', '--list'], own(dir, 'bare')),
      cli(dir, [file, '--param', '=hunter2hunter2'], own(dir, 'nameless')),
      // An access key pasted alone looks like a NAME: still not echoed.
      cli(dir, [file, '--param', 'EMAIL=a@b.c', '--param', 'AKIAIOSFODNN7EXAMPLE', '--list'], own(dir, 'key')),
      cli(dir, [file, '--param', 'PASSWORD=hunter2hunter2', '--param', 'PASSWORD=hunter3hunter3', '--list'], own(dir, 'twice')),
    ]);
    assert.is(broken.code, 3);
    assert.match(broken.err, /--params-file \S+broken\.json is not valid JSON at line 2, column 15; fix it there/);
    assert.not.match(broken.err, /hunter|'h'/);
    assert.match(empty.err, /empty\.json is empty; /);
    assert.is(bare.code, 3);
    assert.match(bare.err, /--param \(the 1st\): there is no "="; write NAME=value/);
    assert.not.match(bare.err, /hunter/);
    assert.not.match(nameless.err, /hunter/);
    assert.is(key.code, 3);
    assert.match(key.err, /--param \(the 2nd\): there is no "="/);
    assert.not.match(key.err, /AKIA/);
    assert.is(twice.code, 3);
    assert.match(twice.err, /--param PASSWORD is given twice; give each parameter once/);
    assert.not.match(twice.err, /hunter/);
  });
});

test('run --list: tags and shards select, devices follow the platform, nothing runs', async () => {
  await withDir(async (dir, scenarios) => {
    type Plan = { data: { runs: { scenario_id: string; devices: string[]; parameters: string[]; platform: string }[]; not_selected: string[]; flows: string[]; shard: string | null; problems: string[] } };
    const list = (args: string[]) => cli(dir, [scenarios, '--list', '--param', `PASSWORD=${PASSWORD}`, ...args]);
    const refused = (device: string) => cli(dir, [join(scenarios, 'actions_android.json'), '--list', '--device', device]);
    // Every plan side by side: --list writes nothing, so they share --out (which must stay absent) and the phone state.
    const listed = await Promise.all([
      list(['--include-tags', 'smoke']),
      list([]),
      list(['--exclude-tags', 'login']),
      list(['--shard', '1/2']),
      // More machines than scenarios: an empty shard runs nothing, exit 0, and says so.
      list(['--include-tags', 'smoke', '--shard', '2/2']),
      list(['--devices', 'virtual-ios-1,virtual-android-1']),
      // What the run would refuse, --list refuses with the same exit code: a device that is not there (2), one of the wrong platform (3).
      refused('nosuch'),
      refused('virtual-ios-1'),
      // Without the secret the plan is still shown, with why the run would not start.
      cli(dir, [scenarios, '--list', '--include-tags', 'smoke'], own(dir, 'unready')),
      cli(dir, [scenarios, '--include-tags', 'nope'], own(dir, 'none')),
    ]);
    const [smokeRun, allRun, withoutRun, halfRun, empty, iosRun, missingRun, wrongPlatformRun, unready, none] = listed;
    const plan = (r: { code: number | null; out: string; err: string }) => {
      assert.is(r.code, 0, r.err);
      return JSON.parse(r.out) as Plan;
    };
    const smoke = plan(smokeRun);
    assert.equal(smoke.data.runs.map((x) => x.scenario_id), ['params_login']);
    assert.equal(smoke.data.runs[0].parameters, ['EMAIL', 'PASSWORD (secret)']);
    assert.equal(smoke.data.runs[0].devices, ['virtual-android-1']);
    const all = plan(allRun);
    assert.equal(all.data.flows, [join('scenarios', 'flows', 'sign_in_flow.json')], 'a flow runs inside the scenarios that use it');
    const without = plan(withoutRun);
    assert.is(without.data.runs.length, all.data.runs.length - 1);
    assert.ok(!without.data.runs.some((x) => x.scenario_id === 'params_login'));
    const half = plan(halfRun);
    assert.is(half.data.shard, '1/2');
    assert.is(half.data.runs.length + half.data.not_selected.length, all.data.runs.length);
    assert.is(empty.code, 0, empty.err);
    assert.equal((JSON.parse(empty.out) as { data: { runs: unknown[] } }).data.runs, []);
    assert.match(empty.err, 'mobilebridge run: shard 2/2 of 1 scenario is empty: this machine runs nothing');
    const ios = plan(iosRun);
    for (const run of ios.data.runs) {
      const want = run.platform === 'android' ? ['virtual-android-1'] : run.platform === 'ios' ? ['virtual-ios-1'] : ['virtual-ios-1', 'virtual-android-1'];
      assert.equal(run.devices, want, run.scenario_id);
    }
    // Without --device the devices are the run's own routing: every scenario lists the devices that may take it.
    for (const run of all.data.runs) assert.ok(run.devices.length > 0 && (run.platform === 'cross-platform' || run.devices.length === 1), JSON.stringify(run));
    const missing = { code: missingRun.code, plan: JSON.parse(missingRun.out) as { ok: boolean; data: { problems: string[] } } };
    assert.equal([missing.code, missing.plan.ok], [2, false]);
    assert.match(missing.plan.data.problems.join('\n'), /nosuch/);
    const wrongPlatform = { code: wrongPlatformRun.code, plan: JSON.parse(wrongPlatformRun.out) as { ok: boolean; data: { problems: string[] } } };
    assert.equal([wrongPlatform.code, wrongPlatform.plan.ok], [3, false]);
    assert.match(wrongPlatform.plan.data.problems.join('\n'), /no listed device can run/);
    assert.not.ok(existsSync(join(dir, 'out')), '--list runs nothing');
    assert.is(unready.code, 3, unready.err);
    const unreadyPlan = JSON.parse(unready.out) as { ok: boolean; data: { runs: { scenario_id: string }[]; problems: string[] }; error: { message: string } };
    assert.equal([unreadyPlan.ok, unreadyPlan.data.runs.map((x) => x.scenario_id)], [false, ['params_login']]);
    assert.match(unreadyPlan.data.problems.join('\n'), /^scenarios\/params_login\.json: no value for parameter PASSWORD/, 'named from the working folder, as runs[].scenario is');
    assert.match(unreadyPlan.error.message, /^the run would stop before its first step: /);
    assert.equal(smoke.data.problems, [], 'none when every parameter has a value');
    assert.is(none.code, 3);
    assert.match(none.err, /no scenario is left/);
  });
});

test('run: a --param that no scenario or flow of the run declares is refused with the name meant, not ignored for the default', async () => {
  await withDir(async (dir, scenarios) => {
    const file = join(scenarios, 'params_login.json');
    // A parameter only a flow declares is the run's too: --param reaches the flow.
    const top = { $schema_version: '2.2', scenario_id: 'top_without_parameters', name: 'Top', description: 'Uses the flow only', platform: 'android', app_package: 'com.mobilebridge.demo', metadata: { app_version: '1.0.0', environment: 'development' }, steps: [{ id: 'login', flow: 'flows/sign_in_flow.json', description: 'Sign in' }], assertions: [] };
    const topFile = join(scenarios, 'top_without_parameters.json');
    writeFileSync(topFile, JSON.stringify(top, null, 2));
    const [typo, typoListed, viaFlow] = await Promise.all([
      cli(dir, [file, '--device', 'virtual-android-1', '--param', `PASSWORD=${PASSWORD}`, '--param', 'EMIAL=qa@example.com'], own(dir, 'typo')),
      cli(dir, [file, '--list', '--param', `PASSWORD=${PASSWORD}`, '--param', 'EMIAL=x'], own(dir, 'typo-listed')),
      cli(dir, [topFile, '--list', '--param', 'EMAIL=qa@example.com', '--param', `PASSWORD=${PASSWORD}`], own(dir, 'via-flow')),
    ]);
    assert.is(typo.code, 3, typo.err);
    assert.match(typo.err, /--param EMIAL \(did you mean EMAIL\?\): no scenario of this run declares this parameter, so the value would be ignored; the scenarios declare EMAIL, PASSWORD/);
    assert.not.ok(existsSync(join(dir, 'out-typo', 'results')), 'nothing ran');
    assert.is(typoListed.code, 3, '--list refuses it too');
    assert.is(viaFlow.code, 0, viaFlow.err);
  });
});

test('run: a flow file named beside the scenario that uses it runs inside it, and the run says so', async () => {
  await withDir(async (dir, scenarios) => {
    const flow = join(scenarios, 'flows', 'sign_in_flow.json');
    const both = await cli(dir, [join(scenarios, 'params_login.json'), flow, '--device', 'virtual-android-1', '--param', `PASSWORD=${PASSWORD}`], own(dir, 'both'));
    assert.is(both.code, 0, both.err);
    assert.match(both.err, /sign_in_flow\.json is a flow of \S*params_login\.json: it runs inside it, not on its own/);
    const runs = (JSON.parse(both.out) as { data: { runs: { scenario_id: string }[] } }).data.runs;
    assert.equal(runs.map((r) => r.scenario_id), ['params_login']);
  });
});

test.run();
