import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { RUNS_DIR } from './harness.js';
import { runCli as cli } from './run-cli.js';

test('run: passing scenarios on two devices exit 0 and leave junit.xml and a self-contained report.html', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mb-cli-run-'));
  try {
    const r = await cli(dir, [join(RUNS_DIR, 'semantic_cross.json'), join(RUNS_DIR, 'clear_data_cross.json'), '--devices', 'virtual-android-1,virtual-android-1']);
    assert.is(r.code, 0, r.err);
    const out = JSON.parse(r.out) as { data: { runs: { status: string }[] } };
    assert.equal(out.data.runs.map((x) => x.status), ['passed', 'passed']);
    const junit = readFileSync(join(dir, 'out', 'junit.xml'), 'utf8');
    assert.match(junit, /<testsuites name="mobilebridge" tests="2" failures="0" errors="0" skipped="0" time="[0-9.]+">/);
    // Named after the scenario, classname its folder: the same wherever the suite is checked out.
    assert.match(junit, /<testcase classname="runs" name="Back, keyboard and permissions on both platforms"/);
    const html = readFileSync(join(dir, 'out', 'report.html'), 'utf8');
    assert.match(html, /2\/2 scenarios passed/);
    assert.match(html, /src="data:image\/jpeg;base64,/);
    assert.not.match(html, /<script/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('run: an invalid scenario exits 3 with the validation envelope; a failed one exits 4 or 5 with a JUnit failure', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mb-cli-run-'));
  try {
    writeFileSync(join(dir, 'bad.json'), '{"$schema_version": "2.0", "steps": []}');
    const scenario = JSON.parse(readFileSync(join(RUNS_DIR, 'clear_data_cross.json'), 'utf8')) as { assertions: { element_description: string }[] };
    scenario.assertions[0].element_description = 'the Log out button';
    writeFileSync(join(dir, 'failing.json'), JSON.stringify(scenario));
    // Independent runs side by side, each with its own output and phone state.
    const own = (name: string) => ({ out: join(dir, `out-${name}`), state: join(dir, `state-${name}`) });
    const [bad, failed, shardless, nowhere] = await Promise.all([
      cli(dir, [join(dir, 'bad.json')], own('bad')),
      cli(dir, [join(dir, 'failing.json'), '--device', 'virtual-android-1'], own('failed')),
      cli(dir, [join(dir, 'failing.json'), '--shard', '3/2'], own('shardless')),
      cli(dir, [join(dir, 'failing.json'), '--device', 'no-such-phone'], own('nowhere')),
    ]);
    assert.is(bad.code, 3);
    assert.is((JSON.parse(bad.out) as { ok: boolean }).ok, false);

    assert.is(failed.code, 5, failed.err);
    assert.match(readFileSync(join(dir, 'out-failed', 'junit.xml'), 'utf8'), /<failure message="assertion /);

    assert.is(shardless.code, 3);
    // A run stopped before its first step still answers on stdout, with why and the exit code.
    assert.equal(JSON.parse(shardless.out).error.kind, 'invalid_input');
    assert.is(nowhere.code, 2);
    const refusal = JSON.parse(nowhere.out);
    assert.equal([refusal.ok, refusal.data.runs, refusal.error.kind, refusal.exit_code], [false, [], 'device', 2]);
    assert.match(refusal.error.message, 'device "no-such-phone" not found');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('run: a launch_app of an app the phone does not have ends the run as error, exit 2 (the device\'s setup, not the app\'s state)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mb-cli-run-'));
  try {
    const scenario = JSON.parse(readFileSync(join(RUNS_DIR, 'clear_data_cross.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(dir, 'absent.json'), JSON.stringify({ ...scenario, app_package: 'com.example.absent', preconditions: undefined }));
    const r = await cli(dir, [join(dir, 'absent.json'), '--device', 'virtual-android-1']);
    assert.is(r.code, 2, r.err + r.out);
    const run = (JSON.parse(r.out) as { data: { runs: { status: string; summary: string }[] } }).data.runs[0];
    assert.is(run.status, 'error');
    assert.match(run.summary, /^error at step \w+ \(launch_app\): APP_NOT_INSTALLED: /);
    assert.match(readFileSync(join(dir, 'out', 'junit.xml'), 'utf8'), /<error message="[^"]*" type="APP_NOT_INSTALLED">/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('run: each file goes to a device of its platform; a file no listed device can run is a usage error (exit 3)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mb-cli-run-'));
  try {
    const base = JSON.parse(readFileSync(join(RUNS_DIR, 'semantic_cross.json'), 'utf8')) as Record<string, unknown>;
    mkdirSync(join(dir, 'suite'));
    writeFileSync(join(dir, 'suite', 'a_ios.json'), JSON.stringify({ ...base, scenario_id: 'on_ios', platform: 'ios' }));
    writeFileSync(join(dir, 'suite', 'b_android.json'), JSON.stringify({ ...base, scenario_id: 'on_android', platform: 'android' }));
    // Independent runs side by side, each with its own output and phone state.
    const own = (name: string) => ({ out: join(dir, `out-${name}`), state: join(dir, `state-${name}`) });
    const [r, both, misrouted] = await Promise.all([
      cli(dir, [join(dir, 'suite')], own('routed')),
      cli(dir, [join(dir, 'suite'), '--devices', 'virtual-android-1,virtual-ios-1'], own('both')),
      cli(dir, [join(dir, 'suite'), '--devices', 'virtual-android-1'], own('misrouted')),
    ]);
    const out = JSON.parse(r.out) as { data: { runs: { scenario_id: string; device: string; summary: string }[] } };
    assert.equal(Object.fromEntries(out.data.runs.map((x) => [x.scenario_id, x.device])), { on_ios: 'virtual-ios-1', on_android: 'virtual-android-1' }, r.err);

    const routed = JSON.parse(both.out) as { data: { runs: { scenario_id: string; device: string }[] } };
    assert.equal(Object.fromEntries(routed.data.runs.map((x) => [x.scenario_id, x.device])), { on_ios: 'virtual-ios-1', on_android: 'virtual-android-1' }, both.err);

    assert.is(misrouted.code, 3, misrouted.err);
    assert.match(misrouted.err, /no listed device can run suite\/a_ios\.json \(ios\)/);
    assert.equal(JSON.parse(misrouted.out).data.runs, [], 'nothing ran');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
