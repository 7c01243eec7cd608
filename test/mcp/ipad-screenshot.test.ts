import sharp from 'sharp';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createEngine } from '../../src/engine/create.js';
import { ManualClock } from '../../src/engine/drivers/virtual/index.js';
import { LocalBackend } from '../../src/mcp/backend.js';
import { connectPair, textOf } from './helpers.js';

const PAD = 'virtual-ipad-1';

test('the virtual iPad under MCP: screenshots within max_size in both orientations, and a tap at the image point scaled back hits the element', async () => {
  const engine = createEngine({ virtual: { devices: ['ipad'], clock: new ManualClock(Date.UTC(2026, 0, 5, 9, 30)) }, android: false, ios: false });
  const backend = new LocalBackend(engine);
  const pair = await connectPair(backend, { engineTools: true });
  try {
    for (const orientation of ['portrait', 'landscape'] as const) {
      const turned = await pair.call('mobile_set_orientation', { device: PAD, orientation });
      assert.not.ok(turned.isError, textOf(turned));
      const [w, h] = orientation === 'portrait' ? [2064, 2752] : [2752, 2064];
      for (const maxSize of [160, 1000, 2000, 4096]) {
        const r = await pair.call('take_screenshot', { device: PAD, max_size: maxSize, format: 'png' });
        assert.not.ok(r.isError, textOf(r));
        const image = r.content.find((c) => c.type === 'image') as { data: string };
        const meta = await sharp(Buffer.from(image.data, 'base64')).metadata();
        assert.ok(meta.width! <= maxSize && meta.height! <= maxSize, `${orientation} max_size ${maxSize}: ${meta.width}×${meta.height}`);
        assert.ok(Math.abs(meta.width! / meta.height! - w / h) < 0.02, `${orientation} ${maxSize}: the aspect of ${w}×${h} kept (${meta.width}×${meta.height})`);
        assert.ok(textOf(r).includes(`image ${meta.width}×${meta.height}`), textOf(r));
      }
    }
    // An agent's path in landscape: the point seen in a 1000-px image, scaled back by the stated factor, hits the icon.
    const shot = textOf(await pair.call('take_screenshot', { device: PAD, max_size: 1000 }));
    const factor = Number(/Scale factor ([\d.]+)/.exec(shot)?.[1]);
    const listed = textOf(await pair.call('mobile_list_elements_on_screen', { device: PAD }));
    const icon = (JSON.parse(listed).elements as { accessibility_label: string | null; center: { x: number; y: number } }[]).find((e) => e.accessibility_label === 'MobileBridge Demo')!;
    const seen = { x: Math.round(icon.center.x / factor), y: Math.round(icon.center.y / factor) };
    const tapped = await pair.call('mobile_click_on_screen_at_coordinates', { device: PAD, x: Math.round(seen.x * factor), y: Math.round(seen.y * factor) });
    assert.not.ok(tapped.isError, textOf(tapped));
    assert.match(textOf(await pair.call('mobile_get_foreground_app', { device: PAD })), /com\.mobilebridge\.demo/);
  } finally {
    await pair.close();
    await backend.close();
  }
});

test.run();
