/**
 * Takes docs/viewer.png: the viewer at 1280×800 in headless Chromium against an in-process bridge
 * with the virtual devices, showing the demo app's sign-in form being filled in, a hovered
 * element outlined with its fields, and a colleague's actions in the activity feed.
 *
 * Usage: npm run build && node dist/scripts/viewer-screenshot.js [out.png] [--chromium /usr/bin/chromium]
 */
import { fileURLToPath } from 'node:url';
import { startBridge } from '../src/bridge/index.js';
import { createEngine } from '../src/engine/create.js';
import type { UiElement } from '../src/engine/types.js';
import { connectBridge } from '../src/protocol/node.js';
import { launchChromium } from '../test/web/support/browser.js';
import { deviceToCss, fitScreen } from '../web/src/geometry.js';
import { buildWeb } from './build-web.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DEVICE = 'virtual-android-1';

function option(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function main(): Promise<void> {
  const out = process.argv[2] && !process.argv[2].startsWith('--') ? process.argv[2] : `${ROOT}docs/viewer.png`;
  await buildWeb({ check: false });
  const bridge = await startBridge({ engine: createEngine(), port: 0, webRoot: `${ROOT}web/dist` });
  const browser = await launchChromium(option('--chromium') ?? '/usr/bin/chromium').catch((err: unknown) => {
    throw new Error(`could not start Chromium (${(err as Error).message}); install it (apt-get install -y chromium) or pass --chromium PATH`);
  });
  const colleague = await connectBridge(`ws://127.0.0.1:${bridge.port}/ws`, { client: 'alice' });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`http://127.0.0.1:${bridge.port}/`);
    await page.locator(`#device-list button[data-id="${DEVICE}"][aria-pressed="true"]`).waitFor();

    // A colleague opens the demo app and starts signing in; the page shows it as it happens.
    await colleague.subscribe(DEVICE, { elements: true });
    await colleague.callTool('mobile_launch_app', { device: DEVICE, packageName: 'com.mobilebridge.demo' });
    const list = async () => ((await bridge.engine.call('mobile_list_elements_on_screen', { device: DEVICE })) as { elements: UiElement[] }).elements;
    const email = (await list()).find((e) => e.id === 'email');
    if (!email) throw new Error('the demo app did not show its sign-in form');
    await colleague.callTool('mobile_click_on_screen_at_coordinates', { device: DEVICE, x: email.center.x, y: email.center.y });
    await colleague.callTool('mobile_type_keys', { device: DEVICE, text: 'ada@example.com' });
    await page.locator('#element-list li[data-id="email"] .label', { hasText: 'ada@example.com' }).waitFor();

    // Point at the Sign in button so its outline and fields show.
    const button = (await list()).find((e) => e.id === 'sign_in')!;
    const size = (await bridge.engine.call('mobile_get_screen_size', { device: DEVICE })) as { width: number; height: number };
    const box = (await page.locator('#screen').boundingBox())!;
    const at = deviceToCss(fitScreen({ width: box.width, height: box.height }, size), button.center);
    await page.mouse.move(box.x + at.x, box.y + at.y);
    await page.locator('#outline:not([hidden])').waitFor();
    await page.locator('#latency', { hasText: 'ms' }).waitFor();
    // Captures of the virtual phone take a few hundred ms: let the typed text reach the canvas.
    await page.waitForTimeout(1500);
    await page.screenshot({ path: out });
    console.log(`viewer screenshot written to ${out}`);
  } finally {
    await colleague.close();
    await browser.close();
    await bridge.close();
  }
}

main().catch((err: unknown) => {
  console.error(`viewer-screenshot: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
