import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

import { createEngine } from '../../src/engine/create.js';
import { SIM_UDID } from './rig.js';

/*
 * States in which xcrun itself refuses to run simctl, whatever the subcommand. The fake xcrun here prints
 * what xcrun prints and exits as it does (texts quoted in flutter/flutter#16427 and scriptPilot/app-framework#674
 * for the license, exit 69; the invalid developer path after a macOS upgrade, exit 1).
 */

async function withXcrun(stderr: string, code: number, run: (call: (tool: string) => Promise<any>) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'mb-xcrun-'));
  const xcrun = join(dir, 'xcrun');
  writeFileSync(xcrun, `#!${process.execPath}\nprocess.stderr.write(${JSON.stringify(stderr)});\nprocess.exitCode = ${code};\n`);
  chmodSync(xcrun, 0o755);
  const engine = createEngine({ virtual: false, ios: { xcrun, goIos: join(dir, 'no-go-ios') }, allowPaths: [dir] });
  try {
    await run((tool) => engine.call(tool, { device: SIM_UDID }));
  } finally {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

test('Xcode license not accepted: a simulator id gets UNSUPPORTED with `sudo xcodebuild -license accept`, not "device not found"', async () => {
  const said = 'Agreeing to the Xcode/iOS license requires admin privileges, please run “sudo xcodebuild -license” and then retry this command.\n';
  await withXcrun(said, 69, async (call) => {
    const r = await call('mobile_list_apps');
    assert.is(r.code, 'UNSUPPORTED', JSON.stringify(r));
    assert.match(r.message, `device ${SIM_UDID} looks like an iOS simulator id, but Xcode's license has not been accepted`);
    assert.match(r.message, 'sudo xcodebuild -license accept');
  });
});

test('developer directory gone (Command Line Tools after a macOS upgrade): UNSUPPORTED naming the missing path and how to select Xcode', async () => {
  const said = 'xcrun: error: invalid active developer path (/Library/Developer/CommandLineTools), missing xcrun at: /Library/Developer/CommandLineTools/usr/bin/xcrun\n';
  await withXcrun(said, 1, async (call) => {
    const r = await call('mobile_list_elements_on_screen');
    assert.is(r.code, 'UNSUPPORTED', JSON.stringify(r));
    assert.match(r.message, 'the selected developer directory /Library/Developer/CommandLineTools is missing');
    assert.match(r.message, 'xcode-select -s');
  });
});

test.run();
