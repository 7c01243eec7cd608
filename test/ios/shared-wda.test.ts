import { test } from 'uvu';
import * as assert from 'uvu/assert';

import { createEngine } from '../../src/engine/create.js';
import { writeAppBundle } from '../harness/ipa-builder.js';
import { EmulatedWda } from '../harness/wda/emulated-wda.js';
import { find, makeRig, SIM_UDID, type Rig } from './rig.js';

/**
 * Several booted simulators, one WebDriverAgent at the default URL (simulator A's). /status carries no UDID;
 * /wda/device/info's name and /status's iOS version are matched with simctl's list before B uses it.
 */

const SIM_B = '0B7E55D2-1A44-4B0A-8F0C-2E9D6A1B7C33';
const DEMO = 'com.mobilebridge.demo';

async function tapEmail(call: (tool: string, params?: Record<string, unknown>) => Promise<any>): Promise<any> {
  await call('mobile_launch_app', { packageName: DEMO });
  const listed = await call('mobile_list_elements_on_screen');
  if (!listed.elements) return listed;
  return call('mobile_click_on_screen_at_coordinates', find(listed.elements, 'Email').center);
}

test('another simulator\'s WDA at the shared URL is refused, naming it and the per-simulator URL option; nothing reaches it', async () => {
  const rig = await makeRig({ moreSimulators: [{ udid: SIM_B, name: 'iPhone 15 Pro' }] });
  try {
    const onB = (tool: string, params: Record<string, unknown> = {}) => rig.engine.call(tool, { device: SIM_B, ...params }) as Promise<any>;
    const r = await tapEmail(onB);
    assert.is(r.code, 'UNSUPPORTED', JSON.stringify(r));
    assert.match(r.message, new RegExp(`belongs to simulator iPhone 15 \\(${SIM_UDID}\\), not to simulator iPhone 15 Pro \\(${SIM_B}\\)`));
    assert.match(r.message, /--wda-url \S+=http:\/\/127.0.0.1:8101/);
    assert.not.ok(rig.wda.requests.some((x) => x.startsWith('POST /session')), `nothing was sent to A's WDA: ${rig.wda.requests.join(', ')}`);
    assert.is((await tapEmail(rig.call)).status, 'success', 'A still uses its own WDA');
    assert.is(rig.device.focusedField, 'email');
  } finally {
    await rig.close();
  }
});

test('a WDA whose name tells nothing ("iPhone") on the same iOS version cannot be told apart: refused, not guessed', async () => {
  const rig = await makeRig({ moreSimulators: [{ udid: SIM_B, name: 'iPhone 15 Pro' }] });
  const generic = new EmulatedWda(rig.device, { name: 'iPhone' });
  await rig.wda.stop();
  await generic.start(Number(new URL(rig.wda.url).port));
  try {
    const r = await rig.engine.call('mobile_get_screen_size', { device: SIM_B }) as { code: string; message: string };
    assert.is(r.code, 'UNSUPPORTED', JSON.stringify(r));
    assert.match(r.message, /cannot be told to be .*WebDriverAgent reports no UDID/);
    assert.match(r.message, /--wda-url \S+=http:\/\/127.0.0.1:8101/);
  } finally {
    await generic.stop();
    await rig.close();
  }
});

test('a WDA on another iOS version is not this simulator\'s', async () => {
  const rig = await makeRig({ moreSimulators: [{ udid: SIM_B, name: 'iPhone 15', runtime: 'iOS-18-0' }] });
  try {
    const r = await rig.engine.call('mobile_get_screen_size', { device: SIM_B }) as { code: string; message: string };
    assert.is(r.code, 'UNSUPPORTED', JSON.stringify(r));
    assert.match(r.message, new RegExp(`belongs to simulator iPhone 15 \\(${SIM_UDID}\\)`));
  } finally {
    await rig.close();
  }
});

test('with --wda-runner, a simulator whose URL holds another\'s WDA gets one of its own on free ports', async () => {
  const runnerId = 'com.facebook.WebDriverAgentRunner.xctrunner';
  let rig: Rig | undefined;
  let own: EmulatedWda | undefined;
  const launched: Record<string, string>[] = [];
  rig = await makeRig({
    moreSimulators: [{ udid: SIM_B, name: 'iPhone 15 Pro' }],
    onLaunch: () => ({
      [runnerId]: async ({ udid, env }) => {
        launched.push({ udid, ...env });
        own = new EmulatedWda(rig!.others[0], { name: 'iPhone 15 Pro' });
        await own.start(Number(env.USE_PORT), Number(env.MJPEG_SERVER_PORT));
      },
    }),
  });
  const runner = writeAppBundle(rig.dir, { bundleId: runnerId, name: 'WebDriverAgentRunner-Runner' });
  const engine = createEngine({ virtual: false, ios: { wdaUrl: rig.wda.url, wdaStart: { runner, waitMs: 10_000 } } });
  try {
    const onB = (tool: string, params: Record<string, unknown> = {}) => engine.call(tool, { device: SIM_B, ...params }) as Promise<any>;
    const r = await tapEmail(onB);
    assert.is(r.status, 'success', JSON.stringify(r));
    assert.is(launched.length, 1);
    assert.is(launched[0].udid, SIM_B);
    assert.not.equal(launched[0].USE_PORT, new URL(rig.wda.url).port, 'its own port');
    assert.ok(Number(launched[0].MJPEG_SERVER_PORT) > 0, 'and its own MJPEG port');
    assert.is(rig.others[0].focusedField, 'email', 'the tap reached simulator B');
    assert.is(rig.device.focusedField, undefined, 'not simulator A');
    assert.not.ok(rig.wda.requests.some((x) => x.startsWith('POST /session')), 'A\'s WDA was never used for B');
  } finally {
    await engine.close();
    await own?.stop();
    await rig.close();
  }
});

test("a simulator with a WDA URL of its own but no MJPEG URL gets no video from port 9100 (another simulator's WDA's): UNSUPPORTED saying what to pass", async () => {
  const rig = await makeRig({ moreSimulators: [{ udid: SIM_B, name: 'iPhone 15 Pro' }] });
  const own = new EmulatedWda(rig.others[0], { name: 'iPhone 15 Pro' });
  await own.start(0);
  const engines = [
    createEngine({ virtual: false, ios: { wdaUrl: rig.wda.url, wdaUrls: { [SIM_B]: own.url } } }),
    createEngine({ virtual: false, ios: { wdaUrl: rig.wda.url, wdaUrls: { [SIM_B]: own.url }, mjpegUrls: { [SIM_B]: `http://127.0.0.1:${own.mjpeg.portNumber}` } } }),
  ];
  try {
    const [without, withUrl] = engines;
    const refused = await without.withDevice(SIM_B, 'test', (d) => d.openVideo!({ maxSize: 0, maxFps: 10 })).then(() => undefined, (err: Error & { code?: string }) => err);
    assert.is(refused?.code, 'UNSUPPORTED', String(refused));
    assert.match(refused!.message, `has a WebDriverAgent URL of its own (${own.url}) but no MJPEG URL`);
    assert.match(refused!.message, `--mjpeg-url ${SIM_B}=http://127.0.0.1:<port>`);
    const stream = await withUrl.withDevice(SIM_B, 'test', (d) => d.openVideo!({ maxSize: 0, maxFps: 10 }));
    try {
      for await (const packet of stream.packets()) {
        assert.ok(packet.data.length > 0);
        break;
      }
    } finally {
      await stream.close();
    }
  } finally {
    await Promise.all(engines.map((e) => e.close()));
    await own.stop();
    await rig.close();
  }
});

test.run();
