import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { LocalBackend } from '../../src/mcp/backend.js';
import { inAgentTerms } from '../../src/mcp/tool-names.js';
import { ANDROID, connectPair, DEMO, IOS, jsonOf, refusal, textOf, virtualEngine, type Pair } from './helpers.js';

/** What the tools say (descriptions, schemas, messages) agrees with what they do. */
const say = suite<{ backend: LocalBackend; pair: Pair }>('MCP descriptions and messages agree with the tools');

say.before.each(async (ctx) => {
  const { engine, verbClock } = virtualEngine();
  ctx.backend = new LocalBackend(engine, { clock: verbClock, targetWaitMs: 500, settleMs: 0 });
  ctx.pair = await connectPair(ctx.backend);
});
say.after.each(async (ctx) => {
  await ctx.pair.close();
  await ctx.backend.close();
});

async function schemaOf(pair: Pair, tool: string): Promise<{ description: string; properties: Record<string, { enum?: string[] }> }> {
  const t = (await pair.client.listTools()).tools.find((x) => x.name === tool)!;
  return { description: t.description ?? '', properties: t.inputSchema.properties as Record<string, { enum?: string[] }> };
}

say('mobile_pinch_on_screen is the pinch tool here, in messages and when called without --engine-tools', async ({ pair }) => {
  assert.is(inAgentTerms('use mobile_pinch_on_screen for that', false), 'use pinch for that');
  assert.is(inAgentTerms('see mobile_get_orientation.', false), 'see mobile_get_orientation (not offered here: start the server with --engine-tools, or run `mobilebridge call mobile_get_orientation`).');
  // Words that only look like tool names are what a screen or a caller said: left as they are.
  for (const said of ['com.example.mobile_banking is not installed', 'typed mobile_user@example.com', 'no element matches "mobile_data toggle"', 'the file mobile_app/x.json']) {
    assert.is(inAgentTerms(said, false), said);
  }
  // A scenario carried in a message (recording_stop after a refused save) is never rewritten, even where it names a tool.
  const carried = 'PERMISSION_DENIED: cannot write there; use mobile_list_apps (the recording was stopped; the scenario follows)\n{"app_package":"com.x","steps":[{"value":"mobile_list_apps"}]}';
  assert.is(inAgentTerms(carried, false), carried.replace('use mobile_list_apps (', 'use list_apps ('));
  assert.match((await refusal(pair.call('mobile_pinch_on_screen', { device: ANDROID, x: 540, y: 900, scale: 2 }))).message, /call "pinch", which does the same here/);
});

say('press_button takes every button its iOS refusal names; a recording skips the ones a scenario cannot press', async ({ pair }) => {
  const buttons = (await schemaOf(pair, 'press_button')).properties.button.enum!;
  const refusal = textOf(await pair.call('press_button', { device: IOS, button: 'BACK' }));
  const named = /Allowed on iOS: ([A-Z_, ]+)/.exec(refusal)?.[1].split(', ');
  assert.ok(named?.length, refusal);
  for (const b of named!) assert.ok(buttons.includes(b), `the refusal names ${b}, which the schema refuses`);
  assert.not.ok((await pair.call('recording_start', { device: IOS, name: 'Volume', app_package: DEMO })).isError);
  assert.not.ok((await pair.call('open_url', { device: IOS, url: 'mbdemo://screen/inbox' })).isError);
  const louder = jsonOf(await pair.call('press_button', { device: IOS, button: 'VOLUME_UP' }));
  assert.is(louder.status, 'passed');
  assert.equal(louder.recorded, []);
  const stopped = jsonOf(await pair.call('recording_stop', { device: IOS }));
  assert.is(stopped.validation.valid, true, JSON.stringify(stopped.validation.errors));
  assert.equal(stopped.scenario.steps.map((s: { action: string }) => s.action), ['open_url']);
  assert.match(stopped.summary.skipped.join('\n'), /press_button VOLUME_UP: a scenario presses only BACK, HOME or ENTER/);
});

say('recording_stop names the schema version it returns', async ({ pair }) => {
  assert.not.ok((await pair.call('recording_start', { device: ANDROID, name: 'Version', app_package: DEMO })).isError);
  assert.not.ok((await pair.call('open_url', { device: ANDROID, url: 'mbdemo://screen/more' })).isError);
  const version = jsonOf(await pair.call('recording_stop', { device: ANDROID })).scenario.$schema_version;
  assert.match((await schemaOf(pair, 'recording_stop')).description, new RegExp(`\\(schema ${version.replace('.', '\\.')} JSON\\)`));
});

say('scroll_to says how far it scrolls as the verb does: at most 16 swipes each way', async ({ pair }) => {
  assert.match((await schemaOf(pair, 'scroll_to')).description, /at most 16 swipes each way/);
  assert.not.match((await schemaOf(pair, 'scroll_to')).description, /15/);
});

say('list_elements with full: true refuses limit, offset and screen instead of dropping them', async ({ pair }) => {
  for (const extra of [{ limit: 2 }, { offset: 1 }, { screen: 'abc' }]) {
    const r = await pair.call('list_elements', { device: ANDROID, full: true, ...extra });
    assert.ok(r.isError, `accepted ${JSON.stringify(extra)}`);
    assert.match(textOf(r), new RegExp(`^INVALID_PARAMETER: list_elements on ${ANDROID}: "${Object.keys(extra)[0]}" pages the compact listing, and full: true is never paged`));
  }
  assert.ok(jsonOf(await pair.call('list_elements', { device: ANDROID, full: false, limit: 2 })).elements.length <= 2);
  assert.ok(jsonOf(await pair.call('list_elements', { device: ANDROID, full: true })).elements.length > 2);
});

say('list_elements past the last element answers an empty page that says so, as its description promises no error', async ({ pair }) => {
  const r = await pair.call('list_elements', { device: ANDROID, offset: 500 });
  assert.not.ok(r.isError, textOf(r));
  const page = jsonOf(r);
  assert.equal(page.elements, []);
  assert.is(page.note, `offset 500 is past the last element (total ${page.total}, offsets 0 to ${page.total - 1}): call again with offset 0 for the first page`);
  assert.match((await schemaOf(pair, 'list_elements')).description, /an offset past the last element gives no elements and a note/);
});

say.run();
