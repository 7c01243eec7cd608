import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { similarity } from '../../../src/engine/assertions/pixels.js';
import { createEngine } from '../../../src/engine/create.js';
import { pngOf } from '../../../src/engine/screen/capture.js';

const test = suite('screenshot_match similarity');

test('unrelated screens of one app score far below the default 0.9; the same screen scores 1, after typing a word still above it', async () => {
  const engine = createEngine({ android: false, ios: false });
  try {
    const device = (await engine.listDevices()).find((d) => d.os === 'Android')!.id;
    const screen = async (name: string) => {
      await engine.call('mobile_open_url', { device, url: `mbdemo://screen/${name}` });
      return engine.captureScreen(device);
    };
    const more = await pngOf(await screen('more'));
    const scores: Record<string, number> = {};
    // A share of all pixels scored these 0.94–0.99 against More: their background is the same.
    for (const other of ['inbox', 'signin', 'settings', 'error', 'home']) scores[other] = (await similarity(more, await screen(other))).score;
    for (const [name, score] of Object.entries(scores)) assert.ok(score < 0.5, `${name} vs more: ${score.toFixed(3)}`);
    // 1 unless the status bar's clock turned a minute in between.
    const same = (await similarity(more, await screen('more'))).score;
    assert.ok(same > 0.97, `more vs more: ${same}`);
    await screen('signin');
    const list = (await engine.call('mobile_list_elements_on_screen', { device })) as { elements: { id: string; center: { x: number; y: number } }[] };
    const email = list.elements.find((e) => e.id === 'email')!;
    await engine.call('mobile_click_on_screen_at_coordinates', { device, ...email.center });
    // The reference with the keyboard up (it covers half the screen: its coming or going is a real change).
    const signin = await pngOf(await engine.captureScreen(device));
    await engine.call('mobile_type_keys', { device, text: 'ann@example.com', submit: false });
    const typed = (await similarity(signin, await engine.captureScreen(device))).score;
    assert.ok(typed > 0.9 && typed < 1, `sign-in after typing an address: ${typed.toFixed(3)}`);
  } finally {
    await engine.close();
  }
});

test('a reference of another size (density) still compares: it is scaled, not failed', async () => {
  const engine = createEngine({ android: false, ios: false });
  try {
    const device = (await engine.listDevices()).find((d) => d.os === 'Android')!.id;
    await engine.call('mobile_open_url', { device, url: 'mbdemo://screen/more' });
    const cap = await engine.captureScreen(device);
    const { loadSharp } = await import('../../../src/engine/screen/sharp.js');
    const small = await (await loadSharp())(await pngOf(cap)).resize(Math.round(cap.width / 3)).png().toBuffer();
    const r = await similarity(small, cap);
    assert.ok(r.score > 0.95, `${r.score}`);
    assert.is(r.width, Math.round(cap.width / 3));
  } finally {
    await engine.close();
  }
});

test.run();
