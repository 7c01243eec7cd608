import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { deadPort } from '../support/dead-port.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';

const run = promisify(execFile);
const MAIN = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

const cli = suite<{ state: string }>('mobilebridge command line');

cli.before((ctx) => {
  ctx.state = mkdtempSync(join(tmpdir(), 'mb-cli-'));
});
cli.after((ctx) => rmSync(ctx.state, { recursive: true, force: true }));

// Device commands run without the Android and iOS drivers: a test must never start or reach the user's adb server.
const ONLY_VIRTUAL = ['--no-android', '--no-ios'];

async function mb(state: string, ...args: string[]): Promise<{ code: number; out: string; json: any }> {
  return mbWith({}, state, ...args);
}

async function mbWith(env: Record<string, string>, state: string, ...args: string[]): Promise<{ code: number; out: string; json: any }> {
  const opensDevices = ['devices', 'call'].includes(args[0]) && !args.includes('--help');
  try {
    const { stdout } = await run(process.execPath, [MAIN, ...args, ...(opensDevices ? ONLY_VIRTUAL : [])], { env: { ...process.env, MOBILEBRIDGE_STATE_DIR: state, ...env }, cwd: state });
    return { code: 0, out: stdout, json: safeJson(stdout) };
  } catch (err) {
    const e = err as { code: number; stdout: string };
    return { code: e.code, out: e.stdout, json: safeJson(e.stdout) };
  }
}
const safeJson = (s: string) => {
  try {
    return JSON.parse(s);
  } catch {
    return undefined;
  }
};

cli('devices lists the virtual phones as JSON', async ({ state }) => {
  const r = await mb(state, 'devices');
  assert.is(r.code, 0);
  assert.equal(r.json.devices.map((d: { id: string }) => d.id), ['virtual-android-1', 'virtual-ios-1']);
});

cli('successive call processes act on one continuing phone; reset starts fresh', async ({ state }) => {
  const dev = { device: 'virtual-android-1' };
  assert.is((await mb(state, 'call', 'mobile_launch_app', JSON.stringify({ ...dev, packageName: 'com.mobilebridge.demo' }))).code, 0);
  const listed = await mb(state, 'call', 'mobile_list_elements_on_screen', JSON.stringify(dev));
  const email = listed.json.elements.find((e: { id: string }) => e.id === 'email');
  assert.ok(email, 'the sign-in screen the previous process opened is still there');
  await mb(state, 'call', 'mobile_click_on_screen_at_coordinates', JSON.stringify({ ...dev, ...email.center }));
  await mb(state, 'call', 'mobile_type_keys', JSON.stringify({ ...dev, text: 'kept@example.com' }));
  const again = await mb(state, 'call', 'mobile_list_elements_on_screen', JSON.stringify(dev));
  assert.is(again.json.elements.find((e: { id: string }) => e.id === 'email').text, 'kept@example.com');

  const reset = await mb(state, 'reset');
  assert.equal([reset.code, reset.json.message], [0, `virtual devices reset (removed ${join(state, 'virtual-devices.json')})`]);
  assert.is((await mb(state, 'reset')).json.message, `virtual devices are already fresh (no saved state at ${join(state, 'virtual-devices.json')})`, 'nothing to remove is not "removed"');
  const fresh = await mb(state, 'call', 'mobile_get_foreground_app', JSON.stringify(dev));
  assert.is.not(fresh.json.package, 'com.mobilebridge.demo');
});

cli('schema: an unknown name is a usage error (exit 3), naming the two there are', async ({ state }) => {
  const [r, result] = await Promise.all([mb(state, 'schema', 'nope'), mb(state, 'schema', 'result')]);
  assert.is(r.code, 3);
  assert.is(result.json.title, 'mobilebridge run result');
});

cli('failures print the tool error shape and exit with the mapped code', async ({ state }) => {
  // None of them changes a phone, so they can go side by side.
  const [notFound, badParam, badJson, missingApp] = await Promise.all([
    mb(state, 'call', 'mobile_get_screen_size', '{"device":"nope"}'),
    mb(state, 'call', 'mobile_swipe_on_screen', '{"device":"virtual-android-1","direction":"diagonal"}'),
    mb(state, 'call', 'mobile_get_screen_size', '{device:'),
    mb(state, 'call', 'mobile_launch_app', '{"device":"virtual-ios-1","packageName":"com.example.none"}'),
  ]);
  assert.is(notFound.code, 2);
  assert.is(notFound.json.code, 'DEVICE_NOT_FOUND');
  assert.is(badParam.code, 3);
  assert.is(badParam.json.code, 'INVALID_PARAMETER');
  assert.is(badJson.code, 3);
  assert.match(badJson.json.message, /not valid JSON/);
  assert.is(missingApp.code, 2);
  assert.is(missingApp.json.code, 'APP_NOT_INSTALLED');
});

cli('call takes null for an optional parameter and a listed value in any case; a parameter error names the device', async ({ state }) => {
  const swiped = await mb(state, 'call', 'mobile_swipe_on_screen', '{"device":"virtual-android-1","direction":"UP","distance":null}');
  assert.equal([swiped.code, swiped.json.message], [0, 'swiped up 720 px on virtual-android-1']);
  const refused = await mb(state, 'call', 'mobile_type_keys', '{"device":"virtual-android-1","text":null}');
  assert.equal([refused.code, refused.json.message], [3, 'mobile_type_keys on virtual-android-1: text is required: the text to type']);
});

