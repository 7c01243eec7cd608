import { test } from 'uvu';
import * as assert from 'uvu/assert';

import { createEngine } from '../../src/engine/create.js';
import { ToolError } from '../../src/engine/errors.js';
import { writeAppBundle } from '../harness/ipa-builder.js';
import { makeRig, SIM_UDID } from './rig.js';

/** Two callers on one iOS device at once (a viewer's video outside the device queue, a call in it) get what each would alone. */

const RUNNER = 'com.facebook.WebDriverAgentRunner.xctrunner';

test('WebDriverAgent being started for one caller: another caller waiting on the same start is not failed when the first gives up', async () => {
  let launched!: () => void;
  const launch = new Promise<void>((resolve) => (launched = resolve));
  const rig = await makeRig({ wdaDown: true, onLaunch: () => ({ [RUNNER]: async () => launched() }) });
  const runner = writeAppBundle(rig.dir, { bundleId: RUNNER, name: 'WebDriverAgentRunner-Runner' });
  const engine = createEngine({ virtual: false, ios: { wdaUrl: rig.wda.url, wdaStart: { runner } } });
  try {
    const device = await engine.withDevice(SIM_UDID, 'test', async (d) => d);
    // A viewer's video asks first, with a short deadline of its own; a tool call joins the same start.
    const viewer = new AbortController();
    const first = device.screenshot({ signal: viewer.signal, deadline: performance.now() + 60_000 }).then(() => 'ok', (err: Error) => err.message);
    const second = device.screenshot({ signal: AbortSignal.timeout(60_000), deadline: performance.now() + 60_000 }).then(() => 'ok', (err: Error) => err.message);
    await launch;
    viewer.abort(new ToolError('TIMEOUT', "the viewer's video did not start within 10000 ms"));
    assert.match(await first, /viewer's video/);
    await rig.wda.start();
    assert.is(await second, 'ok');
  } finally {
    await engine.close();
    await rig.close();
  }
});

test('a WebDriverAgent session being opened for one caller: another caller waiting on it is not failed when the first gives up', async () => {
  const rig = await makeRig();
  try {
    const device = await rig.engine.withDevice(SIM_UDID, 'test', async (d) => d);
    let answer!: () => void;
    rig.wda.faults.slowOn = { request: /^POST \/session$/, until: new Promise<void>((resolve) => (answer = resolve)) };
    const viewer = new AbortController();
    const first = device.getOrientation({ signal: viewer.signal, deadline: performance.now() + 60_000 }).then((o) => o, (err: Error) => err.message);
    const second = device.getOrientation({ signal: AbortSignal.timeout(60_000), deadline: performance.now() + 60_000 }).then((o) => o, (err: Error) => err.message);
    while (!rig.wda.requests.includes('POST /session')) await new Promise((r) => setTimeout(r, 10));
    viewer.abort(new ToolError('TIMEOUT', "the viewer's video did not start within 10000 ms"));
    assert.match(await first, /viewer's video/);
    answer();
    assert.is(await second, 'portrait');
    assert.is(rig.wda.requests.filter((r) => r === 'POST /session').length, 1, rig.wda.requests.join('\n'));
  } finally {
    await rig.close();
  }
});

test.run();
