/**
 * `npm test`'s runner: the uvu suite in a few uvu processes at once, one folder of dist/test per
 * process at a time. Most tests wait on devices, browsers and timers rather than compute (one uvu
 * process keeps a core under a third busy), so on two cores two processes end the suite in about
 * half the time; three ended it in 40 %, but made timing-sensitive tests fail under the load now and
 * then. Files named zz-* (the process-leak check) run last, alone, once every other test has
 * stopped what it started. Prints each process's uvu output a file at a time, then one
 * summary in uvu's words over all of them; exits 1 when any test failed or a process died.
 *
 *   node dist/scripts/run-tests.js [dir (default dist/test)]   MOBILEBRIDGE_TEST_JOBS=n sets the count
 */
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { planShards, type Shard } from './test-shards.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const UVU = join(ROOT, 'node_modules/uvu/bin.js');
const PRELOADS = ['stall-watch.js', 'failure-echo.js'].flatMap((f) => ['--import', join(ROOT, 'dist/test/support', f)]);
const ESCAPES = /\x1b\[[0-9;]*m/g;
/** The line uvu ends a file's results with: its marks, then "(passed / total)". */
const FILE_DONE = /\(\d+ \/ \d+\)\s*$/;

interface Counts {
  total: number;
  passed: number;
  skipped: number;
}

interface Outcome extends Counts {
  label: string;
  code: number | null;
  /** Wall time of the process, for keeping test-shards.ts's table true. */
  seconds: number;
  /** Why the process's counts cannot be trusted, when they cannot. */
  broken?: string;
  /** failure-echo's repeat of the process's failures, when it had any. */
  again?: string;
}

const dir = resolve(process.argv[2] ?? join(ROOT, 'dist/test'));
const jobs = Math.max(1, Number(process.env.MOBILEBRIDGE_TEST_JOBS) || Math.max(2, Math.min(4, availableParallelism())));
const children = new Set<ReturnType<typeof spawn>>();

/** The folders and files at the top of `dir` that hold tests; zz-* apart. */
function testGroups(): { groups: string[]; last: string[] } {
  const groups: string[] = [];
  const last: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    if (name === 'support' || name === 'harness' || name === 'fixtures') continue;
    const isDir = statSync(join(dir, name)).isDirectory();
    if (!isDir && !name.endsWith('.test.js')) continue;
    (name.startsWith('zz-') ? last : groups).push(name);
  }
  return { groups, last };
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** uvu's pattern (matched against paths relative to `dir`) for these folders and files. */
const patternOf = (names: string[]) => `^(${names.map((n) => (n.endsWith('.test.js') ? `${escape(n)}$` : `${escape(n)}[\\\\/].*\\.test\\.js$`)).join('|')})`;

/**
 * Writes a process's output a whole file's results at a time (its name line with its marks line), or
 * for stderr (`byFile` false) a whole line at a time, so that processes running side by side do not
 * cut into each other's lines.
 */
function grouped(write: (text: string) => void, byFile: boolean): { push: (chunk: Buffer) => void; end: () => string } {
  let pending = '';
  let all = '';
  return {
    push(chunk) {
      const text = chunk.toString('utf8');
      all += text;
      pending += text;
      const lines = pending.split('\n');
      let cut = -1;
      lines.forEach((line, i) => {
        if (i < lines.length - 1 && (!byFile || FILE_DONE.test(line.replace(ESCAPES, '')))) cut = i;
      });
      if (cut < 0) return;
      write(`${lines.slice(0, cut + 1).join('\n')}\n`);
      pending = lines.slice(cut + 1).join('\n');
    },
    end() {
      if (pending) write(pending.endsWith('\n') ? pending : `${pending}\n`);
      pending = '';
      return all;
    },
  };
}

function countsOf(output: string): Counts | undefined {
  const plain = output.replace(ESCAPES, '');
  const read = (word: string) => plain.match(new RegExp(`^\\s*${word}:\\s+(\\d+)`, 'm'))?.[1];
  const [total, passed, skipped] = ['Total', 'Passed', 'Skipped'].map(read);
  if (total === undefined || passed === undefined) return undefined;
  return { total: Number(total), passed: Number(passed), skipped: Number(skipped ?? 0) };
}

function runShard(shard: Shard, label: string): Promise<Outcome> {
  const started = performance.now();
  const child = spawn(process.execPath, [...PRELOADS, UVU, dir, patternOf(shard.names)], { cwd: ROOT, env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  const out = grouped((t) => process.stdout.write(t), true);
  const err = grouped((t) => process.stderr.write(t), false);
  child.stdout.on('data', out.push);
  child.stderr.on('data', err.push);
  return new Promise((done) => {
    child.on('close', (code, signal) => {
      children.delete(child);
      err.end();
      const output = out.end();
      const counts = countsOf(output);
      const again = output.replace(ESCAPES, '').split('  Failed, again (')[1]?.replace(/^[^\n]*\n/, '').trim();
      const why = signal ? `was killed (${signal})` : counts ? undefined : `exited with ${code} before printing uvu's summary`;
      done({ label, code, seconds: (performance.now() - started) / 1000, ...(counts ?? { total: 0, passed: 0, skipped: 0 }), ...(why ? { broken: `the uvu process for ${label} ${why}` } : {}), ...(again ? { again } : {}) });
    });
  });
}

function stopAll(signal: NodeJS.Signals): void {
  for (const child of children) child.kill(signal);
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    stopAll(signal);
    process.exit(130);
  });
}

async function main(): Promise<number> {
  const started = performance.now();
  const { groups, last } = testGroups();
  const shards = planShards(groups, jobs);
  const described = shards.map((s) => s.names.join(', '));
  process.stdout.write(`run-tests: ${groups.length} groups in ${shards.length} uvu processes at once: ${described.map((d) => `[${d}]`).join(' ')}${last.length ? `; then ${last.join(', ')}` : ''}\n`);
  const outcomes = await Promise.all(shards.map((s, i) => runShard(s, described[i])));
  if (last.length) outcomes.push(await runShard({ names: last, weight: 0 }, last.join(', ')));
  const sum = (k: keyof Counts) => outcomes.reduce((n, o) => n + o[k], 0);
  const total = sum('total');
  const passed = sum('passed');
  const skipped = sum('skipped');
  const broken = outcomes.flatMap((o) => (o.broken ? [o.broken] : o.code !== 0 && o.passed === o.total ? [`the uvu process for ${o.label} exited with ${o.code}`] : []));
  process.stdout.write(`\n  All ${outcomes.length} uvu processes:\n  Total:     ${total}\n  Passed:    ${passed}\n  Skipped:   ${skipped}\n  Duration:  ${(performance.now() - started).toFixed(2)}ms\n`);
  process.stdout.write(`  Processes: ${outcomes.map((o) => `[${o.label}] ${o.seconds.toFixed(0)} s`).join(', ')}\n`);
  for (const why of broken) process.stdout.write(`  ${why}\n`);
  // Each process repeated its own failures after its own summary, mid-log; the end of the log says them all.
  const again = outcomes.flatMap((o) => (o.again ? [o.again] : []));
  if (again.length) process.stdout.write(`\n  Failed, again (from every uvu process):\n\n${again.join('\n\n')}\n\n`);
  return passed === total && broken.length === 0 && outcomes.every((o) => o.code === 0) ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    stopAll('SIGTERM');
    process.stderr.write(`run-tests: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
