import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { judgeAssertion, type Look } from '../../src/engine/runner/assertion-gate.js';
import type { ConditionEnv } from '../../src/engine/runner/conditions.js';
import type { VerbContext } from '../../src/engine/verbs/index.js';
import type { Assertion } from '../../src/validate/index.js';

/** A clock that moves only when slept on, and a look that fails until `passFrom` (ms after the start). */
function setup(timeoutMs: number, passFrom = Infinity, lookTakes = 0) {
  let t = 1000;
  const looks: number[] = [];
  const sleeps: number[] = [];
  const verbs = { clock: { now: () => t, sleep: async (ms: number) => void (sleeps.push(ms), (t += ms)) }, pollMs: 250 } as unknown as VerbContext;
  const a = { id: 'ready', after_step: 's', type: 'screen_title', description: 'd', expected_text: 'Items', timeout_ms: timeoutMs } as Assertion;
  const look: Look = async () => {
    const at = t - 1000;
    looks.push(at);
    t += lookTakes;
    const pass = at >= passFrom;
    return { assertion_id: a.id, type: a.type, status: pass ? 'passed' : 'failed', message: pass ? 'the title is "Items"' : 'the title is "Loading"' };
  };
  const judge = () => judgeAssertion(a, look, 0, verbs, () => undefined, {} as ConditionEnv);
  return { looks, sleeps, judge };
}

test('a waiting assertion looks every poll and once more exactly at the deadline, never after it', async () => {
  const w = setup(600);
  const judged = await w.judge();
  assert.equal(w.looks, [0, 250, 500, 600]);
  assert.equal(w.sleeps, [250, 250, 100]);
  assert.is(judged.status, 'failed');
  assert.is(judged.message, 'the title is "Loading"; still so after waiting 600 ms (timeout_ms 600)');
});

test('a state reached after the deadline is no pass (it was, one poll late)', async () => {
  const w = setup(1300, 1400);
  const judged = await w.judge();
  assert.is(judged.status, 'failed', judged.message);
  assert.ok(Math.max(...w.looks) <= 1300, `looked at ${w.looks.join(', ')}`);
  assert.match(judged.message, /still so after waiting 1300 ms \(timeout_ms 1300\)$/);
});

test('a state reached by the deadline passes on the last look, taken at the deadline', async () => {
  const w = setup(1300, 1300);
  const judged = await w.judge();
  assert.is(judged.status, 'passed', judged.message);
  assert.is(w.looks.at(-1), 1300);
});

test('slow looks: the wait reported is the real one, up to the last look, which starts at the deadline', async () => {
  const w = setup(600, Infinity, 100);
  const judged = await w.judge();
  assert.equal(w.looks, [0, 350, 600]);
  assert.equal(w.sleeps, [250, 150]);
  assert.match(judged.message, /still so after waiting 600 ms \(timeout_ms 600\)$/);
});

test('timeout_ms 0 is one look, and a failure says nothing of waiting', async () => {
  const w = setup(0);
  const judged = await w.judge();
  assert.equal(w.looks, [0]);
  assert.is(judged.message, 'the title is "Loading"');
});

test.run();
