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

test.run();
