import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { IdleCollector } from '../../src/bridge/idle-gc.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('collects once, after the latest time any touch asked for', async () => {
  const c = new IdleCollector(400);
  c.touch(); // a capture: not before 400 ms
  await sleep(50);
  c.touch(20); // a session ended: soon, but not before the capture's time
  await sleep(200);
  assert.is(c.runs, 0, 'a shorter touch does not bring an earlier one forward');
  await sleep(800);
  assert.is(c.runs, 1);
  c.stop();
});

test('a short touch alone collects soon; touches while waiting do not collect twice', async () => {
  const c = new IdleCollector(10_000);
  c.touch(30);
  c.touch(30);
  await sleep(600);
  assert.is(c.runs, 1);
  c.stop();
});

test.run();
