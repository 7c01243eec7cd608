import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Scenario } from '../../src/validate/index.js';
import { rig, run, scenario } from './harness.js';

const DEVICE = 'virtual-android-1';

test('a precondition install whose file is missing stops the run before any precondition: the app it would uninstall first is still there', async () => {
  const r = rig();
  try {
    const base = scenario(r, 'clear_data_cross');
    const fresh: Scenario = {
      ...base,
      preconditions: { app_state: 'fresh_install', device_actions: [{ action: 'uninstall_app', description: 'Remove the old build' }, { action: 'install_app', value: 'builds/not-built-yet.apk' }] },
    };
    const { document } = await run(r, 'clear_data_cross', DEVICE, { scenario: fresh });
    assert.is(document.status, 'error');
    assert.match(document.summary, /^error before the first step: INVALID_PARAMETER: precondition "install builds\/not-built-yet\.apk": no file at \S+not-built-yet\.apk .*nothing was done to the device/);
    assert.equal(document.steps_executed, []);
    const apps = (await r.engine.call('mobile_list_apps', { device: DEVICE })) as { apps: { packageName?: string; bundleId?: string; id?: string }[] };
    assert.ok(JSON.stringify(apps).includes(base.app_package), `${base.app_package} is still installed: ${JSON.stringify(apps).slice(0, 300)}`);
  } finally {
    await r.close();
  }
});

test.run();
