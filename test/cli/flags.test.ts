import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseFlags } from '../../src/cli/command.js';
import { loadCommands } from '../../src/cli/commands/index.js';
import { engineSetupFromFlags } from '../../src/cli/engine-setup.js';
import { missingValueProblem } from '../../src/cli/missing-values.js';
import { unknownFlagProblem } from '../../src/cli/unknown-flags.js';

const run = promisify(execFile);
const MAIN = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

/** The CLI's state and home for the commands these tests run: never the user's own. */
const home = mkdtempSync(join(tmpdir(), 'mb-flags-home-'));
test.after(() => rmSync(home, { recursive: true, force: true }));

async function mb(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [MAIN, ...args], { env: { ...process.env, HOME: home, MOBILEBRIDGE_STATE_DIR: home } });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

test('a mistyped flag is refused with exit 3 and the flag it probably meant', async () => {
  const serve = await mb('serve', '--tokn', 'x', '--port', '0');
  assert.is(serve.code, 3);
  assert.is(serve.stdout, '', 'the bridge must not start');
  assert.match(serve.stderr, 'unknown flag --tokn for serve; did you mean --token?');

  const run = await mb('run', 'scenarios', '--devcies', 'a,b');
  assert.is(run.code, 3);
  assert.match(run.stderr, 'unknown flag --devcies for run; did you mean --devices?');

  const call = await mb('call', 'mobile_list_available_devices', '--no-virtaul');
  assert.is(call.code, 3);
  assert.match(call.stderr, 'did you mean --no-virtual?');

  // The list names the options as --help writes them: --no-virtual, not a --virtual that means nothing.
  const listed = await mb('serve', '--zzzzzzzz');
  assert.match(listed.stderr, /its options: .*--no-video, .*--no-virtual, --no-android, --adb, --wda, --no-ios,/);
  assert.not.match(listed.stderr, /--virtual,|--video|--android|--ios,/);

  const nothingClose = await mb('reset', '--everything');
  assert.is(nothingClose.code, 3);
  assert.match(nothingClose.stderr, 'unknown flag --everything for reset; it takes no options.');
});

test('call, devices and reset refused for a flag print the tool error JSON on stdout, as their other refusals do', async () => {
  for (const args of [['call', 'mobile_list_available_devices', '--no-andriod'], ['devices', '--no-andriod'], ['reset', '--everything']]) {
    const r = await mb(...args);
    assert.is(r.code, 3, args[0]);
    const answer = JSON.parse(r.stdout) as { status: string; code: string; message: string };
    assert.equal([answer.status, answer.code], ['error', 'INVALID_PARAMETER'], args[0]);
    assert.match(answer.message, `unknown flag ${args[args.length - 1]} for ${args[0]}`);
    assert.match(r.stderr, `unknown flag ${args[args.length - 1]} for ${args[0]}`);
  }
});

test('no "did you mean" for a short name two edits from any option (--foo is not --ios), one for a near miss', async () => {
  const commands = await loadCommands();
  const known = (name: string) => commands.find((c) => c.name === name)!.flags;
  assert.not.match(unknownFlagProblem('run', ['x.json', '--foo'], known('run')) ?? '', 'did you mean');
  assert.not.match(unknownFlagProblem('devices', ['--foo'], known('devices')) ?? '', 'did you mean');
  assert.match(unknownFlagProblem('serve', ['--prt', '1'], known('serve')) ?? '', 'did you mean --port?');
  assert.match(unknownFlagProblem('serve', ['--tokn', 'x'], known('serve')) ?? '', 'did you mean --token?');
});

test('each --help lists each of its options once (serve had --allow-path twice, worded apart)', async () => {
  for (const command of await loadCommands()) {
    for (const flag of command.flags) {
      const lines = command.usage.match(new RegExp(`^ {2}--(?:no-)?${flag}(?![\\w-])`, 'gm')) ?? [];
      assert.ok(lines.length <= 1, `${command.name} --help lists --${flag} ${lines.length} times`);
    }
  }
});

