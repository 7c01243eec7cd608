import { EventEmitter } from 'node:events';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { AdbDeviceClient } from '../../src/engine/drivers/android/adb-client.js';
import { MonkeyChannel, MonkeyDiedError } from '../../src/engine/drivers/android/monkey-channel.js';
import { swipeGesture, doubleTapGesture } from '../../src/engine/drivers/android/input-commands.js';

/** A monkey line client that answers each write's lines later, when the test says so, and records every write. */
class FakeMonkey extends EventEmitter {
  readonly writes: string[][] = [];
  private pending: { count: number; callback: (err: Error | null, value: string | null) => void }[] = [];

  send(commands: string[], callback: (err: Error | null, value: string | null) => void): void {
    this.writes.push(commands);
    this.pending.push({ count: commands.length, callback });
  }

  /** Answers every line written so far with OK (or the given error for the first line). */
  answer(error?: Error): void {
    const now = this.pending;
    this.pending = [];
    for (const p of now) for (let i = 0; i < p.count; i++) p.callback(i === 0 ? error ?? null : null, 'OK');
  }

  end(): void {
    this.emit('end');
  }
}

const monkey = suite('monkey channel');
const tick = () => new Promise((r) => setImmediate(r));
/** What the promise rejected with; fails the test when it resolved. */
const rejection = (p: Promise<unknown>) => p.then(() => assert.unreachable('expected a rejection'), (err: unknown) => err);
const channelWith = (fake: FakeMonkey) => new MonkeyChannel({ openMonkey: async () => fake } as unknown as AdbDeviceClient);

monkey('a tap and its probe are two writes, the second only after the first is answered', async () => {
  const fake = new FakeMonkey();
  const sent = channelWith(fake).send(['tap 10 20'], new AbortController().signal);
  await tick();
  assert.equal(fake.writes, [['tap 10 20']], 'nothing more before the answer');
  fake.answer();
  await tick();
  assert.equal(fake.writes, [['tap 10 20'], ['sleep 0']]);
  fake.answer();
  assert.is(await sent, true);
});

monkey('a double tap goes line by line; a drag in one write, then the probe', async () => {
  const fake = new FakeMonkey();
  const channel = channelWith(fake);
  const signal = new AbortController().signal;
  const double = channel.send(doubleTapGesture(5, 5).monkey, signal);
  for (let i = 0; i < 4; i++) {
    await tick();
    fake.answer();
  }
  assert.is(await double, true);
  assert.equal(fake.writes, [['tap 5 5'], ['sleep 100'], ['tap 5 5'], ['sleep 0']]);
  fake.writes.length = 0;
  const drag = swipeGesture(0, 0, 0, 300, 100).monkey;
  const swiped = channel.send(drag, signal);
  for (let i = 0; i < 2; i++) {
    await tick();
    fake.answer();
  }
  assert.is(await swiped, true);
  assert.equal(fake.writes, [drag, ['sleep 0']]);
});

monkey('a refused line is reported after the last answer; a monkey that dies mid-gesture is MonkeyDiedError', async () => {
  const fake = new FakeMonkey();
  const channel = channelWith(fake);
  const refused = channel.send(['press KEYCODE_NOPE'], new AbortController().signal);
  await tick();
  fake.answer(new Error('ERROR:unknown key'));
  await tick();
  fake.answer();
  assert.match(String(await rejection(refused)), /monkey refused "press KEYCODE_NOPE": ERROR:unknown key/);
  const died = channel.send(['tap 1 1'], new AbortController().signal);
  await tick();
  fake.answer();
  await tick();
  fake.end();
  assert.instance(await rejection(died), MonkeyDiedError);
});

monkey.run();
