import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ANDROID, DEMO, liveSessionEach, ok, type LiveSession, type Pair } from './helpers.js';

/** A live screenshot_match records its baseline in a temp folder gone at exit: the saved scenario takes it along. */
const base = suite<LiveSession>('screenshot_match baselines recorded live');

liveSessionEach(base, 'mb-baselines-');

async function recordWithBaseline(pair: Pair, reference: string): Promise<any> {
  ok(await pair.call('recording_start', { device: ANDROID, name: 'Home looks right', app_package: DEMO }));
  ok(await pair.call('launch_app', { device: ANDROID, package: DEMO }));
  const checked = ok(await pair.call('assert', { device: ANDROID, type: 'screenshot_match', reference_screenshot: reference }));
  assert.is(checked.status, 'passed', checked.message);
  return checked;
}

base('the live message says the baseline lasts for the session, and save_to puts it next to the scenario', async ({ pair, dir }) => {
  const reference = `base-${process.pid}-${Date.now()}/home.png`;
  const checked = await recordWithBaseline(pair, reference);
  assert.match(checked.message, /it lasts only for this session \(a temporary folder, deleted at exit\)/);
  assert.not.match(checked.message, /later runs compare against it/);
  const file = join(dir, 'sc', 'home.json');
  const stopped = ok(await pair.call('recording_stop', { device: ANDROID, save_to: file }));
  const copy = join(dir, 'sc', reference);
  assert.ok(existsSync(copy), 'the baseline is next to the scenario');
  assert.equal([...readFileSync(copy).subarray(1, 4)], [...Buffer.from('PNG')]);
  assert.equal(stopped.summary.skipped, []);
});

base('without save_to the summary says the baseline is not kept; an existing baseline is left as it is', async ({ pair, dir }) => {
  const reference = `base-${process.pid}-${Date.now()}-b/home.png`;
  await recordWithBaseline(pair, reference);
  const unsaved = ok(await pair.call('recording_stop', { device: ANDROID }));
  assert.match(unsaved.summary.skipped.join('\n'), new RegExp(`screenshot_match \\S+: its baseline ${reference} lives in a temporary folder until this session ends; stop with save_to`));
  // Asked again with save_to (the stop's answer repeated): saved now, the note not doubled.
  const folder = join(dir, 'kept');
  const existing = join(folder, reference);
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(join(folder, reference, '..'), { recursive: true });
  writeFileSync(existing, 'mine');
  const saved = ok(await pair.call('recording_stop', { device: ANDROID, save_to: join(folder, 'home.json') }));
  assert.is(saved.repeated, true);
  assert.is(readFileSync(existing, 'utf8'), 'mine');
  assert.equal(saved.summary.skipped.length, 1, JSON.stringify(saved.summary.skipped));
  assert.match(saved.summary.skipped[0], /already exists and was left as it is \(replays compare against it\); pass overwrite: true/);
});

base.run();
