/**
 * Where a valid document's validation time goes, ours next to mobile-automator's: `JSON.parse`
 * (both pay it), our shape check (which also counts the names), the colon count of the
 * duplicate-name check, our semantic rules, and mauto's Ajv on the parsed document. Medians of
 * short batches, in microseconds per document; it asserts nothing.
 *
 *   [MAUTO_DIR=/tmp/mauto/package] node dist/scripts/bench/validate-breakdown.js
 */
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { validateScenarioText } from '../../src/validate/index.js';
import { countColons } from '../../src/validate/fast-parse.js';
import { checkSemantics } from '../../src/validate/semantic.js';
import { scenarioShapeNames } from '../../src/validate/structure.js';
import { loadMauto } from './mauto-side.js';
import { scenario } from './validate-corpus.js';

const VALID = fileURLToPath(new URL('../../../test/fixtures/scenarios/valid/', import.meta.url));
const fixtures = readdirSync(VALID)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => readFileSync(`${VALID}${f}`, 'utf8'));
const CASES: [string, string[]][] = [
  [`${fixtures.length} valid fixtures`, fixtures],
  ['30 steps', [scenario(30)]],
  ['300 steps', [scenario(300)]],
];

let sink = 0;
/** Median microseconds per document of `work` over all documents. */
function time(docs: number, work: () => void): number {
  const calls = Math.max(3, Math.round(20_000 / docs / 30));
  // Every JIT tier settles within a few hundred milliseconds of steady calls.
  for (const end = performance.now() + 400; performance.now() < end; ) work();
  const samples: number[] = [];
  for (let r = 0; r < 15; r++) {
    const start = performance.now();
    for (let k = 0; k < calls; k++) work();
    samples.push(((performance.now() - start) * 1000) / calls / docs);
  }
  return samples.sort((a, b) => a - b)[7];
}

const mauto = loadMauto();
if ('missing' in mauto) console.log(`mauto: ${mauto.missing}; its columns are left out`);
console.log(`load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}; µs per document, medians`);
const cols = ['JSON.parse', 'our shape', 'colons', 'our rules', 'ours total', 'mauto Ajv', 'mauto total'];
console.log(`${''.padEnd(18)}${cols.map((c) => c.padStart(12)).join('')}`);
for (const [label, texts] of CASES) {
  const docs = texts.map((t) => JSON.parse(t) as Record<string, unknown>);
  const n = texts.length;
  const row = [
    time(n, () => texts.forEach((t) => (sink += JSON.parse(t) ? 1 : 0))),
    time(n, () => docs.forEach((d) => (sink += scenarioShapeNames(d)))),
    time(n, () => texts.forEach((t) => (sink += countColons(t)))),
    time(n, () => docs.forEach((d) => (sink += checkSemantics(d).length))),
    time(n, () => texts.forEach((t) => (sink += validateScenarioText(t).errors.length))),
  ];
  if (!('missing' in mauto)) {
    row.push(time(n, () => docs.forEach((d) => (sink += mauto.validateParsed(d) ? 1 : 0))));
    row.push(time(n, () => texts.forEach((t) => (sink += mauto.validate(t)))));
  }
  console.log(`${label.padEnd(18)}${row.map((x) => x.toFixed(x < 100 ? 2 : 0).padStart(12)).join('')}`);
}
if (sink === -1) console.log(sink);
