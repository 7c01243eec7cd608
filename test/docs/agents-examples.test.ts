import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { LocalBackend } from '../../src/mcp/backend.js';
import { ANDROID, connectPair, textOf, virtualEngine, type Pair } from '../mcp/helpers.js';
import { fencedBlockAfter, repoFile } from './doc-text.js';

// What docs/agents.md shows an MCP client author, checked against the server on a virtual phone.

const agents = suite<{ pair: Pair; backend: LocalBackend; dir: string }>('docs/agents.md: examples and documented results');

agents.before.each(async (ctx) => {
  const v = virtualEngine();
  ctx.backend = new LocalBackend(v.engine, { clock: v.verbClock, targetWaitMs: 1000, settleMs: 0 });
  ctx.pair = await connectPair(ctx.backend);
  ctx.dir = mkdtempSync(join(tmpdir(), 'mb-doc-agents-'));
});
agents.after.each(async (ctx) => {
  await ctx.pair.close();
  await ctx.backend.close();
  rmSync(ctx.dir, { recursive: true, force: true });
});

function answer(r: Awaited<ReturnType<Pair['call']>>): Record<string, unknown> {
  assert.not.ok(r.isError, textOf(r));
  return JSON.parse(textOf(r)) as Record<string, unknown>;
}

agents('the compact listing shown is what list_elements {limit: 4, offset: 2} answers on the sign-in screen', async ({ pair }) => {
  const shown = JSON.parse(fencedBlockAfter(repoFile('docs/agents.md'), '### Element listings: compact, paged')) as Record<string, unknown>;
  answer(await pair.call('open_url', { device: ANDROID, url: 'mbdemo://screen/signin' }));
  const page = answer(await pair.call('list_elements', { device: ANDROID, limit: 4, offset: 2 }));
  assert.type(page.screen, 'string');
  // The fingerprint changes with anything on the screen (its clock too), so the doc's is only an example.
  assert.equal({ ...page, screen: shown.screen }, shown);
});

agents('recording_stop answers the fields the doc lists, with and without save_to', async ({ pair, dir }) => {
  const doc = repoFile('docs/agents.md');
  const m = /`recording_stop \{device, save_to\?, overwrite\?\}` returns `\{([^}`]*)\}`/.exec(doc);
  assert.ok(m, 'docs/agents.md says what recording_stop returns');
  const fields = m[1].split(',').map((f) => f.trim());
  const always = fields.filter((f) => !f.endsWith('?'));
  const all = fields.map((f) => f.replace(/\?$/, ''));
  for (const saveTo of [join(dir, 'sign_in.json'), undefined]) {
    answer(await pair.call('recording_start', { device: ANDROID, name: 'sign in' }));
    answer(await pair.call('open_url', { device: ANDROID, url: 'mbdemo://screen/signin' }));
    answer(await pair.call('type_text', { device: ANDROID, target: 'the Password field', text: 'secret123' }));
    const stopped = answer(await pair.call('recording_stop', { device: ANDROID, ...(saveTo ? { save_to: saveTo } : {}) }));
    assert.equal(Object.keys(stopped).sort(), [...(saveTo ? all : always)].sort(), `recording_stop${saveTo ? ' with save_to' : ''}`);
    if (saveTo) assert.is(stopped.replay, `mobilebridge run ${saveTo} --device ${ANDROID} --param PASSWORD=…`);
  }
});

agents.run();
