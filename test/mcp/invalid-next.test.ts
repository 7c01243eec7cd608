import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ANDROID, DEMO, IOS, liveSessionEach, ok, textOf, type LiveSession } from './helpers.js';

/** INVALID_PARAMETER's "Next:" fits the refusal: a named argument to fix, or a state to change first. */

const s = suite<LiveSession>('what to do after INVALID_PARAMETER');
liveSessionEach(s, 'mb-invalid-next-');

const nextOf = (text: string) => text.slice(text.lastIndexOf('\nNext: ') + 7);

s('a refusal naming an argument says to fix that argument', async ({ pair }) => {
  const missing = await pair.call('recording_start', { device: IOS });
  assert.ok(missing.isError);
  assert.is(nextOf(textOf(missing)), 'Fix "name" as the message says and call the tool again; do not retry unchanged.');
  ok(await pair.call('recording_start', { device: ANDROID, name: 'one' }));
  ok(await pair.call('launch_app', { device: ANDROID, package: DEMO }));
  const badFile = textOf(await pair.call('recording_stop', { device: ANDROID, save_to: 'scenario.txt' }));
  // The scenario quoted after the message has a "name" too: the hint is about save_to.
  assert.match(badFile, '"name":"one"');
  assert.match(nextOf(badFile), /^Fix "save_to" as the message says/);
});

s('a refusal for the state of the session or device does not blame a parameter', async ({ pair }) => {
  ok(await pair.call('recording_start', { device: IOS, name: 'first' }));
  const again = await pair.call('recording_start', { device: IOS, name: 'second' });
  const noField = await pair.call('type_text', { device: IOS, text: 'abc' });
  for (const r of [again, noField]) {
    const text = textOf(r);
    assert.match(text, /^INVALID_PARAMETER: /);
    assert.not.match(nextOf(text), /parameter|Fix "/i, text);
    assert.match(nextOf(text), /^Do what the message says before calling again/);
  }
});

s.run();
