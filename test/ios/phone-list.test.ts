import { test } from 'uvu';
import * as assert from 'uvu/assert';

import { makeRig, PHONE_UDID } from './rig.js';

/** Listing iPhones when go-ios cannot query one of them (main.go outputDetailedList exits at the first failure). */

const UNTRUSTED = '00008030-000C19AE0E91802E';

test('an iPhone that has not trusted this computer is listed as unauthorized with what to do; the others stay usable', async () => {
  const rig = await makeRig({ phone: { version: '16.7.8', tunnel: false } });
  try {
    rig.tools.config.goIosLogs = 'slog';
    // Never reached: lockdown refuses the untrusted phone before anything would use its device.
    rig.tools.config.phones.push({ udid: UNTRUSTED, productType: 'iPhone12,8', version: '16.7.8', device: rig.device, tunnel: false, wda: rig.wda, untrusted: true });
    const { devices } = (await rig.engine.call('mobile_list_available_devices', {})) as { devices: { id: string; state: string; model: string; version: string; message?: string }[] };
    const byId = new Map(devices.map((d) => [d.id, d]));
    assert.equal(byId.get(PHONE_UDID), { id: PHONE_UDID, os: 'iOS', model: 'iPhone14,5', version: '16.7.8', state: 'ready', source: 'ios' } as never);
    const untrusted = byId.get(UNTRUSTED);
    assert.ok(untrusted, `the untrusted phone is listed: ${JSON.stringify(devices)}`);
    assert.is(untrusted!.state, 'unauthorized');
    assert.match(untrusted!.message ?? '', /could not retrieve PairRecord.*unlock it and tap Trust on the phone/);
    assert.ok((await rig.call('mobile_list_apps')).apps.length > 0, 'the trusted phone still works');
    const refused = await rig.engine.call('mobile_list_apps', { device: UNTRUSTED }) as { code: string; message: string };
    assert.is(refused.code, 'PERMISSION_DENIED', JSON.stringify(refused));
    assert.match(refused.message, /tap Trust/);
  } finally {
    await rig.close();
  }
});

test.run();
