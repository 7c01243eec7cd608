import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { containmentTree, type TreeNode } from '../../web/src/element-tree.js';
import { copyables, verdict } from '../../web/src/inspector-copy.js';
import type { UiElement } from '../../src/engine/types.js';

const box = (id: string, x: number, y: number, width: number, height: number) => ({ id, x, y, width, height });

function shape(nodes: TreeNode<{ id: string }>[]): unknown[] {
  return nodes.map((n) => (n.children.length ? { [n.element.id]: shape(n.children) } : n.element.id));
}

test('containment tree: each element under the smallest one that wholly contains it, in list order', () => {
  const elements = [
    box('title', 0, 0, 100, 10),
    box('form', 0, 20, 100, 100),
    box('row', 0, 30, 100, 20),
    box('label', 5, 32, 40, 10),
    box('button', 60, 32, 30, 10),
    box('field', 0, 60, 100, 20),
    box('straddles', 50, 110, 20, 20),
  ];
  assert.equal(shape(containmentTree(elements)), ['title', { form: [{ row: ['label', 'button'] }, 'field'] }, 'straddles']);
});

test('containment tree: equal bounds nest the later one under the earlier, never a cycle', () => {
  const tree = containmentTree([box('icon', 0, 0, 50, 50), box('same', 0, 0, 50, 50), box('inner', 10, 10, 5, 5)]);
  assert.equal(shape(tree), [{ icon: [{ same: ['inner'] }] }]);
  assert.equal(containmentTree([]), []);
});

test('copyables: the target with its pattern, the steps, and always the attributes', () => {
  const e = { id: 'ok2', type: 'button', text: 'OK' } as UiElement;
  const none = copyables(e, undefined);
  assert.equal(none.map((c) => c.label), ['Copy attributes']);
  const d = {
    device: 'd', element: 'ok2', target: 'the OK button', unique: false, matches: [], message: '',
    alternative: { target: 'the button', target_pattern: '^OK$' },
    step_examples: { tap: { id: 'tap_button', action: 'tap', description: 'Tap', target: 'the button', target_pattern: '^OK$' }, assert: { id: 'a', type: 'element_visible' } },
  };
  const all = copyables(e, d);
  assert.equal(all.map((c) => c.label), ['Copy target', 'Copy tap step', 'Copy assertion', 'Copy attributes']);
  assert.is(all[0].text, '"target": "the button", "target_pattern": "^OK$"');
  assert.equal(JSON.parse(all[1].text), d.step_examples.tap);
});

test('verdict: a target that fits nothing is not said to lead to another element', () => {
  const d = { device: 'd', element: 'title', target: 'the “Shop” Would Like … text', unique: false, matches: [], message: '' };
  const summary = (id: string) => ({ id, type: 'button', text: 'OK', label: null });
  assert.is(verdict(d), 'fits nothing here');
  assert.is(verdict({ ...d, matches: [summary('a'), summary('b')] }), 'not unique: 2 fit');
  assert.is(verdict({ ...d, matches: [summary('other')] }), 'leads to another element');
  assert.is(verdict({ ...d, unique: true }), 'unique on this screen');
  assert.is(verdict({ ...d, target: null }), 'no text to name it by');
});

test.run();
