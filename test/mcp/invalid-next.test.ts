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

s('an argument the tool does not take: rename it when a name is meant, else leave it out', async ({ pair }) => {
  // Arguments another server's prompts pass (mobile-mcp's maxSize and ref): the hint names them, not another argument.
  const renamed = textOf(await pair.call('take_screenshot', { device: ANDROID, maxSize: 800 }));
  assert.match(renamed, /^INVALID_PARAMETER: .*unknown argument "maxSize" \(did you mean "max_size"\?\)/);
  assert.is(nextOf(renamed), 'Rename "maxSize" to "max_size" and call the tool again; do not retry unchanged.');
  const extra = textOf(await pair.call('swipe', { device: ANDROID, direction: 'up', ref: '@e5' }));
  assert.match(extra, /unknown argument "ref"/);
  assert.match(nextOf(extra), /^Leave out "ref" \(the tool does not take it/);
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
