import { test } from 'uvu';
import * as assert from 'uvu/assert';

import { makeRig } from './rig.js';

const DEMO = 'com.mobilebridge.demo';

test('rotating an app that supports only portrait is UNSUPPORTED naming the app in front; nothing changes', async () => {
  const rig = await makeRig();
  try {
    rig.wda.faults.portraitOnly = [DEMO];
    await rig.call('mobile_launch_app', { packageName: DEMO });
    const r = await rig.call('mobile_set_orientation', { orientation: 'landscape' });
    assert.is(r.code, 'UNSUPPORTED', JSON.stringify(r));
    assert.match(r.message, /com\.mobilebridge\.demo, the app in front, does not support landscape/);
    assert.equal(await rig.call('mobile_get_orientation'), { orientation: 'portrait' });
    assert.is((await rig.call('mobile_set_orientation', { orientation: 'portrait' })).status, 'success');
  } finally {
    await rig.close();
  }
});

test.run();
