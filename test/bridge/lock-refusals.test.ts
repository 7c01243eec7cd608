import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { LockTable, type RunScenario } from '../../src/bridge/locks.js';
import { Session } from '../../src/bridge/sessions.js';

/** What a refused caller is told about the lock's holder: its kind, since when, and what ends the lock. */

const DEVICE = 'virtual-android-1';

function session(client?: string): Session {
  const s = new Session({ graceMs: 1000, replayMessages: 10, replayBytes: 1024, maxDetached: 10 });
  s.client = client;
  return s;
}

function refusedBy(holder: Session, pinned = false, scenario?: RunScenario): { call: string; lock: string; since: string } {
  const locks = new LockTable(() => undefined);
  locks.acquire(DEVICE, holder, false);
  const since = locks.info(DEVICE)!.since;
  if (pinned) locks.pin(DEVICE, holder, false, scenario);
  const other = session('other');
  const call = locks.refusal(DEVICE, other, 'mobile_press_button');
  const lock = locks.acquire(DEVICE, other, false);
  return { call: 'message' in call! ? call.message : '', lock: 'message' in lock ? lock.message : '', since };
}

test('a viewer holding the device: a person, who releases it with Release or by closing the page', () => {
  const viewer = session('viewer');
  const { call, lock, since } = refusedBy(viewer);
  assert.is(
    call,
    `mobile_press_button refused: device ${DEVICE} is locked by session ${viewer.id} (viewer), a person controlling it in the viewer, since ${since}; ` +
      'read-only tools still work; wait until they press Release or close the page, or call devices.lock with takeover: true to take control (they are told, and can take it back)',
  );
  assert.match(lock, `device ${DEVICE} is locked by session ${viewer.id} (viewer), a person controlling it in the viewer, since ${since}; wait until they press Release`);
  assert.not.match(call, /scenario run/);
});

test('an agent holding the device: a client that locked it, until it unlocks or disconnects', () => {
  const agent = session('mobilebridge-mcp');
  const { call, lock, since } = refusedBy(agent);
  assert.is(
    call,
    `mobile_press_button refused: device ${DEVICE} is locked by session ${agent.id} (mobilebridge-mcp), an agent or script that locked it (devices.lock or devices.lease), since ${since}; ` +
      'read-only tools still work; wait until it unlocks (devices.unlock) or disconnects, or call devices.lock with takeover: true to take control (it is told)',
  );
  assert.match(lock, `(devices.lock or devices.lease), since ${since}; wait until it unlocks (devices.unlock) or disconnects`);
  assert.not.match(call, /scenario run/);
  const anonymous = session();
  assert.match(refusedBy(anonymous).call, `locked by session ${anonymous.id}, an agent or script`, 'no client name: none is made up');
});

test('a scenario run holding the device: the lock lasts the run, and a takeover cancels it', () => {
  const runner = session('mobilebridge-run');
  const { call, lock, since } = refusedBy(runner, true);
  assert.is(
    call,
    `mobile_press_button refused: device ${DEVICE} is locked by session ${runner.id} (mobilebridge-run) for its scenario run, since ${since}; ` +
      'read-only tools still work; wait for the run to end (its lock goes with it), or call devices.lock with takeover: true to take control, which cancels the run',
  );
  assert.match(lock, /which cancels the run$/);
});

test('a scenario run holding the device: the refusal names the scenario it runs', () => {
  const runner = session('ci');
  const named = refusedBy(runner, true, { scenario_id: 'sign-in-1', name: 'Sign in; then "check"' });
  assert.match(named.call, `locked by session ${runner.id} (ci) for its scenario run of "Sign in; then \\"check\\"" (scenario sign-in-1), since ${named.since}; read-only tools still work; wait for the run to end`);
  assert.match(named.lock, `locked by session ${runner.id} (ci) for its scenario run of "Sign in; then \\"check\\"" (scenario sign-in-1), since`);
  assert.match(refusedBy(runner, true, { scenario_id: 'sign-in-1' }).call, `for its scenario run of scenario sign-in-1, since`);
  assert.match(refusedBy(runner, true, {}).call, `for its scenario run, since`);
});

test.run();