test('validate refused for a flag or a missing path still prints its one JSON envelope (SPEC §4), unless --quiet', async () => {
  const flag = await mb('validate', '--strict', 'x.json');
  assert.is(flag.code, 3);
  const env = JSON.parse(flag.stdout);
  assert.equal([env.ok, env.error.kind, env.data], [false, 'invalid_input', { valid: false, results: [] }]);
  assert.match(env.error.message, 'unknown flag --strict for validate');
  assert.match(flag.stderr, 'unknown flag --strict for validate');

  const bare = await mb('validate');
  assert.is(bare.code, 3);
  const bareEnv = JSON.parse(bare.stdout);
  assert.equal([bareEnv.ok, bareEnv.error.kind, bareEnv.error.message], [false, 'invalid_input', 'no scenario given: name at least one file, folder or glob']);
  assert.match(bare.stderr, 'Usage: mobilebridge validate');

  const none = await mb('validate', '--human');
  assert.is(none.code, 3);
  assert.match(none.stdout, /^invalid: no scenario given/);
  const quiet = await mb('validate', '--quiet', '--bogus');
  assert.equal([quiet.code, quiet.stdout], [3, '']);
});

test('every flag each command documents in its --help is accepted, including --no- forms and repeats', async () => {
  for (const command of await loadCommands()) {
    const documented = [...command.usage.matchAll(/--([a-z][a-z-]*)/g)].map((m) => m[1]);
    for (const name of documented) {
      assert.is(unknownFlagProblem(command.name, [`--${name}`, 'v'], command.flags), undefined, `${command.name} --${name}`);
    }
  }
  const serve = (await loadCommands()).find((c) => c.name === 'serve')!;
  const repeats = ['--adb', 'a=1.2.3.4:5037', '--adb=b=1.2.3.5:5037', '--wda', 'p=http://x:8100', '--peer', 'ws://h:1', '--peer', 'ws://h:2', '--allow-origin', 'http://a', '--allow-path', '/tmp', '--allow-path=/var'];
  assert.is(unknownFlagProblem('serve', repeats, serve.flags), undefined);
  const runCommand = (await loadCommands()).find((c) => c.name === 'run')!;
  assert.is(unknownFlagProblem('run', ['x.json', '--param', 'A=1', '--param=B=2', '--', '--not-a-flag'], runCommand.flags), undefined);
});

test('--virtual-devices picks the virtual devices (an iPad among them); an unknown model or one beside --no-virtual is refused', async () => {
  const picked = engineSetupFromFlags(parseFlags(['--virtual-devices', 'android,iPad,ipad']).flags, false);
  assert.equal(picked.virtual, { devices: ['android', 'ipad'] });
  assert.throws(() => engineSetupFromFlags(parseFlags(['--virtual-devices', 'android,ipda']).flags, false), /--virtual-devices does not know "ipda": give some of android, ios, ipad/);
  assert.throws(() => engineSetupFromFlags(parseFlags(['--no-virtual', '--virtual-devices', 'ipad']).flags, false), /contradict/);
  const listed = await mb('devices', '--no-android', '--no-ios', '--virtual-devices', 'ios,ipad');
  assert.is(listed.code, 0, listed.stderr);
  const ids = (JSON.parse(listed.stdout) as { devices: { id: string }[] }).devices.map((d) => d.id);
  assert.equal(ids.sort(), ['virtual-ios-1', 'virtual-ipad-1']);
  const bad = await mb('devices', '--no-android', '--no-ios', '--virtual-devices', 'tablet');
  assert.is(bad.code, 3);
  assert.match(bad.stderr, /--virtual-devices does not know "tablet"/);
});

