import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { extractHierarchyXml, isNeverIdleDump, isTransientDumpFailure, parseBounds, parseUiautomatorDump } from '../../src/engine/drivers/android/uiautomator.js';
import { elementsFromTree } from '../../src/engine/ui-tree.js';

// Compiled tests run from dist/test/android; fixtures stay in the source tree.
const here = path.dirname(fileURLToPath(import.meta.url));
const fixtures = path.resolve(here, '../../../test/fixtures/android');

interface Expected {
  screen: { width: number; height: number };
  rotation?: number;
  elements: Record<string, unknown>[];
}

for (const file of fs.readdirSync(fixtures).filter((f) => f.endsWith('.xml'))) {
  test(`uiautomator fixture ${file}`, () => {
    const expected = JSON.parse(fs.readFileSync(path.join(fixtures, file.replace(/\.xml$/, '.expected.json')), 'utf8')) as Expected;
    const { root, rotation } = parseUiautomatorDump(fs.readFileSync(path.join(fixtures, file), 'utf8'));
    const elements = elementsFromTree(root, expected.screen);
    assert.is(rotation, expected.rotation ?? 0);
    // Compare only the fields each expectation names, so optional extras do not make fixtures brittle.
    const actual = elements.map((e, i) => Object.fromEntries(Object.keys(expected.elements[i] ?? e).map((k) => [k, (e as unknown as Record<string, unknown>)[k]])));
    assert.equal(actual, expected.elements);
  });
}

test('bounds parse, including negative and malformed', () => {
  assert.equal(parseBounds('[0,66][154,220]'), { x: 0, y: 66, width: 154, height: 154 });
  assert.equal(parseBounds('[-20,10][40,30]'), { x: -20, y: 10, width: 60, height: 20 });
  assert.equal(parseBounds('[0, 66][154, 220]'), { x: 0, y: 66, width: 154, height: 154 }, 'blanks after the commas');
  assert.equal(parseBounds(' [ 0,66 ] [ 154,220 ] '), { x: 0, y: 66, width: 154, height: 154 });
  assert.equal(parseBounds('garbage'), { x: 0, y: 0, width: 0, height: 0 });
});

test('a null root node is transient; a screen that never went idle is not (each dump already waited 10 s); a dump is neither', () => {
  assert.ok(isTransientDumpFailure('ERROR: null root node returned by UiTestAutomationBridge.\n'));
  assert.not.ok(isTransientDumpFailure('ERROR: could not get idle state.\n'));
  assert.ok(isNeverIdleDump('ERROR: could not get idle state.\n'));
  assert.not.ok(isTransientDumpFailure("<?xml version='1.0' ?><hierarchy rotation=\"0\"></hierarchy>"));
  assert.not.ok(isNeverIdleDump("<?xml version='1.0' ?><hierarchy rotation=\"0\"></hierarchy>"));
});

test('extraction drops preamble and trailer; no hierarchy → clear error', () => {
  assert.is(extractHierarchyXml('junk\n<?xml v?><hierarchy></hierarchy>\nUI hierchary dumped to: /dev/tty\n'), '<?xml v?><hierarchy></hierarchy>');
  assert.throws(() => parseUiautomatorDump('Killed\n'), /printed no hierarchy: Killed/);
});

test('an empty hierarchy has no elements', () => {
  const { root } = parseUiautomatorDump("<?xml version='1.0' ?><hierarchy rotation=\"0\"></hierarchy>");
  assert.equal(elementsFromTree(root, { width: 1080, height: 2400 }), []);
});

test.run();
