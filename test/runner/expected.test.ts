import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runScenario } from '../../src/engine/runner/index.js';
import type { Assertion } from '../../src/validate/index.js';
import { rig, scenario } from './harness.js';

const GHOST = 'the Purple Unicorn banner';

/** Every assertion type that names an element, pointed at one that is not on screen. */
const ABSENT: Record<string, unknown>[] = [
  { type: 'element_exists' },
  { type: 'element_fully_visible' },
  { type: 'element_state', state_property: 'enabled' },
  { type: 'element_text', expected_value: 'Hello' },
  { type: 'text_contains', expected_substring: 'Hello' },
  { type: 'text_not_empty' },
  { type: 'pattern_match', pattern: '^H' },
  { type: 'element_hint', expected_text: 'Email' },
  { type: 'content_description', label_value: 'Unicorn' },
  { type: 'has_accessibility_label' },
  { type: 'list_item_count', operator: '>=', expected_count: 2 },
  { type: 'value_matches_variable', variable_name: 'item' },
  { type: 'color_style', color_hex: '#FF00FF' },
];

test('a failed assertion whose element is absent still says what it expected', async () => {
  const r = rig();
  try {
    const base = scenario(r, 'clear_data_cross');
    const assertions = ABSENT.map((extra, i) => ({ id: `absent_${i}_${extra.type}`, after_step: 'launch', description: 'absent', element_description: GHOST, ...extra }) as unknown as Assertion);
    const s = { ...base, steps: [base.steps[0]], assertions, variables: { item: { type: 'string' as const, description: 'never captured' } } };
    const { document: d } = await runScenario({ engine: r.engine, device: 'virtual-android-1', scenario: s, scenarioDir: join(r.dir, 'scenarios'), outDir: r.out, clock: r.verbClock, targetWaitMs: 1000, settleMs: 0, screenshots: 'none' });
    assert.is(d.assertion_results.length, ABSENT.length);
    for (const a of d.assertion_results) {
      assert.is(a.status, 'failed', `${a.assertion_id}: ${a.message}`);
      assert.ok(a.expected !== undefined, `${a.assertion_id} has an expected`);
    }
    const text = d.assertion_results.find((a) => a.type === 'element_text')!;
    assert.is(text.expected, 'Hello');
    assert.is(text.actual, null);
  } finally {
    await r.close();
  }
});

test.run();
