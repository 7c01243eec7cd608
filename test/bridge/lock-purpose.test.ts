import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { LockTable, type LockChange } from '../../src/bridge/locks.js';
import { Session } from '../../src/bridge/sessions.js';

/**
 * A lock says what it is for — a scenario run (which a takeover cancels) or a lease — in `device.lock`
 * and in the lock `activity.recent` reports, so a viewer can warn before taking it over.
 */

const DEVICE = 'virtual-android-1';

function session(client?: string): Session {
  const s = new Session({ graceMs: 1000, replayMessages: 10, replayBytes: 1024, maxDetached: 10 });
  s.client = client;
  return s;
}

function table(): { locks: LockTable; changes: Omit<LockChange, 'notify'>[] } {
  const changes: Omit<LockChange, 'notify'>[] = [];
  const locks = new LockTable(({ notify: _notify, ...change }) => changes.push(change));
  return { locks, changes };
}

test('a plain lock has no purpose', () => {
  const { locks, changes } = table();
  locks.acquire(DEVICE, session('viewer'), false);
  assert.is(changes[0]!.purpose, undefined);
  assert.is(locks.info(DEVICE)!.purpose, undefined);
});

test('a run: the lock is announced as the run\'s (with its scenario) once pinned, and goes with the run', () => {
  const { locks, changes } = table();
  const runner = session('viewer');
  locks.acquire(DEVICE, runner, false);
  locks.pin(DEVICE, runner, false, { scenario_id: 'long_run', name: 'Slow run' });
  assert.equal(changes.at(-1), { device: DEVICE, holder: runner.participant, since: locks.info(DEVICE)!.since, purpose: { kind: 'run', scenario_id: 'long_run', name: 'Slow run' } });
  assert.equal(locks.info(DEVICE)!.purpose, { kind: 'run', scenario_id: 'long_run', name: 'Slow run' });
  const ended = locks.unpin(DEVICE, runner);
  assert.equal(ended, { last: true, leased: false });
  assert.is(changes.length, 2, 'the release that follows a run (not a lease) says the rest');
});

test('a run with no scenario named is still a run', () => {
  const { locks } = table();
  const runner = session('ci');
  locks.acquire(DEVICE, runner, false);
  locks.pin(DEVICE, runner, false);
  assert.equal(locks.info(DEVICE)!.purpose, { kind: 'run' });
});

test('a lease: announced as one, a run under it is a run, and after the run it is the lease again', () => {
  const { locks, changes } = table();
  const ci = session('ci-runner');
  locks.acquire(DEVICE, ci, false, true);
  assert.equal(changes.at(-1)!.purpose, { kind: 'lease' });
  assert.equal(locks.info(DEVICE)!.purpose, { kind: 'lease' });
  locks.pin(DEVICE, ci, true, { scenario_id: 'sign_in' });
  assert.equal(changes.at(-1)!.purpose, { kind: 'run', scenario_id: 'sign_in' });
  locks.unpin(DEVICE, ci);
  assert.equal(changes.at(-1)!.purpose, { kind: 'lease' });
  assert.equal(changes.at(-1)!.holder, ci.participant);
  assert.equal(locks.info(DEVICE)!.purpose, { kind: 'lease' });
});

test.run();
