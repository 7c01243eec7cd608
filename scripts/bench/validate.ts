/**
 * Validator throughput: scenarios validated per second (text in, report out, positions included)
 * for a typical 30-step scenario and a 300-step one, and for the 30-step one with a single warning
 * (an unused variable) or a single error (a misspelt action), which take the slower paths.
 * Median of several timed runs on one core.
 *
 *   node dist/scripts/bench/validate.js [--runs 7] [--ms 1000]
 */
import { parseFlags } from '../../src/cli/command.js';
import { validateScenarioText } from '../../src/validate/index.js';
import { type Flaw, scenario } from './validate-corpus.js';

/** Validations per wall-clock second and per CPU second (the latter is fairer on a busy machine). */
function rate(text: string, ms: number, valid: boolean): { wall: number; cpu: number } {
  let n = 0;
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  let now = start;
  while (now - start < ms) {
    for (let i = 0; i < 20; i++) {
      if (validateScenarioText(text).valid !== valid) throw new Error(`benchmark scenario should be ${valid ? 'valid' : 'invalid'}`);
    }
    n += 20;
    now = performance.now();
  }
  const cpu = process.cpuUsage(cpuStart);
  return { wall: (n * 1000) / (now - start), cpu: (n * 1e6) / (cpu.user + cpu.system) };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const { flags } = parseFlags(process.argv.slice(2));
const runs = Number(flags.runs ?? 7);
const ms = Number(flags.ms ?? 1000);
const CASES: { steps: number; flaw: Flaw }[] = [
  { steps: 30, flaw: 'none' },
  { steps: 300, flaw: 'none' },
  { steps: 30, flaw: 'warning' },
  { steps: 30, flaw: 'error' },
  { steps: 30, flaw: 'v22' },
];
for (const { steps, flaw } of CASES) {
  const text = scenario(steps, flaw);
  const valid = flaw !== 'error';
  rate(text, 300, valid); // warm-up so the JIT has settled before timing
  const samples = Array.from({ length: runs }, () => rate(text, ms, valid));
  const wall = median(samples.map((x) => x.wall));
  const cpu = median(samples.map((x) => x.cpu));
  const label = `${String(steps).padStart(3)} steps${flaw === 'none' ? '' : flaw === 'v22' ? ', schema 2.2' : `, 1 ${flaw}`}`.padEnd(19);
  console.log(
    `${label} (${(text.length / 1024).toFixed(1)} KiB): median ${wall.toFixed(0)} scenarios/s wall clock, ` +
      `${cpu.toFixed(0)} per CPU second (${runs} runs of ${ms} ms)`,
  );
}