test('--wda-url repeats reach the iOS driver as one shared URL and one per simulator', () => {
  const sim = '5A1B2C3D-0000-4000-8000-00000000000A';
  const { flags } = parseFlags(['--no-virtual', '--wda-url', 'http://127.0.0.1:8100', `--wda-url=${sim}=http://127.0.0.1:8101`, '--mjpeg-url', `${sim}=http://127.0.0.1:9101`]);
  assert.equal(engineSetupFromFlags(flags).ios, { wdaUrl: 'http://127.0.0.1:8100', wdaUrls: { [sim]: 'http://127.0.0.1:8101' }, mjpegUrls: { [sim]: 'http://127.0.0.1:9101' } });
});

test('--allow-path repeats add up in every command (only the last one counted outside serve), and one without a folder is refused', async () => {
  const { flags } = parseFlags(['--no-virtual', '--allow-path', '/tmp/a', '--allow-path=/tmp/b,/tmp/c']);
  assert.equal(engineSetupFromFlags(flags).allowPaths, ['/tmp/a', '/tmp/b', '/tmp/c']);
  const bare = parseFlags(['--no-virtual', '--allow-path']).flags;
  assert.throws(() => engineSetupFromFlags(bare), /--allow-path needs a folder/);
  const mcp = await mb('mcp', '--no-virtual', '--no-android', '--no-ios', '--allow-path');
  assert.is(mcp.code, 3, mcp.stderr);
  assert.match(mcp.stderr, /--allow-path needs a value: --allow-path DIR/);
  assert.is(mcp.stdout, '', 'nothing on the protocol channel');
});

test('an option that takes a value, given none, is refused before the command runs (it used to mean "the default")', async () => {
  const commands = await loadCommands();
  const usage = (name: string) => commands.find((c) => c.name === name)!.usage;
  // Last, or followed by another option: both leave it without its value.
  assert.is(missingValueProblem('run', ['a.json', '--device'], usage('run')), '--device needs a value: --device ID (see mobilebridge run --help)');
  assert.match(missingValueProblem('run', ['a.json', '--shard', '--out', 'o'], usage('run')) ?? '', /^--shard needs a value: --shard i\/n/);
  assert.match(missingValueProblem('serve', ['--port'], usage('serve')) ?? '', /^--port needs a value: --port P/);
  // Switches, --no- forms, --name=value and anything after -- are not asked for values.
  assert.is(missingValueProblem('run', ['a.json', '--reset', '--list', '--no-virtual', '--device=d', '--', '--out'], usage('run')), undefined);
  assert.is(missingValueProblem('validate', ['--human', 'a.json', '--quiet'], usage('validate')), undefined);
  // Every option each command documents with a value is one the check knows; every switch is left alone.
  for (const c of commands) {
    for (const flag of c.flags) {
      const bare = missingValueProblem(c.name, [`--${flag}`], c.usage);
      const documented = new RegExp(`^\\s*--${flag} \\S`, 'm').test(c.usage);
      assert.is(bare !== undefined, documented, `${c.name} --${flag}`);
    }
  }
  const refused = await mb('run', 'login.json', '--device');
  assert.is(refused.code, 3, refused.stderr);
  const envelope = JSON.parse(refused.stdout) as { ok: boolean; error: { message: string } };
  assert.match(envelope.error.message, '--device needs a value: --device ID');
});