cli('an argument call or devices does not take is refused (exit 3), not dropped', async ({ state }) => {
  // The shell split an unquoted JSON at its space: running the first half alone would be another call.
  // Refused before any phone is opened, so they can go side by side.
  const [split, extra, devices] = await Promise.all([
    mb(state, 'call', 'mobile_type_keys', '{"device":"virtual-android-1","text":"hello', 'world"}'),
    mb(state, 'call', 'mobile_list_apps', '{"device":"virtual-android-1"}', 'virtual-ios-1'),
    mb(state, 'devices', 'android'),
  ]);
  assert.is(split.code, 3);
  assert.is(split.json.code, 'INVALID_PARAMETER');
  assert.match(split.json.message, /^unexpected argument "world.*": call takes a tool name and one JSON object of parameters, quoted as one argument/);
  assert.equal([extra.code, extra.json.code], [3, 'INVALID_PARAMETER']);
  assert.equal([devices.code, devices.json.code], [3, 'INVALID_PARAMETER']);
  assert.match(devices.json.message, /unexpected argument "android": devices takes only options/);
});

cli('a bad setting in the environment is invalid input (exit 3), not an internal error', async ({ state }) => {
  const r = await mbWith({ MOBILEBRIDGE_BACKGROUND_NICE: 'high' }, state, 'call', 'mobile_list_available_devices', '{}');
  assert.is(r.code, 3);
  assert.is(r.json.code, 'INVALID_PARAMETER');
  assert.match(r.json.message, /MOBILEBRIDGE_BACKGROUND_NICE must be a whole number from 0 to 19/);
});

cli('a bad device flag or a state folder that cannot be used is invalid input (exit 3) before any phone is touched', async ({ state }) => {
  const timeout = await mb(state, 'call', 'mobile_get_screen_size', '{"device":"virtual-android-1"}', '--timeout', 'soon');
  assert.equal([timeout.code, timeout.json.code], [3, 'INVALID_PARAMETER']);
  assert.match(timeout.json.message, /--timeout must be a positive whole number of milliseconds \(got soon\)/);
  // A file where the state folder should be: the launch used to run, then fail to save, and say INTERNAL "EEXIST".
  const file = join(state, 'not-a-folder');
  writeFileSync(file, '');
  const launch = await mbWith({ MOBILEBRIDGE_STATE_DIR: file }, state, 'call', 'mobile_launch_app', '{"device":"virtual-android-1","packageName":"com.mobilebridge.demo"}');
  assert.equal([launch.code, launch.json.code], [3, 'INVALID_PARAMETER']);
  assert.match(launch.json.message, new RegExp(`state in ${file} \\(MOBILEBRIDGE_STATE_DIR\\), but it is a file, not a folder; set MOBILEBRIDGE_STATE_DIR to a folder`));
  const front = await mb(state, 'call', 'mobile_get_foreground_app', '{"device":"virtual-android-1"}');
  assert.is.not(front.json.package, 'com.mobilebridge.demo', 'the refused call launched nothing');
});

cli('a call on a virtual phone does not touch adb: no server started, no device feed opened', async ({ state }) => {
  // A fake adb first on PATH records any run; the port is one nothing listens on.
  const bin = join(state, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'adb'), `#!/bin/sh\necho "$*" >> '${join(state, 'adb-runs.log')}'\nexit 1\n`, { mode: 0o755 });
  const port = await deadPort();
  const env = { ...process.env, MOBILEBRIDGE_STATE_DIR: state, PATH: `${bin}:${process.env.PATH}`, ANDROID_ADB_SERVER_PORT: String(port) };
  const { stdout } = await run(process.execPath, [MAIN, 'call', 'mobile_get_screen_size', '{"device":"virtual-android-1"}', '--no-ios'], { env, cwd: state });
  assert.equal(JSON.parse(stdout), { width: 1080, height: 2400 });
  assert.not.ok(existsSync(join(state, 'adb-runs.log')), 'adb was run');
});

cli('--help on every command, --version, unknown command', async ({ state }) => {
  const top = await mb(state, '--help');
  assert.is(top.code, 0);
  const names = [...top.out.matchAll(/^ {2}(\S+) {2,}/gm)].map((m) => m[1]);
  assert.ok(names.includes('devices') && names.includes('call'));
  // Help, version and an unknown command read nothing and write nothing: all side by side.
  const [version, unknown, none, ...helps] = await Promise.all([mb(state, '--version'), mb(state, 'frobnicate'), mb(state), ...names.map((name) => mb(state, name, '--help'))]);
  names.forEach((name, i) => {
    assert.is(helps[i].code, 0, name);
    assert.match(helps[i].out, new RegExp(`Usage: mobilebridge ${name}`), name);
  });
  assert.match(version.out, /^\d+\.\d+\.\d+/);
  // A usage error, as an unknown flag is (exit 3): SPEC §4 keeps 1 for internal errors.
  assert.is(unknown.code, 3);
  assert.is(none.code, 3);
  assert.match(none.out, 'Usage: mobilebridge <command>');
});

cli.run();
