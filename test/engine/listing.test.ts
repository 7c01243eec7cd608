import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { failure } from '../../src/engine/errors.js';
import { ListingCache } from '../../src/engine/listing/cache.js';
import { compactListing, DEFAULT_PAGE_SIZE, PAGE_CHARS, TEXT_CHARS } from '../../src/engine/listing/compact.js';
import type { UiElement } from '../../src/engine/types.js';
import { elementsFromTree, type UiNode } from '../../src/engine/ui-tree.js';
import type { AgentBackend } from '../../src/mcp/backend.js';
import { connectPair, jsonOf, textOf } from '../mcp/helpers.js';

const test = suite('element listings for agents');
const SCREEN = { width: 1080, height: 2400 };

const node = (over: Partial<UiNode>): UiNode => ({ type: 'other', text: '', label: null, bounds: { x: 0, y: 0, width: 1080, height: 2400 }, enabled: true, children: [], ...over });

/**
 * 2,000 nodes: 400 list rows (container + title + subtitle + like button + a label-less
 * decoration), every 50th row's button sharing one resource id, and a 99-deep chain of wrappers.
 */
function hugeScreen(): UiNode {
  const rows: UiNode[] = [];
  for (let i = 0; i < 380; i++) {
    const y = (i * 60) % 2400;
    rows.push(
      node({
        bounds: { x: 0, y, width: 1080, height: 60 },
        children: [
          node({ type: 'text', text: `Item ${i}`, bounds: { x: 20, y, width: 600, height: 30 } }),
          node({ type: 'text', text: `subtitle ${i}`, bounds: { x: 20, y: y + 30, width: 600, height: 30 }, enabled: i % 7 !== 0 }),
          node({ type: 'button', label: 'Like', clickable: true, resourceId: i % 50 === 0 ? 'app:id/shared' : `app:id/like_${i}`, bounds: { x: 900, y, width: 100, height: 60 }, checkable: true, checked: i % 2 === 0 }),
          node({ bounds: { x: 0, y: y + 59, width: 1080, height: 1 } }),
        ],
      }),
    );
  }
  let chain = node({ type: 'button', text: 'Deep', clickable: true, bounds: { x: 10, y: 10, width: 50, height: 50 } });
  for (let d = 0; d < 98; d++) chain = node({ children: [chain] });
  return node({ children: [...rows, chain] });
}

function countNodes(n: UiNode): number {
  return 1 + n.children.reduce((s, c) => s + countNodes(c), 0);
}

test('a 2,000-node screen lists linearly with the same ids as before (resource id when unique, else the path)', () => {
  const root = hugeScreen();
  assert.is(countNodes(root), 2000);
  const elements = elementsFromTree(root, SCREEN);
  assert.is(elements.length, 380 * 3 + 1);
  assert.is(elements[0].id, 'n0.0.0');
  assert.is(elements.find((e) => e.text === 'Item 1')!.id, 'n0.1.0');
  assert.ok(elements.some((e) => e.id === 'like_1'));
  assert.is(elements.filter((e) => e.id.startsWith('n0.') && e.type === 'button' && e.text !== 'Deep').length, 8, 'shared resource id → path ids');
  assert.is(elements.at(-1)!.id, `n0.380${'.0'.repeat(98)}`);
  assert.is(new Set(elements.map((e) => e.id)).size, elements.length);
});

test('compact pages cover the listing exactly once, in order, under one screen fingerprint', () => {
  const elements = elementsFromTree(hugeScreen(), SCREEN);
  const seen: string[] = [];
  let offset: number | undefined = 0;
  let screen: string | undefined;
  let pages = 0;
  while (offset !== undefined) {
    const page = compactListing(elements, { offset, limit: 250, screen });
    assert.is(page.total, elements.length);
    assert.is(page.offset, offset);
    assert.not.ok(page.screen_changed);
    if (screen) assert.is(page.screen, screen);
    screen = page.screen;
    seen.push(...page.elements.map((e) => e.id));
    offset = page.next_offset;
    pages++;
  }
  assert.is(pages, Math.ceil(elements.length / 250));
  assert.equal(seen, elements.map((e) => e.id));
  // Default page size, and a page past the end is empty rather than an error, and says so.
  assert.is(compactListing(elements).elements.length, DEFAULT_PAGE_SIZE);
  const past = compactListing(elements, { offset: 5000, limit: 250 });
  assert.equal([past.elements.length, past.next_offset], [0, undefined]);
  const lastPage = Math.floor((elements.length - 1) / 250) * 250;
  assert.is(past.note, `offset 5000 is past the last element (total ${elements.length}, offsets 0 to ${elements.length - 1}): call again with offset 0 for the first page or ${lastPage} for the last`);
  assert.is(compactListing(elements, { offset: elements.length - 1 }).note, undefined, 'the last element is not past the end');
  assert.is(compactListing(elements.slice(0, 3), { offset: 3 }).note, 'offset 3 is past the last element (total 3, offsets 0 to 2): call again with offset 0 for the first page');
  assert.is(compactListing([], { offset: 4 }).note, 'offset 4 is past the end: the screen lists no elements now');
  assert.is(compactListing([]).note, undefined, 'an empty screen at offset 0 is not about the offset');
  assert.throws(() => compactListing(elements, { limit: 0 }), /limit must be a whole number from 1/);
  assert.throws(() => compactListing(elements, { offset: -1 }), /offset must be a whole number/);
});

