import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { hasAdb, startRig, until } from '../android/setup.js';
import { writeApk } from '../harness/apk-builder.js';
import { exitWithOutput } from '../support/child-exit.js';

const MAIN = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

// SIGTERM is what a CI timeout, `timeout 60 mobilebridge call …` and docker stop send: it cancels as Ctrl-C does.
for (const [signal, exitCode] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const) {
  test(`${signal} during \`mobilebridge call mobile_install_app\`: the install session is abandoned on the phone, the answer says so, exit ${exitCode}`, async () => {
    if (!hasAdb()) return;
    const rig = await startRig();
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mb-call-cancel-'));
    let child: ReturnType<typeof spawn> | undefined;
    try {
      const apk = writeApk(tmp, { package: 'com.example.ctrlc', label: 'Ctrl C' });
      rig.phone.shell.quirks.installConfirmation = true;
      rig.phone.stats.reset();
      const params = JSON.stringify({ device: rig.phone.serial, path: apk });
      child = spawn(process.execPath, [MAIN, 'call', 'mobile_install_app', params, '--adb', `127.0.0.1:${rig.server.port}`, '--no-virtual', '--no-ios'], {
        env: { ...process.env, MOBILEBRIDGE_STATE_DIR: tmp },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
      const exited = exitWithOutput(child);
      await until(() => rig.phone.stats.opened.some((s) => s.includes('install-commit')), 'the commit to wait on the phone', 20_000);
      child.kill(signal);
      const code = await exited;
      assert.is(code, exitCode, `${stdout}\n${stderr}`);
      assert.match(stderr, /cancelling mobile_install_app/);
      const answer = JSON.parse(stdout) as { code: string; message: string };
      assert.is(answer.code, 'INTERNAL');
      assert.match(answer.message, /was stopped \(cancelled by its caller\); install session \d+ was abandoned on the phone/);
      assert.ok(rig.phone.stats.opened.some((s) => /^exec:pm install-abandon \d+$/.test(s)), rig.phone.stats.opened.join('\n'));
      assert.equal([...rig.phone.shell.installSessions.open.keys()], [], 'no install session left open');
    } finally {
      if (child && child.exitCode === null) child.kill('SIGKILL');
      await rig.stop();
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
}

test.run();
