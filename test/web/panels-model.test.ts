import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { UiElement } from '../../src/engine/types.js';
import { describeActivity } from '../../web/src/activity-format.js';
import { ElementStore } from '../../web/src/element-store.js';
import { bridgeEndpoint } from '../../web/src/endpoint.js';
import { RateMeter, SmoothedLatency, formatMs } from '../../web/src/stats.js';
import { offsetOf, summarizeEnvelope } from '../../web/src/validation-summary.js';

function el(id: string, y: number, text = id): UiElement {
  return { id, text, type: 'button', accessibility_label: null, x: 0, y, width: 100, height: 50, visible: true, enabled: true, center: { x: 50, y: y + 25 } };
}

test('ElementStore: reset replaces, diffs add/change/remove, list is in reading order', () => {
  const store = new ElementStore('d1');
  assert.equal(store.apply({ subscription: 's', device: 'd1', seq: 4, reset: true, added: [el('b', 200), el('a', 100)], removed: [], changed: [] }), { kind: 'applied', fresh: [] });
  assert.equal(store.elements.map((e) => e.id), ['a', 'b']);
  const outcome = store.apply({ subscription: 's', device: 'd1', seq: 5, added: [el('c', 50)], removed: ['a'], changed: [el('b', 200, 'B!')] });
  assert.equal(outcome, { kind: 'applied', fresh: ['c', 'b'] });
  assert.equal(store.elements.map((e) => `${e.id}:${e.text}`), ['c:c', 'b:B!']);
});

test('ElementStore: a sequence gap is reported, old and foreign diffs are ignored', () => {
  const store = new ElementStore('d1');
  store.apply({ subscription: 's', device: 'd1', seq: 1, reset: true, added: [el('a', 0)], removed: [], changed: [] });
  assert.equal(store.apply({ subscription: 's', device: 'd2', seq: 2, added: [el('x', 0)], removed: [], changed: [] }), { kind: 'ignored' });
  assert.equal(store.apply({ subscription: 's', device: 'd1', seq: 1, added: [el('x', 0)], removed: [], changed: [] }), { kind: 'ignored' });
  assert.equal(store.apply({ subscription: 's', device: 'd1', seq: 4, added: [el('z', 9)], removed: [], changed: [] }), { kind: 'gap', expected: 2, got: 4 });
  assert.equal(store.apply({ subscription: 's', device: 'd1', seq: 5, added: [], removed: ['z'], changed: [] }).kind, 'applied', 'continues after the gap');
  assert.equal(store.elements.map((e) => e.id), ['a']);
});

test('ElementStore: the listing note comes with a reset, stays through diffs without one, goes with null', () => {
  const store = new ElementStore('d1');
  store.apply({ subscription: 's', device: 'd1', seq: 1, reset: true, added: [el('a', 0)], removed: [], changed: [], note: 'a crash dialog covers the app' });
  assert.is(store.note, 'a crash dialog covers the app');
  store.apply({ subscription: 's', device: 'd1', seq: 2, added: [el('b', 9)], removed: [], changed: [] });
  assert.is(store.note, 'a crash dialog covers the app', 'a diff without note keeps it');
  store.apply({ subscription: 's', device: 'd1', seq: 3, added: [], removed: ['b'], changed: [], note: null });
  assert.is(store.note, undefined);
  store.apply({ subscription: 's', device: 'd1', seq: 4, added: [], removed: [], changed: [], note: 'the tree was cut at depth 50' });
  store.replace([el('a', 0)]);
  assert.is(store.note, undefined, 'a fresh listing without note replaces it');
});

