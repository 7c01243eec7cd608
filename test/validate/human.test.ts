import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { renderHuman } from '../../src/validate/human.js';
import { validateScenarioText } from '../../src/validate/index.js';

/** The source line and the caret line of the first issue that `--human` prints, after their gutters. */
function excerpt(text: string): { source: string; caret: string } {
  const lines = renderHuman(validateScenarioText(text, 'x.json'), text).split('\n');
  const at = lines.findIndex((l) => /^ {4}\d+ \| /.test(l));
  const cut = (l: string) => l.slice(l.indexOf('| ') + 2);
  return { source: cut(lines[at]), caret: cut(lines[at + 1]) };
}

const scenario = (stepLine: string) =>
  [
    '{',
    '\t"$schema_version": "2.1",',
    '\t"scenario_id": "carets",',
    '\t"name": "n",',
    '\t"description": "d",',
    '\t"platform": "android",',
    '\t"app_package": "com.mobilebridge.demo",',
    '\t"metadata": {"app_version": "1", "environment": "t"},',
    '\t"steps": [',
    stepLine,
    '\t],',
    '\t"assertions": [{"id": "a", "after_step": "s", "type": "alert_present", "description": "d"}]',
    '}',
  ].join('\n');

test('a file indented with tabs: the caret line keeps the tabs, so the caret is under the value whatever the tab width', () => {
  const { source, caret } = excerpt(scenario('\t\t{"id": "s", "description": "d", "action": "tpa"}'));
  assert.is(caret, `\t\t${' '.repeat(source.indexOf('"tpa"') - 2)}^`);
});

test('wide characters and emoji before the value take two columns each in the caret line, combining marks none', () => {
  const { source, caret } = excerpt(scenario('\t\t{"id": "s", "description": "登录 🚀 e\u0301", "action": "tpa"}'));
  const before = source.slice(0, source.indexOf('"tpa"'));
  // Two tabs, then the rest with 登, 录 and 🚀 two columns wide and the combining accent none.
  const columns = [...before.slice(2)].reduce((n, ch) => n + (/[登录]/.test(ch) || ch.length > 1 ? 2 : ch === '\u0301' ? 0 : 1), 0);
  assert.is(caret, `\t\t${' '.repeat(columns)}^`);
});

test('control, escape and bidi characters from the file are printed as visible symbols, and the caret stays under its column', () => {
  // A key holding ESC and NUL (JSON escapes), and a raw NUL and RLO in a broken document's line.
  const keyed = scenario('\t\t{"id": "s", "action": "tap", "target": "the OK button", "\\u001b[2J\\u0000x": 1}');
  const out = renderHuman(validateScenarioText(keyed, 'x.json'), keyed);
  assert.not.match(out, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
  assert.match(out, /\u241b\[2J\u2400x/);
  const broken = '{"name": "a\u0000\u202eb" "x": 1}';
  const { source, caret } = excerpt(broken);
  assert.is(source, '{"name": "a\u2400\ufffdb" "x": 1}');
  assert.is(caret.indexOf('^'), broken.indexOf('\u0000'));
});

test.run();
