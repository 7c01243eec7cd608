import { test } from 'uvu';
import * as assert from 'uvu/assert';

import { makeRig, PHONE_UDID } from './rig.js';

/*
 * go-ios's "processcontrol failed" never names Developer Mode, the usual reason on iOS 16+; `ios devmode get` tells
 * (cmd_device_management.go). And go-ios 1.1+ says "run `ios tunnel start`" on iOS 17+ for any such failure
 * (ios/instruments/helper.go instrumentsUnavailableErr), also when the tunnel is up.
 */

const DEMO = 'com.mobilebridge.demo';

for (const [version, logs] of [['16.7', 'logrus'], ['17.4', 'slog']] as const) {
  test(`iOS ${version}, Developer Mode off: launch and stop are UNSUPPORTED naming Developer Mode and where to turn it on`, async () => {
    const rig = await makeRig({ phone: { version, tunnel: true } });
    try {
      rig.tools.config.goIosLogs = logs;
      rig.tools.config.phones[0].developerMode = false;
      for (const tool of ['mobile_launch_app', 'mobile_terminate_app']) {
        const r = await rig.call(tool, { packageName: DEMO });
        assert.is(r.code, 'UNSUPPORTED', `${tool}: ${JSON.stringify(r)}`);
        assert.match(r.message, new RegExp(`^Developer Mode is off on iPhone ${PHONE_UDID} .*Settings › Privacy & Security › Developer Mode .*ios devmode reveal --udid=${PHONE_UDID}`));
        assert.not.match(r.message, /run `ios tunnel start`/);
      }
      assert.ok(rig.tools.calls.includes(`ios devmode get --udid=${PHONE_UDID}`));
    } finally {
      await rig.close();
    }
  });
}

test('iOS 17 with the tunnel up and Developer Mode on, no developer image: go-ios\'s "run `ios tunnel start`" is not repeated', async () => {
  const rig = await makeRig({ phone: { version: '17.4', tunnel: true } });
  try {
    rig.tools.config.goIosLogs = 'slog';
    rig.tools.config.phones[0].noDeveloperImage = true;
    const r = await rig.call('mobile_launch_app', { packageName: DEMO });
    assert.is(r.code, 'INTERNAL', JSON.stringify(r));
    assert.match(r.message, /processcontrol failed: .*its go-ios tunnel is up \(checked with `ios tunnel ls`\).*ios image auto --udid=/);
    assert.not.match(r.message, /run `ios tunnel start`/);
  } finally {
    await rig.close();
  }
});

test('iOS 15: no Developer Mode to ask about; go-ios\'s failure is quoted as before', async () => {
  const rig = await makeRig({ phone: { version: '15.8', tunnel: false } });
  try {
    rig.tools.config.phones[0].noDeveloperImage = true;
    const r = await rig.call('mobile_launch_app', { packageName: DEMO });
    assert.is(r.code, 'INTERNAL', JSON.stringify(r));
    assert.match(r.message, /processcontrol failed/);
    assert.not.ok(rig.tools.calls.some((c) => c.startsWith('ios devmode')));
  } finally {
    await rig.close();
  }
});

test.run();