test('compact elements keep what a model needs and drop the rest; a changed screen is flagged', () => {
  const elements = elementsFromTree(hugeScreen(), SCREEN);
  const first = compactListing(elements, { limit: 2000 });
  const like = first.elements.find((e) => e.id === 'like_1')!;
  assert.equal(like, { id: 'like_1', type: 'button', label: 'Like', center: [950, 90], size: [100, 60], checked: false });
  assert.equal(first.elements.find((e) => e.text === 'subtitle 7')!.enabled, false);
  const compactBytes = JSON.stringify(first).length;
  const fullBytes = JSON.stringify({ elements }).length;
  assert.ok(compactBytes * 2 < fullBytes, `compact ${compactBytes} B vs full ${fullBytes} B`);
  const changed = elements.map((e) => (e.text === 'Item 3' ? { ...e, text: 'Item 3 (edited)' } : e));
  const next = compactListing(changed, { offset: 300, screen: first.screen });
  assert.is(next.screen_changed, true);
  assert.is.not(next.screen, first.screen);
});

test('live text (a clock) does not stop paging: the page is flagged but says the offsets still line up; a moved element is a changed screen', () => {
  const elements = elementsFromTree(hugeScreen(), SCREEN);
  const withClock = (time: string) => elements.map((e, i) => (i === 0 ? { ...e, text: time } : e));
  const first = compactListing(withClock('12:00:01'), { limit: 300 });
  const next = compactListing(withClock('12:00:02'), { offset: first.next_offset, limit: 300, screen: first.screen });
  assert.is(next.screen_changed, true);
  assert.match(next.note ?? '', /only texts changed since the earlier pages.*go on with next_offset/);
  assert.is(next.offset, 300);
  const moved = withClock('12:00:02').map((e, i) => (i === 5 ? { ...e, center: { x: e.center.x, y: e.center.y + 40 } } : e));
  const other = compactListing(moved, { offset: first.next_offset, limit: 300, screen: first.screen });
  assert.is(other.screen_changed, true);
  assert.not.match(other.note ?? '', /only texts changed/);
});

test('long texts are cut and a page stops before PAGE_CHARS, so an MCP client never refuses it', () => {
  // A web view of 400 paragraphs of 2,000 characters: ~800 KB of text.
  const paragraph = (i: number) => `Paragraph ${i}: ${'lorem ipsum '.repeat(170)}`.slice(0, 2000);
  const rows = Array.from({ length: 400 }, (_, i) => node({ type: 'text', text: paragraph(i), bounds: { x: 0, y: (i * 50) % 2400, width: 1080, height: 50 } }));
  const elements = elementsFromTree(node({ children: rows }), SCREEN);
  assert.is(elements.length, 400);
  const seen: string[] = [];
  let offset: number | undefined = 0;
  let screen: string | undefined;
  while (offset !== undefined) {
    const page = compactListing(elements, { offset, limit: 2000, screen });
    assert.ok(JSON.stringify(page).length <= PAGE_CHARS, `page at ${offset}: ${JSON.stringify(page).length} characters`);
    assert.ok(page.elements.length > 1);
    for (const e of page.elements) assert.is(e.text, `${elements.find((x) => x.id === e.id)!.text!.slice(0, TEXT_CHARS)}…`);
    if (page.next_offset !== undefined) assert.match(page.note!, new RegExp(`stops at ${page.elements.length} elements \\(not 2000\\) to stay under ${PAGE_CHARS} characters.*next_offset ${page.next_offset}`));
    assert.match(page.note!, new RegExp(`${page.elements.length} elements' text, label or hint is cut at ${TEXT_CHARS} characters`));
    seen.push(...page.elements.map((e) => e.id));
    screen = page.screen;
    offset = page.next_offset;
  }
  assert.equal(seen, elements.map((e) => e.id), 'the pages cover every element once, in order');
  // An edit past the cut still changes the fingerprint; short texts are left whole and unnoted.
  const edited = elements.map((e, i) => (i === 0 ? { ...e, text: `${e.text!.slice(0, 1900)}EDITED` } : e));
  assert.is.not(compactListing(edited).screen, compactListing(elements).screen);
  const short = compactListing(elementsFromTree(hugeScreen(), SCREEN));
  assert.is(short.elements.length, DEFAULT_PAGE_SIZE);
  assert.is(short.note, undefined);
  // The whole page counts, the device's note leading its own: a page of short rows too stays under the cap.
  const shortRows = elementsFromTree(hugeScreen(), SCREEN);
  const appError = 'Android shows its app error dialog ("Shop keeps stopping"): the app crashed, and nothing reaches it until the dialog is closed; tap "Close app" (or "Open app again" where shown), then launch the app again';
  for (let from: number | undefined = 0; from !== undefined; ) {
    const page = compactListing(shortRows, { offset: from, limit: 2000 }, appError);
    assert.ok(JSON.stringify(page).length <= PAGE_CHARS, `short rows at ${from}: ${JSON.stringify(page).length} characters`);
    assert.ok(page.note!.startsWith(page.next_offset === undefined ? appError : `${appError}; this page stops at ${page.elements.length} elements`), page.note);
    from = page.next_offset;
  }
  // One element alone over the budget still makes a page (never an empty one).
  const huge = elements.map((e) => ({ ...e, text: e.text!.slice(0, TEXT_CHARS), accessibility_label: 'x'.repeat(5000), hint: 'y'.repeat(5000) }));
  assert.ok(compactListing(huge, { limit: 2000 }).elements.length >= 1);
});

