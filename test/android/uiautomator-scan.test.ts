import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { XMLParser } from 'fast-xml-parser';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { scanUiautomatorXml, type ScannedNode } from '../../src/engine/drivers/android/uiautomator-scan.js';
import { extractHierarchyXml, parseUiautomatorDump } from '../../src/engine/drivers/android/uiautomator.js';
import type { UiNode } from '../../src/engine/ui-tree.js';
import { uiautomatorXml } from '../harness/adbd/uiautomator-xml.js';

const scan = suite('uiautomator dump fast path');
const here = path.dirname(fileURLToPath(import.meta.url));
const fixtures = path.resolve(here, '../../../test/fixtures/android');

/** The general parser as uiautomator.ts configures it, for comparison. */
const library = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', htmlEntities: true, trimValues: false, parseAttributeValue: false, isArray: (name) => name === 'node' });

/** The library's document with its whitespace text nodes dropped and attribute-less elements as {}, as the scan gives them. */
function normal(x: unknown): ScannedNode {
  if (typeof x !== 'object' || x === null) return {};
  const out: ScannedNode = {};
  for (const [k, v] of Object.entries(x)) {
    if (k === '#text') continue;
    out[k] = k === 'node' ? (v as unknown[]).map(normal) : v;
  }
  return out;
}

const node = (over: Partial<UiNode>): UiNode => ({ type: 'other', text: '', label: null, bounds: { x: 0, y: 0, width: 1080, height: 2400 }, enabled: true, children: [], ...over });

/** ~2,000 nodes with every attribute uiautomator writes, escapes and emoji in the texts, and a 99-deep chain. */
function hugeXml(): string {
  const rows: UiNode[] = [];
  for (let i = 0; i < 400; i++) {
    rows.push(node({
      className: 'android.widget.LinearLayout',
      bounds: { x: 0, y: i * 60, width: 1080, height: 60 },
      children: [
        node({ type: 'text', className: 'android.widget.TextView', text: `Item ${i} <b> & "quoted" 'single'\nline 😀`, bounds: { x: 20, y: i * 60, width: 600, height: 30 } }),
        node({ type: 'button', className: 'android.widget.Button', label: 'Like', clickable: true, resourceId: `app:id/like_${i}`, checkable: true, checked: i % 2 === 0 }),
        node({ type: 'edittext', className: 'android.widget.EditText', text: '', hint: 'Comment', editable: true, focusable: true }),
        node({ className: 'android.view.View' }),
      ],
    }));
  }
  let chain = node({ type: 'button', text: 'Deep', clickable: true });
  for (let d = 0; d < 98; d++) chain = node({ children: [chain] });
  return uiautomatorXml(node({ className: 'android.widget.FrameLayout', children: [...rows, chain] }), 1);
}

scan('reads every fixture, the emulated phone\'s dumps and a 2,000-node screen exactly as the general parser', () => {
  const docs = fs.readdirSync(fixtures).filter((f) => f.endsWith('.xml')).map((f) => extractHierarchyXml(fs.readFileSync(path.join(fixtures, f), 'utf8'))!);
  docs.push(hugeXml());
  for (const xml of docs) {
    const fast = scanUiautomatorXml(xml);
    assert.ok(fast, `the scan gave up on ${xml.slice(0, 120)}`);
    assert.equal(fast, { hierarchy: normal((library.parse(xml) as { hierarchy: unknown }).hierarchy) });
  }
  const huge = parseUiautomatorDump(docs[docs.length - 1]);
  assert.is(huge.rotation, 1);
  assert.is(huge.root.children[0].children[0].children[0].text, 'Item 0 <b> & "quoted" \'single\'\nline 😀');
});

scan('gives up on anything outside the dialect, and the dump is still read by the general parser', () => {
  const wrap = (inner: string) => `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0">${inner}</hierarchy>`;
  const odd = [
    wrap(`<node text='single quoted' bounds="[0,0][1,1]"/>`),
    wrap(`<!-- a comment --><node text="a" bounds="[0,0][1,1]"/>`),
    wrap(`<node text="a&nbsp;b" bounds="[0,0][1,1]"/>`),
    wrap(`<node text="a" bounds="[0,0][1,1]">stray text</node>`),
    wrap(`<node text="a" bounds="[0,0][1,1]"><![CDATA[x]]></node>`),
    wrap(`<view text="a" bounds="[0,0][1,1]"/>`),
    wrap(`<node text="a" text="b"/>`),
  ];
  for (const xml of odd) {
    assert.is(scanUiautomatorXml(xml), undefined, xml);
    assert.ok(parseUiautomatorDump(xml).root, xml);
  }
  assert.is(parseUiautomatorDump(odd[0]).root.children[0].text, 'single quoted');
  assert.is(parseUiautomatorDump(odd[2]).root.children[0].text, 'a\u00a0b');
  for (const broken of ['<hierarchy rotation="0"><node text="a">', '<node text="a"/>', wrap('</node>'), `${wrap('')}<hierarchy/>`, '<hierarchy/>']) {
    assert.is(scanUiautomatorXml(broken), undefined, broken);
  }
});

scan.run();
