/** The generated scenarios the validator benchmarks measure: a shopping flow of N steps, with one chosen flaw. */
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
export type Flaw = 'none' | 'warning' | 'error' | 'v22';

export function scenario(stepCount: number, flaw: Flaw = 'none'): string {
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
