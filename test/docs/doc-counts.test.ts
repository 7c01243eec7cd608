import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { TOOL_NAMES } from '../../src/engine/tools/index.js';
import { VERB_NAMES } from '../../src/engine/verbs/index.js';
import { ASSERTION_TYPES } from '../../src/validate/vocabulary.js';
import { LocalBackend } from '../../src/mcp/backend.js';
import { connectPair, virtualEngine } from '../mcp/helpers.js';
import { repoFile } from './doc-text.js';

// Counts and lists the docs state, which go stale silently when a tool, verb or assertion is added.

/** The number in `pattern`'s first group, found once in `file` (line breaks read as spaces). */
function stated(file: string, pattern: RegExp): number {
  const m = pattern.exec(repoFile(file).replace(/\s*\n\s*/g, ' '));
  assert.ok(m, `${file} no longer says ${pattern}`);
  return Number(m[1]);
}

test('the counts of engine tools, actions and assertion types in the docs are the code\'s', () => {
  assert.is(stated('README.md', /`tools\/` \(the (\d+) tools\)/), TOOL_NAMES.length, 'README.md layout: tools');
  assert.is(stated('README.md', /`verbs\/` \(the (\d+) actions/), VERB_NAMES.length, 'README.md layout: actions');
  assert.is(stated('README.md', /all (\d+) assertion types/), ASSERTION_TYPES.length, 'README.md: assertion types');
  assert.is(stated('docs/protocol.md', /\(the (\d+) `mobile_\*` tools/), TOOL_NAMES.length, 'docs/protocol.md: tools.list');
  assert.is(stated('docs/agents.md', /one of the (\d+) scenario assertions/), ASSERTION_TYPES.length, 'docs/agents.md: assert');
  const words = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];
  const m = /(\d+) device primitives \(`mobile_\*` tools\) plus (\w+) extensions/.exec(repoFile('README.md').replace(/\s*\n\s*/g, ' '));
  assert.ok(m, 'README.md counts the device primitives and extensions');
  assert.is(Number(m[1]) + words.indexOf(m[2]), TOOL_NAMES.length, 'README.md: primitives plus extensions');
});

test('docs/agents.md\'s tool table lists every MCP tool, and no other', async () => {
  const after = repoFile('docs/agents.md').split('\n## Tools\n')[1].trimStart().split('\n');
  const table = after.slice(0, after.findIndex((line) => !line.startsWith('|'))).join('\n');
  const documented = new Set([...table.matchAll(/^\| ([^|]+) \|/gm)].flatMap((row) => [...row[1].matchAll(/`(\w+)`/g)].map((n) => n[1])));
  const v = virtualEngine();
  const backend = new LocalBackend(v.engine, { clock: v.verbClock, settleMs: 0 });
  const pair = await connectPair(backend);
  try {
    const offered = (await pair.client.listTools()).tools.map((t) => t.name);
    assert.equal(offered.filter((n) => !documented.has(n)), [], 'tools the table leaves out');
    assert.equal([...documented].filter((n) => !offered.includes(n)), [], 'tools in the table the server does not offer');
  } finally {
    await pair.close();
    await backend.close();
  }
});

test.run();
