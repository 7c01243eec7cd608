import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DeterministicResolver, ResolutionCache, type ResolveRequest } from '../../src/engine/resolve/index.js';
import type { UiElement } from '../../src/engine/types.js';
import { elementsFromTree, type UiNode } from '../../src/engine/ui-tree.js';

/**
 * The resolution cache, kept across runs, replays a remembered element only where resolving
 * afresh would choose it too: never for an ordinal, position or relation, never for an id that is
 * a place in the tree, and not when another element on screen shows its text.
 */

const screen = { width: 1080, height: 2400 };
const resolver = new DeterministicResolver();

function el(id: string, type: string, y: number, extra: Partial<UiElement> = {}): UiElement {
  const e = { id, type, text: '', accessibility_label: null, x: 60, y, width: 900, height: 120, visible: true, enabled: true, ...extra } as UiElement;
  e.center = { x: Math.round(e.x + e.width / 2), y: Math.round(e.y + e.height / 2) };
  return e;
}

/** Two runs of one step through one cache (as `<out>/cache` carries it over). */
async function twoRuns(description: string, first: UiElement[], second: UiElement[]) {
  const cache = new ResolutionCache();
  const request: ResolveRequest = { description, intent: 'interact', screen };
  const one = await cache.resolve(resolver, 'scn/step', request, first);
  const two = await cache.resolve(resolver, 'scn/step', request, second);
  return { one, two, fresh: resolver.resolve(request, second), cache };
}

const node = (type: string, bounds: UiNode['bounds'], extra: Partial<UiNode> = {}): UiNode => ({ type, text: '', label: null, bounds, enabled: true, children: [], ...extra }) as UiNode;

/** A list whose rows share resource ids, so the listing names them by place: n0.0.<row>.<k>. */
function rows(first: number, n: number): UiElement[] {
  const items: UiNode[] = [];
  for (let k = 0; k < n; k++) {
    const y = 300 + k * 200;
    items.push(
      node('listitem', { x: 0, y, width: 1080, height: 200 }, {
        clickable: true,
        resourceId: 'app:id/row',
        children: [
          node('text', { x: 40, y: y + 60, width: 600, height: 80 }, { text: `Item ${first + k}`, resourceId: 'app:id/title' }),
          node('button', { x: 800, y: y + 60, width: 200, height: 80 }, { text: 'Delete', clickable: true, resourceId: 'app:id/delete' }),
        ],
      }),
    );
  }
  const root = node('other', { x: 0, y: 0, width: 1080, height: 2400 }, { children: [node('list', { x: 0, y: 300, width: 1080, height: 2000 }, { scrollable: true, resourceId: 'app:id/items', children: items })] });
  return elementsFromTree(root, screen);
}

const rowOf = (elements: UiElement[], e: UiElement | undefined) => elements.find((t) => t.type === 'text' && e && Math.abs(t.center.y - e.center.y) < 50)?.text;

test('"the Delete button right of Item 5" after the list moved by a row: Item 5\'s row, not the row at the remembered place', async () => {
  const first = rows(3, 5);
  const second = rows(4, 5);
  const { one, two } = await twoRuns('the Delete button right of Item 5', first, second);
  assert.ok(one.ok && two.ok);
  if (one.ok) assert.is(rowOf(first, one.element), 'Item 5');
  if (two.ok) assert.is(rowOf(second, two.element), 'Item 5');
});

test('"the last Delete button" on a longer list: the last row now', async () => {
  const second = rows(1, 7);
  const { two } = await twoRuns('the last Delete button', rows(1, 5), second);
  assert.ok(two.ok);
  if (two.ok) assert.is(rowOf(second, two.element), 'Item 7');
});

test('an ordinal is resolved afresh even when the remembered element is still there unchanged', async () => {
  const email = el('email', 'edittext', 500, { hint: 'Email' });
  const password = el('password', 'edittext', 700, { hint: 'Password' });
  const name = el('name', 'edittext', 300, { hint: 'Name' });
  const { one, two, cache } = await twoRuns('the first field', [email, password], [name, email, password]);
  assert.ok(one.ok && two.ok);
  if (two.ok) assert.is(two.element.id, 'name');
  assert.is(cache.size, 0, 'such a description is not remembered');
});

test('a positional id is not replayed: "the switch" is ambiguous once a second switch appears', async () => {
  const a = el('n0.0.1', 'switch', 400, { clickable: true });
  const b = el('n0.0.2', 'switch', 700, { clickable: true });
  const { one, two, fresh } = await twoRuns('the switch', [a], [a, b]);
  assert.ok(one.ok);
  assert.not.ok(two.ok);
  if (!two.ok) assert.is(two.reason, 'ambiguous');
  assert.is(two.ok, fresh.ok);
});

test('a description unique when cached is checked for ambiguity again when its text is no longer unique', async () => {
  const del = el('delete', 'button', 400, { text: 'Delete', clickable: true });
  const other = el('delete_all', 'button', 700, { text: 'Delete', clickable: true });
  const { one, two } = await twoRuns('the Delete button', [del], [del, other]);
  assert.ok(one.ok);
  assert.not.ok(two.ok);
  if (!two.ok) assert.is(two.reason, 'ambiguous');
});

test('a unique, app-named element is still replayed from the cache', async () => {
  const signIn = el('sign_in', 'button', 900, { text: 'Sign in', clickable: true });
  const { two, cache } = await twoRuns('the Sign in button', [signIn], [el('email', 'edittext', 500), signIn]);
  assert.ok(two.ok);
  assert.is(cache.hits, 1);
});

test.run();
