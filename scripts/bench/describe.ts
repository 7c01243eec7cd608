/**
 * The inspector's `elements.describe` without the device: how long naming one element and checking
 * every candidate wording with the deterministic resolver takes on a listing of n elements, for an
 * element named uniquely at once, one among many equal rows (an ordinal is what singles it out),
 * and one no wording can reach (every candidate is tried). Prints medians and p95; the device
 * listing that the bridge method adds (uiautomator dump, WebDriverAgent source) is not included.
 *
 *   node dist/scripts/bench/describe.js [--runs 200]
 */
import { parseFlags } from '../../src/cli/command.js';
import { DeterministicResolver } from '../../src/engine/resolve/index.js';
import type { ElementType, UiElement } from '../../src/engine/types.js';
import { describeElement } from '../../src/engine/verbs/describe-element.js';
import { sample } from './stats.js';

const SCREEN = { width: 1080, height: 2400 };

function element(id: string, type: ElementType, text: string, y: number, x = 0, visible = true): UiElement {
  const width = type === 'button' ? 300 : 700;
  return { id, type, text, accessibility_label: null, x, y, width, height: 100, visible, enabled: true, clickable: type === 'button', center: { x: x + width / 2, y: y + 50 } };
}

/** A list of rows, each a title and a Delete button, plus a header, a search field and a hidden twin button. */
function screen(n: number): UiElement[] {
  const out = [element('title', 'text', 'Shopping list', 0), element('search', 'edittext', '', 120), element('add', 'button', 'Add item', 240, 700)];
  for (let i = 0; out.length < n - 2; i++) out.push(element(`row_${i}`, 'text', `Item ${i}`, 400 + i * 110), element(`delete_${i}`, 'button', 'Delete', 400 + i * 110, 760));
  out.push(element('ok', 'button', 'OK', 2250, 0), element('ok_hidden', 'button', 'OK', 2250, 400, false));
  return out;
}

const { flags } = parseFlags(process.argv.slice(2));
const runs = Number(flags.runs ?? 200);
const resolver = new DeterministicResolver();

console.log(`elements.describe, pure part (deterministic resolver), ${runs} runs each; ms`);
for (const n of [50, 300]) {
  const list = screen(n);
  const cases: [string, UiElement][] = [
    ['unique ("the Add item button")', list.find((e) => e.id === 'add')!],
    ['3rd of many equal rows (ordinal)', list.find((e) => e.id === 'delete_2')!],
    ['unreachable (every wording tried)', list.find((e) => e.id === 'ok_hidden')!],
  ];
  for (const [what, target] of cases) {
    let outcome = '';
    const s = await sample(runs, async () => {
      const d = await describeElement('bench', target, list, SCREEN, resolver);
      outcome = d.unique ? `unique: ${d.target}` : d.alternative ? `alternative: ${d.alternative.target}` : 'none';
    });
    console.log(`n=${String(list.length).padStart(3)}  ${what.padEnd(36)} median ${s.median.toFixed(2)}  p95 ${s.p95.toFixed(2)}   → ${outcome}`);
  }
}
