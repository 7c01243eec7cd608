import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { LocalBackend } from '../../src/mcp/backend.js';
import { saveToRoots } from '../../src/mcp/save-to.js';
import { ANDROID, connectPair, DEMO, jsonOf, textOf, virtualEngine, type Pair } from './helpers.js';

const save = suite<{ pair: Pair; backend: LocalBackend; dir: string }>('recording_stop save_to never replaces a file unasked');

save.before.each(async (ctx) => {
  const v = virtualEngine();
  ctx.backend = new LocalBackend(v.engine, { clock: v.verbClock, targetWaitMs: 1000, settleMs: 0 });
  ctx.pair = await connectPair(ctx.backend);
  ctx.dir = mkdtempSync(join(tmpdir(), 'mb-save-to-'));
  const started = await ctx.pair.call('recording_start', { device: ANDROID, name: 'Open the app', app_package: DEMO });
  assert.not.ok(started.isError, textOf(started));
  const launched = await ctx.pair.call('launch_app', { device: ANDROID, package: DEMO });
  assert.not.ok(launched.isError, textOf(launched));
});
save.after.each(async (ctx) => {
  await ctx.pair.close();
  await ctx.backend.close();
  rmSync(ctx.dir, { recursive: true, force: true });
});

save('a name that is not .json is refused and nothing is written; the scenario still comes back', async ({ pair, dir }) => {
  const rc = join(dir, '.bashrc');
  writeFileSync(rc, 'echo original\n');
  for (const name of [rc, join(dir, 'notes.md'), join(dir, 'scenario')]) {
    const r = await pair.call('recording_stop', { device: ANDROID, save_to: name, overwrite: true });
    assert.ok(r.isError, textOf(r));
    assert.match(textOf(r), /^INVALID_PARAMETER: save_to ".*" must name a \.json file .*nothing was written \(the recording was stopped; the scenario follows\)\n\{/);
  }
  assert.is(readFileSync(rc, 'utf8'), 'echo original\n');
  assert.not.ok(existsSync(join(dir, 'notes.md')) || existsSync(join(dir, 'scenario')));
});

save('an existing file is left as it is unless overwrite: true', async ({ pair, dir }) => {
  const file = join(dir, 'sign_in.json');
  writeFileSync(file, '{"keep": true}\n');
  const refused = await pair.call('recording_stop', { device: ANDROID, save_to: file });
  assert.ok(refused.isError, textOf(refused));
  assert.match(textOf(refused), new RegExp(`^INVALID_PARAMETER: save_to ${file} already exists and was left as it is; give a new file name, or pass overwrite: true to replace it`));
  assert.is(readFileSync(file, 'utf8'), '{"keep": true}\n');
  const replaced = await pair.call('recording_stop', { device: ANDROID, save_to: file, overwrite: true });
  assert.not.ok(replaced.isError, textOf(replaced));
  assert.is(jsonOf(replaced).saved_to, file);
  assert.is(JSON.parse(readFileSync(file, 'utf8')).name, 'Open the app');
});

save('a new .json file is written without overwrite', async ({ pair, dir }) => {
  const file = join(dir, 'new', 'open.JSON');
  const r = await pair.call('recording_stop', { device: ANDROID, save_to: file });
  assert.not.ok(r.isError, textOf(r));
  assert.is(JSON.parse(readFileSync(file, 'utf8')).name, 'Open the app');
});

save('a working directory of / or the home folder is not a folder save_to may write into, and stderr says so', () => {
  const home = '/home/someone';
  for (const cwd of ['/', home]) {
    const said: string[] = [];
    const roots = saveToRoots([], cwd, home, (line) => said.push(line)).list();
    assert.not.ok(roots.includes(cwd), `${cwd} is a root: ${roots.join(', ')}`);
    assert.ok(roots.includes(tmpdir()));
    assert.match(said.join(''), /--allow-path FOLDER/);
    assert.ok(saveToRoots(['/srv/scenarios'], cwd, home, () => undefined).list().includes('/srv/scenarios'));
  }
  const said: string[] = [];
  assert.ok(saveToRoots([], '/work/project', home, (line) => said.push(line)).list().includes('/work/project'));
  assert.equal(said, []);
});

save.run();
