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

const TEMPLATES: Record<string, unknown>[] = [
  { action: 'tap', target: 'the Search field' },
  { action: 'type', value: 'running shoes ${size}' },
  { action: 'press_button', value: 'ENTER' },
  { action: 'wait_for_element', target: 'the results list', wait_config: { type: 'element_visible', timeout_ms: 10000 } },
  { action: 'swipe', value: 'up', on_failure: 'retry', retry_policy: { max_attempts: 3, backoff_ms: 500 } },
  { action: 'scroll_to_element', target: 'the Load more button', optional: true },
  { action: 'capture_value', target: 'the results counter', capture_to: 'result_count' },
  { action: 'tap', target: 'the first product', condition: { type: 'variable_value', variable_name: 'result_count', operator: '>', value: 0 } },
  { action: 'wait_for_loading_complete', wait_config: { type: 'loading_complete', timeout_ms: 20000, indicator: 'spinner' } },
  { action: 'long_press', target: 'the product image', checkpoint: true },
];

/** `v22`: no flaw, written with schema 2.2 features (parameters, clear_first, waiting and conditional assertions). */
type Flaw = 'none' | 'warning' | 'error' | 'v22';

function scenario(stepCount: number, flaw: Flaw = 'none'): string {
  const steps: Record<string, unknown>[] = [{ id: 'launch', action: 'launch_app', description: 'Open the app' }];
  for (let i = 1; i < stepCount; i++) {
    steps.push({ id: `step_${i}`, description: `Step ${i} of the shopping flow`, ...TEMPLATES[i % TEMPLATES.length] });
  }
  if (flaw === 'error') steps[Math.floor(stepCount / 2)].action = 'tpa';
  if (flaw === 'v22') {
    for (const s of steps) if (s.action === 'type') Object.assign(s, { clear_first: true, value: '${STORE} ${size}' });
  }
  const assertions = [];
  for (let i = 0; i < Math.max(5, stepCount / 4); i++) {
    const after = steps[(i * 3) % steps.length].id;
    assertions.push(
      i % 2
        ? { id: `check_${i}`, after_step: after, type: 'element_text', description: 'Header text', element_description: 'the screen header', expected_value: 'Results for ${size}' }
        : { id: `check_${i}`, after_step: after, type: 'element_count', description: 'Some results', element_description: 'a result row', operator: '>=', expected_count: 1 },
    );
  }
  if (flaw === 'v22') {
    assertions.forEach((a: Record<string, unknown>, i) => {
      a.timeout_ms = 2000;
      if (i % 2) a.condition = { type: 'device_property', property: 'platform', value: 'android' };
    });
  }
  return JSON.stringify(
    {
      $schema_version: flaw === 'v22' ? '2.2' : '2.1',
      ...(flaw === 'v22' ? { parameters: { STORE: { description: 'Store name', default: 'main' } } } : {}),
      scenario_id: `shopping_${stepCount}`,
      name: `Shopping flow (${stepCount} steps)`,
      description: 'Search, browse and open products.',
      platform: 'android',
      app_package: 'com.mobilebridge.demo',
      metadata: { app_version: '2.4.0', environment: 'staging' },
      tags: ['bench', 'shopping'],
      variables: {
        size: { type: 'string', description: 'Shoe size' },
        result_count: { type: 'integer', description: 'Results' },
        ...(flaw === 'warning' ? { unused_note: { type: 'string', description: 'Never referenced' } } : {}),
      },
      steps,
      assertions,
    },
    null,
    2,
  );
}

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
