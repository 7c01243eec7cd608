import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runScenario } from '../../src/engine/runner/index.js';
import { SecretMask } from '../../src/engine/runner/parameters.js';
import type { ProgressEvent } from '../../src/engine/runner/types.js';
import { loadScenario } from '../../src/validate/index.js';
import { rig, type Rig } from './harness.js';
import { runOutputs } from './secret-outputs.js';

/**
 * A secret used in a URL shows as the browser serialises that URL (WHATWG URL: `new URL(raw).href`,
 * as Chrome's and Safari's address bars and the virtual browser do), each component percent-encoded
 * with its own set: userinfo encodes `@ : / ; =` but not `& + $ , '`, a query `'` but not `& @`.
 * Every one of those forms is masked, not only encodeURIComponent's.
 */

const ANDROID = 'virtual-android-1';
const SECRET = "P@ss&word'99";

const t = suite<{ r: Rig }>('a secret in a URL is masked as each part of the URL serialises it');
t.before.each((ctx) => {
  ctx.r = rig();
});
t.after.each(async (ctx) => {
  await ctx.r.close();
});

t('userinfo, path, query and fragment as a browser serialises them, and a form field', () => {
  for (const secret of [SECRET, 'S3cure@Pass:99', 'Tok"en<42> Xyz', "a$b,c;d=e+f!g(h)~i'j`k{l}m#n?o", 'pässwörd/ümlaut 1']) {
    const mask = new SecretMask();
    mask.add(secret);
    const href = new URL(`https://qa:${encodeURIComponent(secret)}@example.com/`);
    href.password = secret;
    href.username = secret;
    href.pathname = `/reset/${secret}`;
    href.search = `?token=${secret}`;
    href.hash = `#${secret}`;
    const shown = mask.text(`the address bar reads ${href.href}`);
    assert.is(shown, 'the address bar reads https://•••:•••@example.com/reset/•••?token=•••#•••', `${secret}: ${href.href}`);
    const form = new URLSearchParams({ password: secret }).toString();
    assert.is(mask.text(`posted ${form}`), 'posted password=•••', secret);
    // A non-special scheme (a deep link) leaves ' alone in the query.
    const deep = new URL('mbdemo://reset/');
    deep.search = `?token=${secret}`;
    assert.is(mask.text(deep.href), 'mbdemo://reset/?token=•••', `${secret}: ${deep.href}`);
  }
});

t('a path that drops "." or ".." segments is no form of the secret: nothing shorter gets masked', () => {
  const mask = new SecretMask();
  mask.add('a/../bcdefgh');
  assert.is(mask.text('bcdefgh is a word of ours'), 'bcdefgh is a word of ours');
});

t('a run that opens a URL with the secret in its userinfo, path and query never shows it in the result, progress, junit.xml or report.html', async ({ r }) => {
  const scenario = loadScenario(
    JSON.stringify({
      $schema_version: '2.2', scenario_id: 'secret_url', name: 'n', description: 'd', platform: 'android', app_package: 'com.android.chrome',
      metadata: { app_version: '1', environment: 't' },
      parameters: { SECRET: { secret: true } },
      variables: { BAR: { type: 'string', description: 'the address bar' } },
      steps: [
        { id: 'url', action: 'open_url', description: 'URL with the secret', value: 'https://qa:${SECRET}@example.com/reset/${SECRET}?token=${SECRET}' },
        { id: 'cap', action: 'capture_value', description: 'address bar', target: 'Search or type web address', capture_to: 'BAR' },
      ],
      assertions: [{ id: 'a_bar', after_step: 'cap', type: 'text_contains', description: 'quotes the bar', expected_substring: 'nothing like this' }],
    }),
  ).scenario!;
  const events: ProgressEvent[] = [];
  const { document: d, resultFile } = await runScenario({
    engine: r.engine, device: ANDROID, scenario, scenarioDir: r.dir, outDir: r.out, clock: r.verbClock, targetWaitMs: 0, settleMs: 0, screenshots: 'none',
    parameters: { given: { SECRET } }, onProgress: (e) => events.push(JSON.parse(JSON.stringify(e)) as ProgressEvent),
  });
  const bar = (d.captured_variables as Record<string, string> | undefined)?.BAR ?? '';
  assert.ok(bar.startsWith('https://qa:•••@example.com/'), `the address bar was read, its URL masked: ${bar} (${d.summary})`);
  const outputs = await runOutputs({ document: d, resultFile, events, name: 'secret_url.json', outDir: r.out });
  const href = new URL('https://qa@example.com/');
  href.password = SECRET;
  const query = new URL('https://example.com/');
  query.search = `?t=${SECRET}`;
  for (const [where, texts] of Object.entries(outputs)) {
    for (const shown of [SECRET, href.password, query.search.slice(3), encodeURIComponent(SECRET)]) {
      assert.not.ok(texts.some((text) => text.includes(shown)), `${shown} leaked into ${where}: ${texts.filter((x) => x.includes(shown)).join(' | ')}`);
    }
  }
});

t.run();
