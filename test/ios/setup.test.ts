import { test } from 'uvu';
import * as assert from 'uvu/assert';

import { iosSetupFromFlags } from '../../src/engine/drivers/ios/index.js';

test('iosSetupFromFlags: --no-ios, --wda-url, --wda-project, --wda-runner, --wda-device-port', () => {
  assert.is(iosSetupFromFlags({ noIos: true, wdaUrl: 'http://x:1' }), false);
  assert.equal(iosSetupFromFlags({}), {});
  assert.equal(iosSetupFromFlags({ wdaUrl: 'http://127.0.0.1:8200/', wdaProject: '/src/WebDriverAgent', wdaDevicePort: '8101' }), {
    wdaUrl: 'http://127.0.0.1:8200',
    wdaStart: { project: '/src/WebDriverAgent', runner: undefined },
    deviceWdaPort: 8101,
  });
  assert.throws(() => iosSetupFromFlags({ wdaUrl: 'localhost:8100' }), /--wda-url must be an http:\/\/ URL/);
  assert.throws(() => iosSetupFromFlags({ wdaUrl: 'not a url' }), /--wda-url "not a url" is not a URL/);
  assert.throws(() => iosSetupFromFlags({ wdaDevicePort: 'x' }), /--wda-device-port must be a port number/);
});

test.run();
