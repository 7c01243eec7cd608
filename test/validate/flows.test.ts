import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { validateScenarioText } from '../../src/validate/index.js';

const flows = suite<{ dir: string; outside: string }>('schema 2.2 flows and paths on disk');
flows.before.each((ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'mb-flows-'));
  ctx.outside = mkdtempSync(join(tmpdir(), 'mb-flows-outside-'));
});
flows.after.each((ctx) => {
  rmSync(ctx.dir, { recursive: true, force: true });
  rmSync(ctx.outside, { recursive: true, force: true });
});

const scenario = (id: string, steps: unknown[], extra: Record<string, unknown> = {}) =>
  JSON.stringify({ $schema_version: '2.2', scenario_id: id, name: id, description: id, platform: 'android', app_package: 'com.example.app', metadata: { app_version: '1', environment: 'test' }, steps, assertions: [], ...extra }, null, 2);
const open = { id: 'open', action: 'open_url', description: 'open', value: 'https://example.com' };

function check(dir: string, text: string) {
  const file = join(dir, 'main.json');
  writeFileSync(file, text);
  return validateScenarioText(text, file, { baseDir: dir }).errors.map((e) => [e.rule, e.path, e.message]);
}

flows('a flow in a subfolder may name a sibling folder inside the scenario folder; nested flows validate', ({ dir }) => {
  mkdirSync(join(dir, 'flows'));
  mkdirSync(join(dir, 'common'));
  writeFileSync(join(dir, 'common', 'open.json'), scenario('open_flow', [open]));
  writeFileSync(join(dir, 'flows', 'login.json'), scenario('login_flow', [{ id: 'inner', flow: '../common/open.json' }]));
  assert.equal(check(dir, scenario('main', [{ id: 'login', flow: 'flows/login.json' }])), []);
});

flows('a symlink that leads out of the folder is path-escapes-scenario, for flows and reference screenshots', ({ dir, outside }) => {
  writeFileSync(join(outside, 'x.json'), scenario('x', [open]));
  writeFileSync(join(outside, 'shot.png'), 'png');
  symlinkSync(join(outside, 'x.json'), join(dir, 'linked.json'));
  symlinkSync(join(outside, 'shot.png'), join(dir, 'shot.png'));
  const errors = check(
    dir,
    scenario('main', [{ id: 'login', flow: 'linked.json' }, open], {
      assertions: [{ id: 'same', after_step: 'open', type: 'screenshot_match', description: 'same', reference_screenshot: 'shot.png' }],
    }),
  );
  assert.equal(errors.map(([rule, path]) => [rule, path]), [['path-escapes-scenario', '/steps/0/flow'], ['path-escapes-scenario', '/assertions/0/reference_screenshot']]);
  assert.match(String(errors[0][2]), /a symlink leads to/);
});

flows('a FIFO named as a flow is reported at once, without blocking', ({ dir }) => {
  try {
    execFileSync('mkfifo', [join(dir, 'pipe.json')]);
  } catch {
    console.log('  (mkfifo missing: FIFO case not checked)');
    return;
  }
  const errors = check(dir, scenario('main', [{ id: 'login', flow: 'pipe.json' }]));
  assert.equal(errors.map(([rule]) => rule), ['flow-missing']);
  assert.match(String(errors[0][2]), /cannot be read: it is a FIFO|not a regular file/);
});

flows('a flow of a flow that comes back is a cycle in both, with the chain', ({ dir }) => {
  writeFileSync(join(dir, 'a.json'), scenario('a', [{ id: 'to_b', flow: 'b.json' }]));
  writeFileSync(join(dir, 'b.json'), scenario('b', [{ id: 'to_a', flow: 'a.json' }]));
  const errors = check(dir, scenario('main', [{ id: 'start', flow: 'a.json' }]));
  assert.equal(errors.map(([rule, path]) => [rule, path]), [['flow-cycle', '/steps/0/flow']]);
  assert.match(String(errors[0][2]), /a\.json → b\.json → a\.json/);
});

flows('a misspelt flow path suggests the flow file it is close to, and only a close one', ({ dir }) => {
  mkdirSync(join(dir, 'flows'));
  writeFileSync(join(dir, 'flows', 'login.json'), scenario('login_flow', [open]));
  const file = join(dir, 'main.json');
  const text = scenario('main', [{ id: 'a', flow: 'flow/logn.json' }, { id: 'b', flow: 'flows/Login.json' }, { id: 'c', flow: 'flows/checkout.json' }]);
  writeFileSync(file, text);
  const errors = validateScenarioText(text, file, { baseDir: dir }).errors.map((e) => [e.rule, e.path, e.suggestion]);
  assert.equal(errors, [
    ['flow-missing', '/steps/0/flow', 'did you mean "flows/login.json"?'],
    ['flow-missing', '/steps/1/flow', 'did you mean "flows/login.json"?'],
    ['flow-missing', '/steps/2/flow', 'fix the path or create the flow scenario'],
  ]);
});

flows.run();
