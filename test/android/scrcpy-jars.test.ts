import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ToolError } from '../../src/engine/errors.js';
import type { Engine } from '../../src/engine/engine.js';
import { handleOf, hasFfmpeg, take } from './scrcpy-support.js';
import { hasAdb, startRig, type AndroidRig } from './setup.js';

const test = suite<{ rig?: AndroidRig }>('scrcpy jars left on the phone');
const ready = hasAdb() && hasFfmpeg();
const TMP = '/data/local/tmp';
const MINUTE = 60;

test.before(async (ctx) => {
  if (ready) ctx.rig = await startRig();
});
test.after(async (ctx) => {
  await ctx.rig?.stop();
});
test.after.each(({ rig }) => {
  if (!rig) return;
  rig.phone.scrcpy.faults = {};
  rig.phone.adbd.faults = {};
  rig.phone.shell.quirks.release = undefined;
  for (const name of jars(rig)) rig.phone.files.remove(`${TMP}/${name}`);
});

const jars = (rig: AndroidRig): string[] => (rig.phone.files.list(TMP) ?? []).map((e) => e.name).filter((n) => n.endsWith('.jar')).sort();
const engineFor = (rig: AndroidRig): Engine => rig.engineWith({ scrcpy: { graceMs: 200, bindTimeoutMs: 1_500 } });

/** A jar as a push leaves it, `minutesAgo` minutes before now by the phone's clock. */
function plant(rig: AndroidRig, name: string, minutesAgo: number): void {
  rig.phone.files.write(`${TMP}/${name}`, Buffer.from('jar'));
  rig.phone.files.backdate(`${TMP}/${name}`, minutesAgo * MINUTE);
}

async function openFails(rig: AndroidRig, engine: Engine): Promise<string> {
  try {
    const video = await (await handleOf(rig, engine)).openVideo!({ maxSize: 1200, maxFps: 30 });
    await video.close();
    return 'opened';
  } catch (err) {
    assert.instance(err, ToolError);
    return (err as Error).message;
  }
}

async function streams(rig: AndroidRig, engine: Engine): Promise<void> {
  const video = await (await handleOf(rig, engine)).openVideo!({ maxSize: 1200, maxFps: 30 });
  try {
    const [config, key] = await take(video, 2);
    assert.ok(config.config && key.key, 'the server started');
  } finally {
    await video.close();
  }
}

test('a launch whose server exits before unlinking its jar (a refused version) deletes the jar it pushed', async ({ rig }) => {
  if (!rig) return;
  rig.phone.scrcpy.faults = { version: '3.3' };
  assert.match(await openFails(rig, engineFor(rig)), /The server version \(3\.3\) does not match/);
  assert.equal(jars(rig), [], 'no jar left behind');
});

test('a launch whose shell is refused deletes the jar it pushed', async ({ rig }) => {
  if (!rig) return;
  rig.phone.adbd.faults = { refuse: /^shell:.*app_process/ };
  assert.match(await openFails(rig, engineFor(rig)), /could not start scrcpy-server/);
  assert.equal(jars(rig), [], 'no jar left behind');
});

test('a launch sweeps jars of ours pushed over 10 minutes ago by the phone\'s clock, in its own shell line; recent ones and other tools\' jars stay', async ({ rig }) => {
  if (!rig) return;
  plant(rig, 'scrcpy-server-0badc0de.jar', 11);
  plant(rig, 'scrcpy-server-7fffffff.jar', 60 * 24);
  // Another launch's, pushed 9 minutes ago: too recent to be sure its server will not start.
  plant(rig, 'scrcpy-server-1234abcd.jar', 9);
  // Pushed just now by a host whose clock is two hours behind: its mtime looks old, its change time does not.
  rig.phone.files.write(`${TMP}/scrcpy-server-5eedf00d.jar`, Buffer.from('jar'), undefined, Math.floor(Date.now() / 1000) - 120 * MINUTE);
  // scrcpy's own client and other tools name theirs otherwise.
  plant(rig, 'scrcpy-server.jar', 60);
  plant(rig, 'scrcpy-server-v3.3.1.jar', 60);
  rig.phone.stats.reset();
  await streams(rig, engineFor(rig));
  assert.equal(jars(rig), ['scrcpy-server-1234abcd.jar', 'scrcpy-server-5eedf00d.jar', 'scrcpy-server-v3.3.1.jar', 'scrcpy-server.jar']);
  const sweeping = rig.phone.stats.opened.filter((s) => /\bfind\b|\brm\b/.test(s));
  assert.is(sweeping.length, 1, JSON.stringify(rig.phone.stats.opened));
  assert.match(sweeping[0], /-delete >\/dev\/null 2>&1; CLASSPATH=\S+ app_process /);
});

test('Android 7 (toybox find without -cmin) and Android 5 (no find): leftovers stay, and the server starts all the same', async ({ rig }) => {
  if (!rig) return;
  for (const release of [{ version: '7.1.2', sdk: 25 }, { version: '5.1.1', sdk: 22 }]) {
    rig.phone.shell.quirks.release = release;
    plant(rig, 'scrcpy-server-0badc0de.jar', 11);
    await streams(rig, engineFor(rig));
    assert.equal(jars(rig), ['scrcpy-server-0badc0de.jar'], `Android ${release.version}`);
  }
});

test('the emulated find answers as toybox does: -delete prints what it deletes; releases without -cmin or -delete refuse the expression; none before Android 6', async ({ rig }) => {
  if (!rig) return;
  const run = async (line: string) => {
    const r = await rig.phone.shell.run(line);
    return { out: r.out.toString(), code: r.code };
  };
  plant(rig, 'scrcpy-server-0badc0de.jar', 11);
  plant(rig, 'scrcpy-server-1234abcd.jar', 1);
  const sweep = `find ${TMP} -maxdepth 1 -type f -name 'scrcpy-server-*.jar' -cmin +10 -delete`;
  rig.phone.shell.quirks.release = { version: '6.0.1', sdk: 23 };
  assert.equal(await run(sweep), { out: "find: bad arg '-cmin'\n", code: 1 });
  assert.equal(await run(`find ${TMP} -name '*.jar' -delete`), { out: "find: bad arg '-delete'\n", code: 1 });
  rig.phone.shell.quirks.release = { version: '7.1.2', sdk: 25 };
  assert.equal(await run(sweep), { out: "find: bad arg '-cmin'\n", code: 1 });
  rig.phone.shell.quirks.release = { version: '5.1.1', sdk: 22 };
  assert.equal(await run(sweep), { out: '/system/bin/sh: find: not found\n', code: 127 });
  assert.equal(await run(`${sweep} >/dev/null 2>&1`), { out: '', code: 127 });
  assert.equal(jars(rig), ['scrcpy-server-0badc0de.jar', 'scrcpy-server-1234abcd.jar']);
  rig.phone.shell.quirks.release = undefined;
  assert.equal(await run(`find ${TMP} -maxdepth 1 -name 'scrcpy-server-*.jar' -cmin -5`), { out: `${TMP}/scrcpy-server-1234abcd.jar\n`, code: 0 });
  assert.equal(await run(sweep), { out: `${TMP}/scrcpy-server-0badc0de.jar\n`, code: 0 });
  assert.equal(jars(rig), ['scrcpy-server-1234abcd.jar']);
});

test.run();
