import sharp from 'sharp';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { RawImage } from '../../src/engine/driver.js';
import { fittingScale, scaleCapture, scaledSize } from '../../src/engine/screen/scale.js';
import { LocalBackend } from '../../src/mcp/backend.js';
import { ANDROID, IOS, connectPair, textOf, virtualEngine, type Pair } from './helpers.js';

const test = suite<{ backend: LocalBackend; pair: Pair }>('mcp screenshot size');

test.before.each(async (ctx) => {
  ctx.backend = new LocalBackend(virtualEngine().engine);
  ctx.pair = await connectPair(ctx.backend, { engineTools: true });
});

test.after.each(async (ctx) => {
  await ctx.pair.close();
  await ctx.backend.close();
});

async function imageSize(r: Awaited<ReturnType<Pair['call']>>): Promise<{ width: number; height: number; mimeType: string }> {
  assert.not.ok(r.isError, textOf(r));
  const image = r.content.find((c) => c.type === 'image') as { data: string; mimeType: string };
  const meta = await sharp(Buffer.from(image.data, 'base64')).metadata();
  return { width: meta.width!, height: meta.height!, mimeType: image.mimeType };
}

test('take_screenshot never exceeds max_size in either dimension, portrait or landscape, JPEG or PNG', async ({ pair }) => {
  // Inside an app: an iPhone's home screen stays portrait.
  await pair.call('mobile_launch_app', { device: IOS, packageName: 'com.mobilebridge.demo' });
  const turned = await pair.call('mobile_set_orientation', { device: IOS, orientation: 'landscape' });
  assert.not.ok(turned.isError, textOf(turned));
  for (const device of [ANDROID, IOS]) {
    for (const maxSize of [160, 333, 401, 1000, 1279, 4096]) {
      for (const format of ['jpeg', 'png'] as const) {
        const r = await pair.call('take_screenshot', { device, max_size: maxSize, format });
        const got = await imageSize(r);
        assert.is(got.mimeType, `image/${format}`);
        assert.ok(got.width <= maxSize && got.height <= maxSize, `${device} ${format} max_size ${maxSize}: got ${got.width}×${got.height}`);
        // The text states the image's real size and a factor that maps it back onto the device.
        assert.ok(textOf(r).includes(`image ${got.width}×${got.height}`), textOf(r));
      }
    }
  }
  // The raw engine tool under MCP is scaled the same way.
  const raw = await imageSize(await pair.call('mobile_take_screenshot', { device: ANDROID, max_size: 300 }));
  assert.ok(raw.width <= 300 && raw.height <= 300, `${raw.width}×${raw.height}`);
});

test('no agent image side over 2000 px, whatever max_size asks (Claude refuses bigger ones in conversations with many images)', async ({ pair }) => {
  for (const tool of ['take_screenshot', 'mobile_take_screenshot']) {
    for (const format of ['jpeg', 'png'] as const) {
      const got = await imageSize(await pair.call(tool, { device: ANDROID, max_size: 4096, format }));
      assert.ok(Math.max(got.width, got.height) <= 2000, `${tool} ${format}: ${got.width}×${got.height}`);
      assert.ok(Math.max(got.width, got.height) >= 1500, `${tool} ${format}: as large as allowed, budget permitting: ${got.width}×${got.height}`);
    }
  }
});

test('mobile_take_screenshot holds to its schema like take_screenshot, and the schema lists format and max_size', async ({ pair }) => {
  for (const [args, re] of [
    [{ device: ANDROID, bogus: 1 }, /unknown argument "bogus"; it takes "device", "format", "max_size"/],
    [{ device: ANDROID, max_size: '300px' }, /"max_size" must be a whole number from 160 to 4096 \(got "300px"\)/],
    [{ device: ANDROID, max_size: 100 }, /"max_size" must be a whole number from 160 to 4096 \(got 100\)/],
    [{ device: ANDROID, format: 'gif' }, /"format" must be one of jpeg, png \(got "gif"\)/],
  ] as const) {
    const r = await pair.call('mobile_take_screenshot', args);
    assert.ok(r.isError, `accepted ${JSON.stringify(args)}`);
    assert.match(textOf(r), new RegExp(`^INVALID_PARAMETER: mobile_take_screenshot on ${ANDROID}: ${re.source}`));
  }
  assert.is((await imageSize(await pair.call('mobile_take_screenshot', { device: ANDROID, format: 'PNG' }))).mimeType, 'image/png');
  const listed = (await pair.client.listTools()).tools.find((t) => t.name === 'mobile_take_screenshot')!;
  assert.equal(Object.keys(listed.inputSchema.properties ?? {}), ['device', 'format', 'max_size']);
  assert.is((listed.inputSchema as { additionalProperties?: boolean }).additionalProperties, false);
});

test('the longest side reaches max_size exactly and keeps the aspect ratio; odd sizes round down', () => {
  assert.equal(scaledSize(1179, 2556, 1280 / 2556, 1280), { width: 590, height: 1280 });
  assert.equal(scaledSize(2556, 1179, 1280 / 2556, 1280), { width: 1280, height: 590 });
  assert.equal(scaledSize(1080, 2400, 1, 4096), { width: 1080, height: 2400 });
  // A scale a hair above max_size / longest (float error) still gives max_size, not one more.
  assert.equal(scaledSize(999, 999, 333 / 999 + 1e-12, 333), { width: 333, height: 333 });
});

test('the default size is exactly half when that keeps 90 % of it; a size asked for is used as it is', async ({ pair }) => {
  assert.is(fittingScale(1080, 2400, {}), 0.5);
  assert.is(fittingScale(1080, 2340, {}), 0.5);
  assert.is(fittingScale(720, 1600, {}), 0.8, 'half would lose 37 %');
  assert.is(fittingScale(1440, 3200, {}), 0.4, 'half does not fit');
  assert.is(fittingScale(1080, 2400, { maxSize: 1280 }), 1280 / 2400);
  assert.is(fittingScale(640, 1136, {}), 1, 'no shrink needed');
  assert.equal(await imageSize(await pair.call('take_screenshot', { device: ANDROID })), { width: 540, height: 1200, mimeType: 'image/jpeg' });
  const asked = await imageSize(await pair.call('take_screenshot', { device: ANDROID, max_size: 1280 }));
  assert.equal([asked.width, asked.height], [576, 1280]);
});

test('a budget too small for any size still ends at the smallest size, within max_size', async () => {
  const data = Buffer.alloc(600 * 900 * 4);
  for (let i = 0; i < data.length; i++) data[i] = (i * 2654435761) >>> 24; // noise: JPEG cannot compress it well
  const raw: RawImage = { data, width: 600, height: 900, channels: 4 };
  const s = await scaleCapture({ raw, width: 600, height: 900 }, { maxSize: 500, budget: 10 });
  assert.ok(Math.max(s.width, s.height) <= 160, `${s.width}×${s.height}`);
  const meta = await sharp(Buffer.from(s.data, 'base64')).metadata();
  assert.equal([meta.width, meta.height], [s.width, s.height]);
  assert.is(s.deviceWidth, 600);
});

test.run();
