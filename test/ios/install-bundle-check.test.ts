import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

import { buildZip } from '../harness/zip-writer.js';
import { makeRig } from './rig.js';

/** Audit 24 c5 #5: a file that is no iOS app bundle is refused before simctl or go-ios is handed it. */

function badFiles(dir: string): [string, RegExp][] {
  writeFileSync(join(dir, 'x.apk'), 'not an app');
  writeFileSync(join(dir, 'zero.ipa'), '');
  writeFileSync(join(dir, 'none.ipa'), buildZip([{ name: 'Payload/readme.txt', data: Buffer.from('x') }]));
  mkdirSync(join(dir, 'Plain.app'));
  return [
    [join(dir, 'x.apk'), /installs \.ipa or \.app files; got "x\.apk"/],
    [join(dir, 'zero.ipa'), /zero\.ipa is not a readable \.ipa/],
    [join(dir, 'none.ipa'), /holds no Payload\/<name>\.app\/Info\.plist; is it an \.ipa\?/],
    [join(dir, 'Plain.app'), /Plain\.app has no Info\.plist; is it an app bundle\?/],
  ];
}

for (const [kind, options, tool] of [
  ['simulator', {}, 'xcrun simctl install'],
  ['iPhone', { phone: { version: '16.7', tunnel: false } }, 'ios install'],
] as const) {
  test(`${kind}: a non-app file, an empty or Payload-less .ipa and an .app without Info.plist are INVALID_PARAMETER; ${tool} never runs`, async () => {
    const rig = await makeRig(options);
    try {
      for (const [path, expected] of badFiles(rig.dir)) {
        const r = await rig.call('mobile_install_app', { path });
        assert.is(r.code, 'INVALID_PARAMETER', JSON.stringify(r));
        assert.match(r.message, expected);
      }
      assert.not.ok(rig.tools.calls.some((c) => c.startsWith(tool)), rig.tools.calls.join(' | '));
    } finally {
      await rig.close();
    }
  });
}

test.run();
