import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CONFIDENCE_THRESHOLD, DeterministicResolver } from '../../src/engine/resolve/index.js';
import type { UiElement } from '../../src/engine/types.js';

interface FixtureElement extends Partial<UiElement> {
  id: string;
  label?: string | null;
}
interface Case {
  description?: string;
  pattern?: string;
  intent?: 'interact' | 'read';
  expect: string | null;
  reason?: string;
}
interface Fixture {
  screen: { width: number; height: number };
  elements: FixtureElement[];
  cases: Case[];
}

// The fixtures live next to the sources, not in dist/.
const dir = fileURLToPath(new URL('../../../test/fixtures/resolve/', import.meta.url));

function element(f: FixtureElement): UiElement {
  const { label, ...rest } = f;
  const e = { text: '', type: 'other', x: 0, y: 0, width: 1, height: 1, visible: true, enabled: true, ...rest, accessibility_label: label ?? null } as UiElement;
  e.center = { x: Math.round(e.x + e.width / 2), y: Math.round(e.y + e.height / 2) };
  return e;
}

const resolver = new DeterministicResolver();
let total = 0;
for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
  const fixture = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Fixture;
  const elements = fixture.elements.map(element);
  for (const c of fixture.cases) {
    total++;
    const name = `${file}: ${c.description ?? ''}${c.pattern ? ` /${c.pattern}/` : ''} → ${c.expect ?? c.reason}`;
    test(name, () => {
      const r = resolver.resolve({ description: c.description, pattern: c.pattern, intent: c.intent, screen: fixture.screen }, elements);
      if (c.expect === null) {
        assert.is(r.ok, false, `expected no match, got ${r.ok ? r.element.id : ''}`);
        if (!r.ok) {
          assert.is(r.reason, c.reason);
          assert.ok(r.message.length > 20);
        }
      } else {
        assert.ok(r.ok, r.ok ? '' : r.message);
        if (r.ok) assert.is(r.element.id, c.expect);
      }
    });
  }
}

test('the table has at least 60 cases, with ambiguous and absent ones', () => {
  assert.ok(total >= 60, `only ${total} cases`);
});

test('a failure lists the best candidates so an agent can retry', () => {
  const fixture = JSON.parse(readFileSync(join(dir, 'list.json'), 'utf8')) as Fixture;
  const r = resolver.resolve({ description: 'Delete' }, fixture.elements.map(element));
  assert.is(r.ok, false);
  if (!r.ok) {
    assert.ok(r.candidates.length >= 3);
    assert.ok(r.candidates.slice(0, 3).every((c) => c.text === 'Delete'));
    assert.match(r.message, /ambiguous/);
    assert.match(r.message, /ordinal/);
  }
});

test('a description that is one word of a sentence fails naming the sentence and its score', () => {
  const fixture = JSON.parse(readFileSync(join(dir, 'sentences.json'), 'utf8')) as Fixture;
  const r = resolver.resolve({ description: 'Items', intent: 'read', screen: fixture.screen }, fixture.elements.map(element));
  assert.is(r.ok, false);
  if (!r.ok) {
    assert.is(r.candidates[0]?.id, 'prompt');
    assert.ok(r.candidates[0].score > 0 && r.candidates[0].score < CONFIDENCE_THRESHOLD, String(r.candidates[0].score));
    assert.match(r.message, /best "Sign in to see your items\." \(text, id prompt, score 0\.\d+\)/);
  }
});

test('a word inside a longer text stays below the threshold however the text grows, even on a button to tap', () => {
  // Controls may carry one word in three ("All orders (3)"), other texts one in two ("My items").
  const filler = ['when', 'you', 'are', 'done', 'please', 'review', 'form', 'first', 'then', 'leave'];
  for (const [type, fewest] of [['button', 3], ['text', 2]] as const) {
    for (let others = fewest; others <= filler.length; others++) {
      const text = ['Submit', ...filler.slice(0, others)].join(' ');
      const holder = element({ id: 'holder', type, text, clickable: type === 'button' });
      for (const intent of ['interact', 'read'] as const) {
        const r = resolver.resolve({ description: 'Submit', intent }, [holder]);
        assert.is(r.ok, false, `${intent} "Submit" matched the ${type} ${JSON.stringify(text)}`);
        if (!r.ok) assert.is(r.candidates[0]?.id, 'holder');
      }
    }
  }
});

test('findAll returns every match in reading order', () => {
  const fixture = JSON.parse(readFileSync(join(dir, 'list.json'), 'utf8')) as Fixture;
  const found = resolver.findAll({ description: 'the Delete button', intent: 'read' }, fixture.elements.map(element));
  assert.equal(found.map((e) => e.id), ['del1', 'del2', 'del3']);
});

test.run();