test('the listing cache parses a hierarchy once, hands out independent copies, and stays bounded', () => {
  const cache = new ListingCache(2);
  let parses = 0;
  const compute = () => (parses++, elementsFromTree(hugeScreen(), SCREEN));
  const a = cache.get('<dump 1>', '1080x2400', compute);
  a[0].text = 'changed by a caller';
  a[0].center.x = -1;
  const b = cache.get('<dump 1>', '1080x2400', compute);
  assert.is(parses, 1);
  assert.is(b[0].text, 'Item 0');
  assert.is(b[0].center.x, 320);
  cache.get('<dump 1>', '1920x1080', compute);
  assert.is(parses, 2, 'another screen size is another listing');
  cache.get('<dump 2>', '1080x2400', compute);
  assert.is(cache.size, 2);
  cache.get('<dump 1>', '1080x2400', compute);
  assert.is(parses, 4, 'the least recently used entry was dropped');
});

test('MCP list_elements pages a 2,000-node screen; full: true gives the seed objects', async () => {
  const elements: UiElement[] = elementsFromTree(hugeScreen(), SCREEN);
  const backend: AgentBackend = {
    where: 'a fake backend',
    listDevices: async () => [],
    engineTools: async () => [],
    callTool: async (tool) => (tool === 'mobile_list_elements_on_screen' ? { elements } : failure('INTERNAL', 'x')),
    screenshot: async () => failure('INTERNAL', 'x'),
    runVerb: async () => failure('INTERNAL', 'x'),
    assert: async () => failure('INTERNAL', 'x'),
    startRecording: async () => failure('INTERNAL', 'x'),
    stopRecording: async () => failure('INTERNAL', 'x'),
    close: async () => undefined,
  };
  const pair = await connectPair(backend);
  try {
    const ids: string[] = [];
    let args: Record<string, unknown> = { device: 'huge-1', limit: 500 };
    for (;;) {
      const page = jsonOf(await pair.call('list_elements', args));
      assert.not.ok(page.screen_changed);
      ids.push(...page.elements.map((e: { id: string }) => e.id));
      if (page.next_offset === undefined) break;
      args = { device: 'huge-1', limit: 500, offset: page.next_offset, screen: page.screen };
    }
    assert.equal(ids, elements.map((e) => e.id));
    const full = jsonOf(await pair.call('list_elements', { device: 'huge-1', full: true }));
    assert.equal(full.elements, elements);
    const bad = await pair.call('list_elements', { device: 'huge-1', limit: 0 });
    assert.ok(bad.isError);
    assert.match(textOf(bad), /^INVALID_PARAMETER: list_elements on huge-1: "limit" must be a whole number from 1 to 2000/);
    const notInt = await pair.call('list_elements', { device: 'huge-1', offset: 'two' });
    assert.match(textOf(notInt), /"offset" must be a whole number/);
  } finally {
    await pair.close();
  }
});

test.run();
