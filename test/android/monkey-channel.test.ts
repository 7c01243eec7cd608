import { EventEmitter } from 'node:events';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { AdbDeviceClient } from '../../src/engine/drivers/android/adb-client.js';
import { MonkeyChannel, MonkeyDiedError } from '../../src/engine/drivers/android/monkey-channel.js';
import { swipeGesture, doubleTapGesture } from '../../src/engine/drivers/android/input-commands.js';

/** A monkey line client that answers lines one at a time, when the test says so, and records every write. */
class FakeMonkey extends EventEmitter {
  /** Lines written with `send`, and '' for each bare newline written on the stream. */
  readonly writes: string[][] = [];
  private pending: { count: number; callback: (err: Error | null, value: string | null) => void }[] = [];
  readonly stream = { write: (data: string) => this.writes.push(data === '\n' ? [''] : [`raw ${JSON.stringify(data)}`]) };

  send(commands: string[], callback: (err: Error | null, value: string | null) => void): void {
    this.writes.push(commands);
    this.pending.push({ count: commands.length, callback });
  }

  /** Answers the oldest unanswered line with OK, or with the given error. */
  answer(error?: Error): void {
    const first = this.pending[0];
    if (!first) throw new Error('no line is waiting for an answer');
    if (--first.count === 0) this.pending.shift();
    first.callback(error ?? null, error ? null : 'OK');
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

monkey('a tap and its probe go in one write; the first answer is followed by an empty line', async () => {
  const fake = new FakeMonkey();
  const sent = channelWith(fake).send(['tap 10 20'], new AbortController().signal);
  await tick();
  assert.equal(fake.writes, [['tap 10 20', 'sleep 0']]);
  fake.answer();
  assert.equal(fake.writes, [['tap 10 20', 'sleep 0'], ['']], 'the empty line acknowledges the answer at once');
  fake.answer();
  assert.is(await sent, true);
  assert.equal(fake.writes.length, 2, 'nothing after the last answer');
});

monkey('a double tap and a drag go in one write each, an empty line after every answer but the last', async () => {
  const fake = new FakeMonkey();
  const channel = channelWith(fake);
  const signal = new AbortController().signal;
  const double = channel.send(doubleTapGesture(5, 5).monkey, signal);
  await tick();
  for (let i = 0; i < 4; i++) fake.answer();
  assert.is(await double, true);
  assert.equal(fake.writes, [['tap 5 5', 'sleep 60', 'tap 5 5', 'sleep 0'], [''], [''], ['']]);
  fake.writes.length = 0;
  const drag = swipeGesture(0, 0, 0, 300, 100).monkey;
  const swiped = channel.send(drag, signal);
  await tick();
  for (let i = 0; i <= drag.length; i++) fake.answer();
  assert.is(await swiped, true);
  assert.equal(fake.writes, [[...drag, 'sleep 0'], ...drag.map(() => [''])]);
});

monkey('a refused line is reported after the last answer; a monkey that dies mid-gesture is MonkeyDiedError', async () => {
  const fake = new FakeMonkey();
  const channel = channelWith(fake);
  const refused = channel.send(['press KEYCODE_NOPE'], new AbortController().signal);
  await tick();
  fake.answer(new Error('ERROR:unknown key'));
  fake.answer();
  assert.match(String(await rejection(refused)), /monkey refused "press KEYCODE_NOPE": ERROR:unknown key/);
  const died = channel.send(['tap 1 1'], new AbortController().signal);
  await tick();
  fake.answer();
  fake.end();
  assert.instance(await rejection(died), MonkeyDiedError);
});

monkey.run();
