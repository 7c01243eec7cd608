/**
 * Our validator next to mobile-automator's (`mauto validate`): `JSON.parse`, then Ajv against its
 * JSON Schema (no cross-reference checks, no duplicate-name check, no source positions). The real
 * one is used when MAUTO_DIR points at its unpacked npm package (see mauto-side.ts). Without it the
 * second column is a stand-in: our own exported JSON Schema with the per-type `oneOf`s flattened
 * (the seed's shape, like mauto's schema), compiled once by Ajv with `allErrors: true`. The third
 * column is Ajv over our schema exactly as exported.
 *
 * Cases: the valid fixture corpus (test/fixtures/scenarios/valid, validated one after the other),
 * generated 30- and 300-step scenarios, and invalid documents (one misspelt action in 30 or 300
 * steps, and the invalid fixture corpus). Each document is timed in many short batches of calls
 * (wall clock, about 0.3 ms each) on each side, the sides taking turns so that load drift hits all
 * alike. Per case it prints each side's mean over the case's documents of the median batch, and
 * of the fastest batch, which a busy shared machine disturbs least, with the ratios ours / other
 * (at most 1: ours is no slower). validate-breakdown.js shows where the time goes.
 *
 *   [MAUTO_DIR=/tmp/mauto/package] node dist/scripts/bench/validate-vs-ajv.js [--rounds 15]
 */
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseFlags } from '../../src/cli/command.js';
import { validateScenarioText } from '../../src/validate/index.js';
import { ajvExported, ajvFlat, type Validator } from './ajv-stand-in.js';
import { loadMauto } from './mauto-side.js';
import { scenario } from './validate-corpus.js';

const FIXTURES = fileURLToPath(new URL('../../../test/fixtures/scenarios/', import.meta.url));

function corpus(kind: 'valid' | 'invalid'): string[] {
  return readdirSync(`${FIXTURES}${kind}`)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => readFileSync(`${FIXTURES}${kind}/${f}`, 'utf8'));
}

/** One validation each way; both return the number of problems found so the work cannot be skipped. */
function ours(text: string): number {
  const report = validateScenarioText(text);
  return report.errors.length + report.warnings.length;
}


let sink = 0;

/** Microseconds per call over `calls` calls. */
function batch(validate: Validator, text: string, calls: number): number {
  const start = performance.now();
  for (let k = 0; k < calls; k++) sink += validate(text);
  return ((performance.now() - start) * 1000) / calls;
}

/** Calls per batch so that a batch takes about 0.3 ms: short enough to often run uninterrupted. */
function callsPerBatch(validate: Validator, text: string): number {
  const each = Math.min(batch(validate, text, 1), batch(validate, text, 1), batch(validate, text, 1));
  return Math.max(1, Math.round(300 / Math.max(each, 0.1)));
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

const { flags } = parseFlags(process.argv.slice(2));
const rounds = Number(flags.rounds ?? 15);
const BATCHES_PER_ROUND = 3;

const valid = corpus('valid');
// Without a folder (as through the bridge) the few file-based rules (flow-missing, ...) cannot fire.
const invalid = corpus('invalid').filter((text) => !validateScenarioText(text).valid);
const CASES: { label: string; docs: string[]; valid: boolean }[] = [
  { label: `${valid.length} valid fixtures`, docs: valid, valid: true },
  { label: '30 steps', docs: [scenario(30)], valid: true },
  { label: '300 steps', docs: [scenario(300)], valid: true },
  { label: '30 steps, schema 2.2', docs: [scenario(30, 'v22')], valid: true },
  { label: '30 steps, 1 error', docs: [scenario(30, 'error')], valid: false },
  { label: '300 steps, 1 error', docs: [scenario(300, 'error')], valid: false },
  { label: `${invalid.length} invalid fixtures`, docs: invalid, valid: false },
];

for (const c of CASES) {
  for (const text of c.docs) {
    if (c.valid !== validateScenarioText(text).valid) throw new Error(`${c.label}: a document should be ${c.valid ? 'valid' : 'invalid'}`);
  }
}

const mauto = loadMauto();
const SIDES: { name: string; validate: Validator }[] = [
  { name: 'ours', validate: ours },
  'missing' in mauto ? { name: 'Ajv flat', validate: ajvFlat } : { name: 'mauto', validate: mauto.validate },
  { name: 'Ajv exported', validate: ajvExported },
];
if ('missing' in mauto) console.log(`mauto: ${mauto.missing}; comparing with the flat Ajv stand-in instead`);
else {
  // mauto's schema predates 2.1/2.2 features and x- extensions: say which "valid" documents it rejects.
  for (const c of CASES) {
    const rejected = c.docs.filter((t) => c.valid && !mauto.accepts(t)).length;
    if (rejected) console.log(`mauto rejects ${rejected} of the ${c.docs.length} documents of "${c.label}" (its schema lacks later features)`);
  }
}

const col = (x: string | number, width = 10): string => (typeof x === 'number' ? x.toFixed(x < 100 ? 1 : 0) : x).padStart(width);
const ratio = (a: number, b: number): string => col((a / b).toFixed(2), 8);
console.log(`load average at start: ${loadavg().map((x) => x.toFixed(2)).join(' ')}; ${rounds} rounds of ${BATCHES_PER_ROUND} batches per document and side`);
console.log('wall-clock microseconds per document: median batch | fastest batch; ratio = ours / the other side');
console.log(
  `${'case'.padEnd(22)}${SIDES.map((x) => col(x.name, 13)).join('')}${col('/' + SIDES[1].name.slice(0, 5), 8)}${col('/exp.', 8)}  |${SIDES.map((x) => col(x.name, 13)).join('')}${col('/' + SIDES[1].name.slice(0, 5), 8)}${col('/exp.', 8)}`,
);
for (const c of CASES) {
  // Warm-up, and batch sizes: every JIT settles before timing.
  for (const side of SIDES) for (let k = 0; k < 20; k++) for (const text of c.docs) side.validate(text);
  const calls = SIDES.map((side) => c.docs.map((text) => callsPerBatch(side.validate, text)));
  const samples = SIDES.map(() => c.docs.map(() => [] as number[]));
  for (let r = 0; r < rounds; r++) {
    // Rotate which side goes first so none always runs right after a GC-heavy turn of another.
    for (let k = 0; k < SIDES.length; k++) {
      const i = (r + k) % SIDES.length;
      c.docs.forEach((text, d) => {
        for (let b = 0; b < BATCHES_PER_ROUND; b++) samples[i][d].push(batch(SIDES[i].validate, text, calls[i][d]));
      });
    }
  }
  const med = samples.map((perDoc) => mean(perDoc.map(median)));
  const best = samples.map((perDoc) => mean(perDoc.map((xs) => Math.min(...xs))));
  console.log(
    `${c.label.padEnd(22)}${med.map((x) => col(x, 13)).join('')}${ratio(med[0], med[1])}${ratio(med[0], med[2])}  |` +
      `${best.map((x) => col(x, 13)).join('')}${ratio(best[0], best[1])}${ratio(best[0], best[2])}`,
  );
}
if (sink < 0) console.log(sink);
console.log(`load average at end: ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
