import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { progressPrinter, type ProgressLike } from '../../src/cli/run-progress.js';
import { runCli } from '../runner/run-cli.js';

const printed = (name: string, shape: { scenarios: number; devices: number }, events: ProgressLike[]): string => {
  let text = '';
  const print = progressPrinter(name, shape, (t) => (text += t));
  for (const e of events) print(e);
  return text;
};

const events: ProgressLike[] = [
  { type: 'started', device: 'virtual-ios-1' },
  { type: 'step', step: { status: 'failed', step_id: 'tap_sign_in', error_message: 'no element matches "Sign in"' } },
  { type: 'finished', summary: 'failed: 0/1 steps passed' },
];

test('one scenario: the lines as they always were, nothing added', () => {
  assert.is(printed('login.json', { scenarios: 1, devices: 1 }, events), '  failed       tap_sign_in: no element matches "Sign in"\nfailed: 0/1 steps passed\n');
});

test('several scenarios on one device: each block starts with the file and its summary names it', () => {
  assert.is(printed('suite/login.json', { scenarios: 2, devices: 1 }, events), 'suite/login.json on virtual-ios-1\n  failed       tap_sign_in: no element matches "Sign in"\nsuite/login.json: failed: 0/1 steps passed\n');
});

test('side by side on several devices: every step line names its device, the summary the file and the device', () => {
  assert.is(
    printed('login.json', { scenarios: 2, devices: 2 }, events),
    'login.json on virtual-ios-1\n  [virtual-ios-1] failed       tap_sign_in: no element matches "Sign in"\nlogin.json on virtual-ios-1: failed: 0/1 steps passed\n',
  );
});

test('run on an Android and an iOS phone at once: the interleaved stderr lines say which scenario and device each belongs to', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mb-cli-progress-'));
  try {
    for (const [file, id, step] of [['one.json', 'cross_one', 'open_more'], ['two.json', 'cross_two', 'open_inbox']]) {
      const screen = step === 'open_more' ? 'more' : 'inbox';
      writeFileSync(join(dir, file), JSON.stringify({
        $schema_version: '2.2', scenario_id: id, name: id, description: 'd', platform: 'cross-platform', app_package: 'com.mobilebridge.demo',
        metadata: { app_version: '1', environment: 't' },
        steps: [{ id: step, action: 'open_url', description: 'open', value: `mbdemo://screen/${screen}` }],
        assertions: [{ id: 'shown', after_step: step, type: 'element_exists', description: 'a text of the screen', element_description: screen === 'more' ? 'Save draft' : 'No messages yet' }],
      }));
    }
    const r = await runCli(dir, ['one.json', 'two.json', '--devices', 'virtual-android-1,virtual-ios-1']);
    assert.is(r.code, 0, r.err);
    const lines = r.err.split('\n');
    const runs = (JSON.parse(r.out) as { data: { runs: { scenario: string; device: string }[] } }).data.runs;
    assert.is(new Set(runs.map((x) => x.device)).size, 2, r.out);
    for (const { scenario, device } of runs) {
      const step = scenario === 'one.json' ? 'open_more' : 'open_inbox';
      assert.ok(lines.includes(`${scenario} on ${device}`), r.err);
      assert.ok(lines.includes(`  [${device}] passed       ${step}`), r.err);
      assert.ok(lines.some((l) => l.startsWith(`${scenario} on ${device}: passed: `)), r.err);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