test('activity lines show the bridge’s sentence, say who, mark your own and show failures', () => {
  const base = { id: 1, device: 'd1', session: 'abcdef123456', client: 'viewer', duration_ms: 12, at: '2025-01-01T10:11:12Z' };
  const mine = describeActivity(
    { ...base, tool: 'mobile_click_on_screen_at_coordinates', parameters: { device: 'd1', x: 540, y: 1200 }, summary: 'tapped the “Sign in” button', element: { id: 'sign_in', type: 'button', name: 'Sign in' }, outcome: { status: 'success' } },
    'abcdef123456',
  );
  assert.is(mine.what, 'tapped the “Sign in” button');
  assert.is(mine.detail, 'at (540, 1200)');
  assert.ok(mine.mine);
  assert.is(mine.who, 'you (viewer abcdef)');
  const theirs = describeActivity(
    {
      ...base,
      session: 'zzzzzz999',
      tool: 'mobile_type_keys',
      parameters: { device: 'd1', text: '•••' },
      summary: 'typed 8 characters into the “Password” field',
      masked: { characters: 8, reason: 'typed into a password field' },
      count: 3,
      outcome: { status: 'error', code: 'INVALID_PARAMETER', message: 'no field focused' },
    },
    'abcdef123456',
  );
  assert.is(theirs.who, 'viewer zzzzzz');
  assert.is(theirs.what, 'typed 8 characters into the “Password” field');
  assert.is(theirs.detail, '3 calls · text hidden: typed into a password field');
  assert.is(theirs.error, 'INVALID_PARAMETER: no field focused');
});

test('validation envelope: errors and warnings with positions, sorted by line', () => {
  const summary = summarizeEnvelope({
    ok: false,
    data: {
      valid: false,
      errors: [
        { path: '/steps/2/target', line: 31, column: 17, rule: 'target-is-locator', message: 'bad target', suggestion: 'use text' },
        { path: '/id', line: 2, column: 9, rule: 'id-format', message: 'bad id' },
      ],
      warnings: [{ path: '/steps/0', line: 12, column: 5, rule: 'w', message: 'careful' }],
    },
    error: { kind: 'invalid_input', message: 'scenario failed validation (2 errors)' },
  });
  assert.is(summary.valid, false);
  assert.is(summary.headline, 'Invalid: 2 errors, 1 warning');
  assert.equal(summary.issues.map((i) => `${i.severity}@${i.line}:${i.column}`), ['error@2:9', 'warning@12:5', 'error@31:17']);
  assert.is(summary.issues[2]!.suggestion, 'use text');
  assert.equal(summarizeEnvelope({ ok: true, data: { valid: true, schema_version: '2.1', errors: [], warnings: [] } }), { valid: true, headline: 'Valid (schema 2.1)', issues: [] });
  assert.is(summarizeEnvelope({ ok: false, data: {}, error: { kind: 'internal', message: 'boom' } }).headline, 'The validator failed: boom');
});

test('offsetOf finds a 1-based line and column, clamped to the line', () => {
  const text = 'ab\ncdef\n\nxyz';
  assert.is(offsetOf(text, 1, 1), 0);
  assert.is(text[offsetOf(text, 2, 3)], 'e');
  assert.is(offsetOf(text, 2, 99), 7, 'end of line 2');
  assert.is(text[offsetOf(text, 4, 2)], 'y');
  assert.is(offsetOf(text, 40, 1), text.length);
});

test('the WebSocket endpoint follows the page and carries its token', () => {
  assert.equal(bridgeEndpoint({ protocol: 'http:', host: '127.0.0.1:4800', search: '' }), { url: 'ws://127.0.0.1:4800/ws', token: undefined });
  assert.equal(bridgeEndpoint({ protocol: 'https:', host: 'lab.example:443', search: '?device=x&token=a%20b%2Fc' }), {
    url: 'wss://lab.example:443/ws?token=a%20b%2Fc',
    token: 'a b/c',
  });
});

test('RateMeter counts the last second; SmoothedLatency follows without jumping', () => {
  const meter = new RateMeter(1000);
  for (let t = 0; t < 2000; t += 40) meter.add(t);
  assert.is(meter.rate(1999), 25);
  assert.is(meter.rate(5000), 0);
  const latency = new SmoothedLatency(0.5);
  assert.is(latency.ms, undefined);
  latency.add(10);
  latency.add(30);
  assert.is(latency.ms, 20);
  latency.add(-1);
  assert.is(latency.ms, 20, 'clock skew gives negative ages; they are ignored');
  assert.is(formatMs(undefined), '–');
  assert.is(formatMs(3.14159), '3.1 ms');
  assert.is(formatMs(42.6), '43 ms');
});

test.run();
