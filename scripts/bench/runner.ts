/**
 * Runner benchmark on the virtual device, in process: steps per second of a scenario replay,
 * the runner's own time per step beyond the engine tools it calls (target < 5 ms), and the
 * resolver's time on a 300-element screen (target < 2 ms median), what a failing assertion costs
 * on a still screen (the settle ends after one poll instead of the whole window), and the size of
 * report.html per run. Prints figures; asserts nothing.
 * Run: node dist/scripts/bench/runner.js   (BENCH_STEPS, BENCH_N, BENCH_RUNS to change sizes)
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine } from '../../src/engine/create.js';
import { DeterministicResolver } from '../../src/engine/resolve/index.js';
import { htmlReport, runScenario, type ReportedRun } from '../../src/engine/runner/index.js';
import type { ElementType, UiElement } from '../../src/engine/types.js';
import type { Scenario, Step } from '../../src/validate/index.js';
import { ms, row, sample, summarize } from './stats.js';

const STEPS = Number(process.env.BENCH_STEPS ?? 200);
const N = Number(process.env.BENCH_N ?? 500);
const RUNS = Number(process.env.BENCH_RUNS ?? 24);

const step = (id: string, action: string, extra: Record<string, unknown>) => ({ id, action, description: id, optional: false, on_failure: 'fail', checkpoint: false, ...extra }) as Scenario['steps'][number];

function scenario(steps: number): Scenario {
  const body: Step[] = [];
  for (let i = 0; i < steps; i++) {
    // Taps that change nothing but still resolve a target, plus deep links that move between screens.
    body.push(
      i % 4 === 3
        ? { id: `s${i}`, action: 'open_url', description: 'home', value: 'mbdemo://screen/home', optional: false, on_failure: 'fail', checkpoint: false }
        : { id: `s${i}`, action: 'tap', description: 'row', target: `Item ${1 + (i % 5)}`, optional: false, on_failure: 'fail', checkpoint: false },
    );
    if (body[body.length - 1].action === 'tap') body.push({ id: `b${i}`, action: 'press_button', description: 'back', value: 'BACK', optional: false, on_failure: 'fail', checkpoint: false });
  }
  return {
    $schema_version: '2.0', scenario_id: 'bench', name: 'bench', description: 'bench', platform: 'android', app_package: 'com.mobilebridge.demo',
    metadata: { app_version: '1', environment: 'bench' }, steps: [{ id: 'home', action: 'open_url', description: 'home', value: 'mbdemo://screen/home', optional: false, on_failure: 'fail', checkpoint: false }, ...body], assertions: [],
  };
}

async function replay(): Promise<void> {
  const engine = createEngine({ virtual: { devices: ['android'] } });
  const out = mkdtempSync(join(tmpdir(), 'mb-bench-runner-'));
  let toolMs = 0;
  engine.onCall((e) => {
    toolMs += e.durationMs;
  });
  try {
    const s = scenario(STEPS);
    // Warm-up run: renders, JIT, the resolution cache file.
    await runScenario({ engine, device: 'virtual-android-1', scenario: s, scenarioDir: out, outDir: out, screenshots: 'none', targetWaitMs: 0 });
    for (const cache of [true, false]) {
      toolMs = 0;
      const t = performance.now();
      const { document } = await runScenario({ engine, device: 'virtual-android-1', scenario: s, scenarioDir: out, outDir: out, screenshots: 'none', targetWaitMs: 0, cache });
      const total = performance.now() - t;
      const steps = document.steps_executed.length;
      if (document.status !== 'passed') throw new Error(`bench scenario did not pass: ${document.summary}`);
      console.log(`replay ${steps} steps (resolution cache ${cache ? 'on' : 'off'}): ${(steps / (total / 1000)).toFixed(0)} steps/s, ${ms(total / steps)} per step, of which tools ${ms(toolMs / steps)}, runner ${ms((total - toolMs) / steps)} (incl. an fsync'd result write per step)`);
    }
  } finally {
    await engine.close();
    rmSync(out, { recursive: true, force: true });
  }
}

function screen(n: number): UiElement[] {
  const types: ElementType[] = ['button', 'text', 'edittext', 'listitem', 'image', 'switch', 'tab', 'link'];
  const words = ['Save', 'Delete', 'Item', 'Settings', 'Profile', 'Account', 'Share', 'Open', 'Close', 'Next', 'Email', 'Password'];
  return Array.from({ length: n }, (_, i) => {
    const x = (i % 4) * 270;
    const y = Math.floor(i / 4) * 32;
    const text = `${words[i % words.length]} ${words[(i * 7) % words.length].toLowerCase()} ${i}`;
    return { id: `e${i}`, text, type: types[i % types.length], accessibility_label: i % 3 ? null : `${text} label`, x, y, width: 260, height: 30, visible: true, enabled: i % 11 !== 0, center: { x: x + 130, y: y + 15 } };
  });
}

async function resolverTime(): Promise<void> {
  const elements = screen(300);
  const resolver = new DeterministicResolver();
  const descriptions = ['the Save button', 'Delete share 137', 'the second Email field', 'the switch below Profile open 42', 'the last tab', '"Next close 250"', 'Account settings', 'the Missing thing'];
  const s = await sample(N, async (i) => resolver.resolve({ description: descriptions[i % descriptions.length] }, elements));
  console.log(row('resolve, 300 elements, listing seen before', s));
  // A fresh listing each time: every element's strings are normalised again.
  const fresh = Array.from({ length: N + 20 }, () => elements.map((e) => ({ ...e })));
  const c = await sample(N, async (i) => resolver.resolve({ description: descriptions[i % descriptions.length] }, fresh[i]));
  console.log(row('resolve, 300 elements, fresh listing', c));
}

/** Failing assertions on a still screen, real clock, default settle (1000 ms) and poll (250 ms). */
async function failingAssertions(): Promise<void> {
  const engine = createEngine({ virtual: { devices: ['android'] } });
  const out = mkdtempSync(join(tmpdir(), 'mb-bench-assert-'));
  const settleMs = 1000;
  try {
    const count = 12;
    const s: Scenario = {
      $schema_version: '2.0', scenario_id: 'bench_fail', name: 'bench', description: 'bench', platform: 'android', app_package: 'com.mobilebridge.demo',
      metadata: { app_version: '1', environment: 'bench' },
      steps: [step('home', 'open_url', { value: 'mbdemo://screen/home' })],
      assertions: Array.from({ length: count }, (_, i) => ({ id: `a${i}`, after_step: 'home', type: 'element_exists', description: 'absent', element_description: `the Purple Unicorn ${i} banner` }) as Scenario['assertions'][number]),
    };
    const gaps: number[] = [];
    let last = 0;
    await runScenario({
      engine, device: 'virtual-android-1', scenario: s, scenarioDir: out, outDir: out, screenshots: 'none', settleMs,
      onProgress: (e) => {
        if (e.type === 'step') last = performance.now();
        if (e.type === 'assertion') {
          gaps.push(performance.now() - last);
          last = performance.now();
        }
      },
    });
    const m = summarize(gaps);
    console.log(`failing assertion on a still screen (settle window ${settleMs} ms, poll 250 ms): median ${ms(m.median)}, p95 ${ms(m.p95)} (n=${m.n}); ${(settleMs / m.median).toFixed(1)}× less than a fixed settle`);
  } finally {
    await engine.close();
    rmSync(out, { recursive: true, force: true });
  }
}

