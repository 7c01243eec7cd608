/**
 * Our validator next to the way mobile-automator (`mauto`) validates a scenario: `JSON.parse`, then
 * Ajv against its JSON Schema (it has no cross-reference checks and reports no source positions).
 *
 * mauto is not available on this machine, so the Ajv side is a stand-in: our own exported JSON
 * Schema (`scenarioJsonSchema()`, draft 2020-12) compiled once with Ajv and `allErrors: true`, as a
 * validator that reports every problem would be. Its schema has the same fields, enums and bounds
 * as mauto's (both come from the seed schema), so Ajv does the same kind of work here as there.
 * Ours does more per document (cross-references, locators, variables, suggestions, line/column),
 * and both sides are measured text in, verdict and issue list out.
 *
 * Cases: the valid fixture corpus (test/fixtures/scenarios/valid, validated one after the other),
 * generated 30- and 300-step scenarios, and invalid documents (one misspelt action in 30 or 300
 * steps, and the invalid fixture corpus). Runs alternate between the two validators so that load
 * drift on a shared machine hits both alike; per case it prints the median microseconds per
 * document (CPU time, and wall clock) of each side and the ratio ours / Ajv (≤ 1: ours no slower).
 *
 *   node dist/scripts/bench/validate-vs-ajv.js [--runs 7] [--ms 500]
 */
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseFlags } from '../../src/cli/command.js';
import { validateScenarioText } from '../../src/validate/index.js';
import { ajvExported, ajvFlat, type Validator } from './ajv-stand-in.js';
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


/** Microseconds per document, CPU and wall clock, over at least `ms` of wall time. */
function timed(validate: Validator, docs: string[], ms: number): { cpu: number; wall: number } {
  let n = 0;
  let sink = 0;
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    for (const text of docs) sink += validate(text);
    n += docs.length;
    now = performance.now();
  }
  const cpu = process.cpuUsage(cpuStart);
  if (sink < 0) console.log(sink);
  return { cpu: (cpu.user + cpu.system) / n, wall: ((now - start) * 1000) / n };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const { flags } = parseFlags(process.argv.slice(2));
const runs = Number(flags.runs ?? 7);
const ms = Number(flags.ms ?? 500);

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

const SIDES: { name: string; validate: Validator }[] = [
  { name: 'ours', validate: ours },
  { name: 'Ajv flat', validate: ajvFlat },
  { name: 'Ajv exported', validate: ajvExported },
];

const col = (x: string | number): string => (typeof x === 'number' ? x.toFixed(x < 100 ? 1 : 0) : x).padStart(14);
console.log(`load average at start: ${loadavg().map((x) => x.toFixed(2)).join(' ')}; ${runs} rotating runs of ${ms} ms per side`);
console.log('median CPU microseconds per document; ratio = ours / Ajv (at most 1: ours no slower); [wall-clock ratios]');
console.log(`${'case'.padEnd(24)}${SIDES.map((x) => col(x.name)).join('')}${col('vs flat')}${col('vs exported')}`);
for (const c of CASES) {
  for (const side of SIDES) timed(side.validate, c.docs, 200); // warm-up: every JIT settles before timing
  const samples = SIDES.map(() => [] as { cpu: number; wall: number }[]);
  for (let r = 0; r < runs; r++) {
    // Rotate which side goes first so none always runs right after a GC-heavy turn of another.
    for (let k = 0; k < SIDES.length; k++) {
      const i = (r + k) % SIDES.length;
      samples[i].push(timed(SIDES[i].validate, c.docs, ms));
    }
  }
  const cpu = samples.map((xs) => median(xs.map((x) => x.cpu)));
  const wall = samples.map((xs) => median(xs.map((x) => x.wall)));
  const ratios = cpu.slice(1).map((x) => col((cpu[0] / x).toFixed(2)));
  const wallRatios = wall.slice(1).map((x) => (wall[0] / x).toFixed(2));
  console.log(`${c.label.padEnd(24)}${cpu.map(col).join('')}${ratios.join('')}   [${wallRatios.join(', ')}]`);
}
console.log(`load average at end: ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
