import { test } from 'uvu';
import * as assert from 'uvu/assert';

import { simctlReason } from '../../src/engine/drivers/ios/simctl.js';
import { makeRig } from './rig.js';
import { writeIpa } from '../harness/ipa-builder.js';

/*
 * simctl prints the reason of a failure between "An error was encountered processing the command (…):" and the first
 * "Underlying error", and often ends with "Please try again later.": the reason lines are quoted, not the last line.
 */

/** A real `xcrun simctl install` refusal (NyaMisty/ipatool-py#74, Xcode 15.2), exit 1. */
const SAFEWAY = `An error was encountered processing the command (domain=IXUserPresentableErrorDomain, code=1):
Simulator device returned an error for the requested operation.
Please try again later.
Appex bundle at /Users/x/Library/Developer/CoreSimulator/Devices/A342/data/Library/Caches/com.apple.mobile.installd.staging/temp.yDszrT/extracted/Safeway.app/PlugIns/Widget.appex with id com.safeway.j4u.Widget specifies a value (com.apple.widgetkit-extension) for the NSExtensionPointIdentifier key in the NSExtension dictionary in its Info.plist that does not correspond to a known extension point.
Underlying error (domain=IXUserPresentableErrorDomain, code=1):
	Unable To Install “Safeway”
	Please try again later.
`;

test('simctlReason: the reason lines with domain and code, never "Please try again later."', () => {
  const said = simctlReason(SAFEWAY);
  assert.match(said, /^Appex bundle at .* does not correspond to a known extension point\. \(domain=IXUserPresentableErrorDomain, code=1\)$/);
  assert.not.match(said, /try again later|Unable To Install/);
  // Repeats said once; the generic line only when nothing else is said; no header: the last line.
  assert.is(
    simctlReason('An error was encountered processing the command (domain=NSPOSIXErrorDomain, code=3):\nSimulator device returned an error for the requested operation.\nfound nothing to terminate\nfound nothing to terminate\nUnderlying error (domain=NSPOSIXErrorDomain, code=3):\n\tfound nothing to terminate\n'),
    'found nothing to terminate (domain=NSPOSIXErrorDomain, code=3)',
  );
  assert.is(simctlReason('An error was encountered processing the command (domain=X, code=2):\nSimulator device returned an error for the requested operation.\nPlease try again later.\n'), 'Simulator device returned an error for the requested operation. (domain=X, code=2)');
  assert.is(simctlReason('Invalid device: ABC\n'), 'Invalid device: ABC');
});

test('a simulator refusing an install: INVALID_PARAMETER quoting installd\'s reason from the middle of simctl\'s output', async () => {
  const rig = await makeRig();
  try {
    const bad = writeIpa(rig.dir, { bundleId: 'com.example.broken', platform: 'iPhoneSimulator' }, 'Broken.ipa');
    // The driver refuses a file that is no .ipa before the tool runs: the tool fails on a real one here.
    rig.device.installApp = async () => {
      throw new Error('not a zip archive');
    };
    const r = await rig.call('mobile_install_app', { path: bad });
    assert.is(r.code, 'INVALID_PARAMETER', JSON.stringify(r));
    assert.match(r.message, /refused to install .*Broken\.ipa: .+ \(domain=IXUserPresentableErrorDomain, code=1\) \(a simulator needs/);
    assert.not.match(r.message, /Please try again later|Unable To Install|returned an error for the requested operation/);
  } finally {
    await rig.close();
  }
});

test.run();