/** report.html for RUNS runs of a scenario with a screenshot per step. */
async function reportSize(): Promise<void> {
  const engine = createEngine({ virtual: { devices: ['android'] } });
  const out = mkdtempSync(join(tmpdir(), 'mb-bench-report-'));
  try {
    const s: Scenario = {
      $schema_version: '2.0', scenario_id: 'bench_report', name: 'Report size', description: 'bench', platform: 'android', app_package: 'com.mobilebridge.demo',
      metadata: { app_version: '1', environment: 'bench' },
      steps: [step('home', 'open_url', { value: 'mbdemo://screen/home' }), step('item', 'tap', { target: 'Item 2' }), step('back', 'press_button', { value: 'BACK' }), step('more', 'open_url', { value: 'mbdemo://screen/more' }), step('signin', 'open_url', { value: 'mbdemo://screen/signin' })],
      assertions: [{ id: 'email', after_step: 'signin', type: 'element_exists', description: 'email', element_description: 'the Email field' } as Scenario['assertions'][number]],
    };
    const runs: ReportedRun[] = [];
    for (let i = 0; i < RUNS; i++) {
      const { document } = await runScenario({ engine, device: 'virtual-android-1', scenario: s, scenarioDir: out, outDir: out, screenshots: 'steps' });
      runs.push({ document, name: 'bench/report.json', folder: 'bench', scenario: s });
    }
    const html = await htmlReport(out, runs);
    const shots = runs.flatMap((r) => r.document.steps_executed.map((x) => x.screenshot).filter((x): x is string => Boolean(x)));
    const pngBytes = shots.reduce((n, rel) => n + readFileSync(join(out, rel)).length, 0);
    const bytes = Buffer.byteLength(html);
    console.log(`report.html, ${RUNS} runs × ${shots.length / RUNS} screenshots: ${(bytes / 1e6).toFixed(2)} MB (${(bytes / RUNS / 1024).toFixed(1)} KB per run); inlining the PNGs would take ${((pngBytes * 4) / 3 / 1e6).toFixed(2)} MB (${((pngBytes * 4) / 3 / bytes).toFixed(1)}×)`);
  } finally {
    await engine.close();
    rmSync(out, { recursive: true, force: true });
  }
}

await replay();
await resolverTime();
await failingAssertions();
await reportSize();