test('an empty value (an unset variable, quoted, or --name=) is refused like a missing one: it meant the working folder, port 0, no wait', async () => {
  const commands = await loadCommands();
  const usage = (name: string) => commands.find((c) => c.name === name)!.usage;
  const empty = (command: string, ...args: string[]) => missingValueProblem(command, args, usage(command));
  assert.is(empty('run', 'a.json', '--out', ''), '--out needs a value (it was given an empty one): --out DIR (see mobilebridge run --help)');
  assert.match(empty('run', 'a.json', '--out=') ?? '', /^--out needs a value \(it was given an empty one\)/);
  assert.match(empty('run', 'a.json', '--target-wait', '') ?? '', /^--target-wait needs a value/);
  assert.match(empty('serve', '--port', '') ?? '', /^--port needs a value/);
  assert.match(empty('serve', '--port=') ?? '', /^--port needs a value/);
  assert.match(empty('call', 'mobile_list_available_devices', '--bridge', '') ?? '', /^--bridge needs a value/);
  // A switch followed by an empty argument is a switch and an (empty) argument, not a value.
  assert.is(empty('run', 'a.json', '--reset', ''), undefined);

  // The reports of a run given --out "" used to replace the working folder's own junit.xml and report.html.
  const work = mkdtempSync(join(tmpdir(), 'mb-empty-out-'));
  const login = fileURLToPath(new URL('../../../test/fixtures/scenarios/valid/login.json', import.meta.url));
  try {
    writeFileSync(join(work, 'junit.xml'), '<mine/>');
    const r = await run(process.execPath, [MAIN, 'run', login, '--out', '', '--no-android', '--no-ios'], { env: { ...process.env, MOBILEBRIDGE_STATE_DIR: work, HOME: work }, cwd: work }).then(
      ({ stdout }) => ({ code: 0, stdout }),
      (err: { code: number; stdout: string }) => ({ code: err.code, stdout: err.stdout }),
    );
    assert.is(r.code, 3, r.stdout);
    assert.match(JSON.parse(r.stdout).error.message, '--out needs a value (it was given an empty one)');
    assert.is(readFileSync(join(work, 'junit.xml'), 'utf8'), '<mine/>');
    assert.not.ok(existsSync(join(work, 'results')), 'nothing was written');
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});

test('run --devices: spaces after commas are not part of the ids; a list that names no device is refused', async () => {
  const state = mkdtempSync(join(tmpdir(), 'mb-devices-flag-'));
  const login = fileURLToPath(new URL('../../../test/fixtures/scenarios/valid/login.json', import.meta.url));
  const mbRun = (devices: string, ...more: string[]) =>
    run(process.execPath, [MAIN, 'run', login, '--devices', devices, '--no-android', '--no-ios', ...more], { env: { ...process.env, MOBILEBRIDGE_STATE_DIR: state }, cwd: state }).then(
      ({ stdout }) => ({ code: 0, stdout }),
      (err: { code: number; stdout: string }) => ({ code: err.code, stdout: err.stdout }),
    );
  try {
    const list = await mbRun('virtual-android-1, virtual-ios-1', '--list');
    assert.is(list.code, 0, list.stdout);
    const empty = await mbRun(',,');
    assert.is(empty.code, 3);
    assert.match(empty.stdout, '--devices names no device (got \\",,\\")');
  } finally {
    rmSync(state, { recursive: true, force: true });
  }
});

test('flags still reach the command: a documented flag with a bad value gets that command\'s own error', async () => {
  const port = await mb('serve', '--port', 'x');
  assert.is(port.code, 3);
  assert.match(port.stderr, '--port must be a whole number');
});

test('run --help says where --bridge leaves the screenshots, and that --list exits 2 for a missing device', async () => {
  const usage = (await loadCommands()).find((c) => c.name === 'run')!.usage.replace(/\s+/g, ' ');
  assert.match(usage, 'screenshots stay on the host that ran the steps');
  assert.match(usage, '2 a device that is not connected');
  assert.not.match(usage, 'are listed, exit 3');
});

test('call and devices --help say the device options (and call\'s --reset) are refused with --bridge', async () => {
  const commands = await loadCommands();
  for (const name of ['call', 'devices']) {
    const usage = commands.find((c) => c.name === name)!.usage.replace(/\s+/g, ' ');
    assert.match(usage, /--bridge URL [^-]*(?:--reset and )?the device options[^.]*refused/, name);
  }
});

test('every flag a command accepts is in its --help (a user finds what exists there)', async () => {
  for (const command of await loadCommands()) {
    // A boolean on by default is given as --no-NAME (--no-android); the rest as --NAME.
    const missing = command.flags.filter((flag) => !new RegExp(`--(?:no-)?${flag}\\b`).test(command.usage));
    assert.equal(missing, [], `${command.name} --help does not mention: ${missing.join(', ')}`);
  }
});

test.run();
