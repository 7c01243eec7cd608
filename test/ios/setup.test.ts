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

const SIM_A = '5A1B2C3D-0000-4000-8000-00000000000A';
const SIM_B = '5a1b2c3d-0000-4000-8000-00000000000b';

test('--wda-url / --mjpeg-url: one URL for all simulators plus UDID=URL for single ones', () => {
  assert.equal(iosSetupFromFlags({ wdaUrl: `http://127.0.0.1:8100,${SIM_A}=http://127.0.0.1:8101/,${SIM_B}=http://127.0.0.1:8102` }), {
    wdaUrl: 'http://127.0.0.1:8100',
    wdaUrls: { [SIM_A]: 'http://127.0.0.1:8101', [SIM_B.toUpperCase()]: 'http://127.0.0.1:8102' },
  });
  assert.equal(iosSetupFromFlags({ wdaUrl: `${SIM_A}=http://127.0.0.1:8101`, mjpegUrl: `${SIM_A}=http://127.0.0.1:9101` }), {
    wdaUrls: { [SIM_A]: 'http://127.0.0.1:8101' },
    mjpegUrls: { [SIM_A]: 'http://127.0.0.1:9101' },
  });
  assert.equal(iosSetupFromFlags({ mjpegUrl: 'http://10.0.0.2:9100' }), { mjpegUrl: 'http://10.0.0.2:9100' });
  assert.throws(() => iosSetupFromFlags({ wdaUrl: 'http://a:1,http://b:2' }), /--wda-url is given twice without a simulator UDID/);
  assert.throws(() => iosSetupFromFlags({ wdaUrl: 'iphone=http://a:1' }), /"iphone" is not a simulator UDID/);
  assert.throws(() => iosSetupFromFlags({ wdaUrl: `${SIM_A}=http://a:1,${SIM_A.toLowerCase()}=http://a:2` }), /names simulator .* twice/);
  assert.throws(() => iosSetupFromFlags({ mjpegUrl: `${SIM_A}=a:1` }), /--mjpeg-url must be an http:\/\/ URL/);
});

test.run();
