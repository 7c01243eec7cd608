/**
 * The validator as people run it: `mobilebridge validate <file>` next to `mauto validate <file>`
 * (mobile-automator's CLI, from MAUTO_DIR; see mauto-side.ts for how to get it), each a fresh Node
 * process, calls alternating. Prints the median wall time per call and the ratio. The in-process
 * comparison (validate-vs-ajv.js) leaves out what a command costs besides validating: starting,
 * loading its modules, reading the file, printing. Asserts nothing.
 *
 *   MAUTO_DIR=/tmp/mauto/package node dist/scripts/bench/validate-cli.js   (BENCH_N calls each, default 15)
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { summarize } from './stats.js';
import { scenario } from './validate-corpus.js';

const N = Number(process.env.BENCH_N ?? 15);
const OURS = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../../../test/fixtures/scenarios/', import.meta.url));
const mautoDir = process.env.MAUTO_DIR;
const MAUTO = mautoDir ? join(mautoDir, 'bin/mauto.js') : undefined;

function timed(args: string[]): number {
  const start = performance.now();
  const r = spawnSync(process.execPath, args, { encoding: 'utf8' });
  const ms = performance.now() - start;
  if (r.error) throw r.error;
  return ms;
}

const dir = mkdtempSync(join(tmpdir(), 'mb-bench-validate-cli-'));
try {
  const big = join(dir, 'shopping_300.json');
  writeFileSync(big, scenario(300));
  const cases: [string, string][] = [
    ['valid fixture (login.json)', join(FIXTURES, 'valid/login.json')],
    ['300 steps', big],
    ['invalid fixture (enum value)', join(FIXTURES, 'invalid', 'enum-value.app-state.json')],
  ];
  if (MAUTO && !existsSync(MAUTO)) throw new Error(`${MAUTO} does not exist: MAUTO_DIR must be the unpacked npm package folder`);
  if (!MAUTO) console.log('MAUTO_DIR is not set: only mobilebridge is timed (see scripts/bench/mauto-side.ts for how to get mobile-automator)\n');
  console.log(`load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}; ${N} calls each, alternating; median wall ms per call (p95)`);
  for (const [label, file] of cases) {
    if (!existsSync(file)) {
      console.log(`${label}: ${file} is missing, skipped`);
      continue;
    }
    const ours: number[] = [];
    const theirs: number[] = [];
    for (let i = 0; i < N; i++) {
      ours.push(timed([OURS, 'validate', file]));
      if (MAUTO) theirs.push(timed([MAUTO, 'validate', file]));
    }
    const a = summarize(ours);
    const line = [`${label.padEnd(28)} mobilebridge ${a.median.toFixed(0)} (${a.p95.toFixed(0)})`];
    if (theirs.length) {
      const b = summarize(theirs);
      line.push(`mauto ${b.median.toFixed(0)} (${b.p95.toFixed(0)})`, `mauto / ours ${(b.median / a.median).toFixed(2)}×`);
    }
    console.log(line.join('   '));
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
