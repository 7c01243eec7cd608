import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { VERB_TOOLS } from '../../src/mcp/verb-tools.js';
import { ANDROID, DEMO, liveSessionEach, ok, type LiveSession } from './helpers.js';

/**
 * Each verb tool's description promises what "resolved" holds, and the verb answers that: an
 * element where one was acted on or found, null where none is resolved (a swipe, a key, a launch).
 */

const s = suite<LiveSession>('what verbs say resolved holds');
liveSessionEach(s, 'mb-verb-resolved-');

const description = (name: string) => VERB_TOOLS.find((t) => t.name === name)!.description;
const promisesNull = (name: string) => /resolved being null\b/.test(description(name));

s('verbs that resolve no element say resolved is null, and answer null', async ({ pair }) => {
  const calls: [string, Record<string, unknown>][] = [
    ['launch_app', { package: DEMO }],
    ['open_url', { url: 'mbdemo://screen/home' }],
    ['swipe', { direction: 'up' }],
    ['press_button', { button: 'HOME' }],
    ['clear_app_data', { package: DEMO }],
    ['dismiss_keyboard', {}],
  ];
  for (const [name, args] of calls) {
    const answer = ok(await pair.call(name, { device: ANDROID, ...args }));
    assert.is(answer.resolved, null, name);
    assert.ok(promisesNull(name), `${name}: ${description(name)}`);
    assert.not.match(description(name), /resolved: \{id/, name);
  }
});

s('verbs that act on an element say so, and answer it', async ({ pair }) => {
  ok(await pair.call('launch_app', { device: ANDROID, package: DEMO }));
  ok(await pair.call('open_url', { device: ANDROID, url: 'mbdemo://screen/home' }));
  for (const [name, args] of [['scroll_to', { target: 'Item 3' }], ['wait_for', { target: 'Item 3' }], ['tap', { target: 'Item 3' }]] as const) {
    const answer = ok(await pair.call(name, { device: ANDROID, ...args }));
    assert.is(answer.resolved?.id, 'item_3', name);
    assert.not.ok(promisesNull(name), `${name}: ${description(name)}`);
    assert.match(description(name), '{id, text, label, type, center, confidence}', name);
  }
});

s.run();
