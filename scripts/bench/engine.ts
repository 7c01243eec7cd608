/**
 * Engine benchmark on the virtual device, in process: latency of each tool, the engine's
 * own overhead (engine.call minus the same driver method called directly), and a full
 * list elements → tap → screenshot cycle. Prints figures; targets are in issue 2.
 */
import { Engine } from '../../src/engine/engine.js';
import { VirtualDriver } from '../../src/engine/drivers/virtual/index.js';
import { row, sample, summarize } from './stats.js';

const N = Number(process.env.BENCH_N ?? 200);
const device = 'virtual-android-1';

async function main() {
  const driver = new VirtualDriver({ devices: ['android'] });
  const engine = new Engine({ drivers: [driver] });
  const handle = await engine.withDevice(device, 'open', async (h) => h);
  const ctx = { signal: new AbortController().signal };
  const call = async (tool: string, params: Record<string, unknown> = {}) => {
    const r = (await engine.call(tool, { device, ...params })) as { status?: string; message?: string };
    if (r.status === 'error') throw new Error(`${tool}: ${r.message}`);
    return r;
  };

  await call('mobile_launch_app', { packageName: 'com.mobilebridge.demo' });
  console.log(`engine benchmark: virtual Android 1080×2400, ${N} samples per figure, node ${process.version}\n`);

  const readOnly: [string, Record<string, unknown>][] = [
    ['mobile_get_screen_size', {}],
    ['mobile_get_orientation', {}],
    ['mobile_list_apps', {}],
    ['mobile_get_foreground_app', {}],
    ['mobile_list_elements_on_screen', {}],
    ['mobile_take_screenshot', {}],
  ];
  for (const [tool, params] of readOnly) console.log(row(tool, await sample(N, () => call(tool, params))));

  await call('mobile_open_url', { url: 'mbdemo://screen/signin' });
  const elements = (await call('mobile_list_elements_on_screen')) as unknown as { elements: { center: { x: number; y: number }; type: string }[] };
  const field = elements.elements.find((e) => e.type === 'edittext');
  const point = field ? field.center : { x: 540, y: 1200 };
  console.log(row('mobile_click_on_screen_at_coordinates', await sample(N, () => call('mobile_click_on_screen_at_coordinates', point))));
  console.log(row('mobile_type_keys (1 char)', await sample(N, () => call('mobile_type_keys', { text: 'a' }))));
  console.log(row('mobile_press_button HOME + launch demo', await sample(N / 4, async () => {
    await call('mobile_press_button', { button: 'HOME' });
    await call('mobile_launch_app', { packageName: 'com.mobilebridge.demo' });
  })));
  console.log(row('mobile_set_orientation landscape↔portrait', await sample(N / 4, (i) => call('mobile_set_orientation', { orientation: i % 2 ? 'portrait' : 'landscape' }))));
  await call('mobile_set_orientation', { orientation: 'portrait' });

  // Screenshots right after a visible change, so nothing comes from the cache.
  const afterChange = async (label: string, change: (i: number) => Promise<unknown>) => {
    const times: number[] = [];
    for (let i = 0; i < N / 4; i++) {
      await change(i);
      const t = performance.now();
      await call('mobile_take_screenshot');
      times.push(performance.now() - t);
    }
    console.log(row(label, summarize(times)));
  };
  await call('mobile_open_url', { url: 'mbdemo://screen/home' });
  await afterChange('screenshot after scrolling the list 300 px', (i) => call('mobile_swipe_on_screen', { direction: i % 8 < 4 ? 'up' : 'down', distance: 300 }));
  await afterChange('screenshot after switching screens', (i) => call('mobile_open_url', { url: i % 2 ? 'mbdemo://screen/home' : 'mbdemo://screen/more' }));
  await call('mobile_open_url', { url: 'mbdemo://screen/signin' });
  await afterChange('screenshot after typing into a field', async (i) => {
    if (i % 10 === 0) {
      await call('mobile_open_url', { url: 'mbdemo://screen/home' });
      await call('mobile_open_url', { url: 'mbdemo://screen/signin' });
      const els = (await call('mobile_list_elements_on_screen')) as unknown as { elements: { id: string; center: { x: number; y: number } }[] };
      const email = els.elements.find((e) => e.id === 'email');
      if (email) await call('mobile_click_on_screen_at_coordinates', email.center);
    }
    await call('mobile_type_keys', { text: 'x' });
  });

  // Engine overhead: the same work through engine.call and straight on the handle.
  const direct = await sample(N * 5, () => handle.screenSize(ctx));
  const viaEngine = await sample(N * 5, () => call('mobile_get_screen_size'));
  const directList = await sample(N, () => handle.listElements(ctx));
  const viaList = await sample(N, () => call('mobile_list_elements_on_screen'));
  console.log('');
  console.log(row('driver screenSize() direct', direct));
  console.log(row('engine mobile_get_screen_size', viaEngine));
  console.log(`engine overhead per call (median, screen size)        ${(viaEngine.median - direct.median).toFixed(3)} ms`);
  console.log(`engine overhead per call (median, list elements)      ${(viaList.median - directList.median).toFixed(3)} ms`);

  const cycle = await sample(N / 2, async () => {
    const { elements: els } = (await call('mobile_list_elements_on_screen')) as unknown as { elements: { center: { x: number; y: number } }[] };
    await call('mobile_click_on_screen_at_coordinates', els[0]?.center ?? { x: 10, y: 10 });
    await call('mobile_take_screenshot');
  });
  console.log(row('cycle: list elements → tap → screenshot', cycle));
  await engine.close();
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
