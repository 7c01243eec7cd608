import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { cssToDevice, cssToDeviceClamped, deviceRectToCss, deviceToCss, fitScreen, fitSize, type Rect, type Size } from '../../web/src/geometry.js';
import { elementAt } from '../../src/engine/hit-test.js';

interface El extends Rect { id: string; center: { x: number; y: number } }

/** Elements the way the engine reports them: centre = round(x + width/2), as in src/engine/ui-tree.ts. */
function element(id: string, x: number, y: number, width: number, height: number): El {
  return { id, x, y, width, height, center: { x: Math.round(x + width / 2), y: Math.round(y + height / 2) } };
}

const PORTRAIT: Size = { width: 1080, height: 2400 };
const LANDSCAPE: Size = { width: 2400, height: 1080 };
const IOS: Size = { width: 1179, height: 2556 };

const portraitElements = [
  element('email', 96, 900, 888, 144),
  element('password', 96, 1092, 888, 144),
  element('sign_in', 96, 1320, 888, 132),
  element('tiny', 1, 1, 3, 3),
  element('odd', 501, 777, 77, 33),
  element('corner', 1075, 2395, 5, 5),
];
const landscapeElements = [
  element('email', 756, 300, 888, 120),
  element('sign_in', 756, 700, 888, 120),
  element('odd', 2301, 1001, 99, 79),
];

// Boxes a canvas gets: stage at 1280×800, narrow windows, fractional CSS sizes, zoomed pages.
const BOXES: Size[] = [
  { width: 326.25, height: 725 },
  { width: 360, height: 800 },
  { width: 1280, height: 800 },
  { width: 375, height: 667 },
  { width: 333.3333, height: 517.77 },
  { width: 2560, height: 1440 },
  { width: 97, height: 211 },
  { width: 1024.5, height: 461 },
];

function checkCentres(device: Size, elements: El[]): void {
  for (const box of BOXES) {
    const fit = fitScreen(box, device);
    for (const e of elements) {
      const drawn = deviceToCss(fit, e.center);
      const back = cssToDevice(fit, drawn);
      assert.equal(back, e.center, `${e.id} in a ${box.width}×${box.height} box on ${device.width}×${device.height}`);
      assert.is(elementAt(elements, back!)?.id, e.id, `hit test of ${e.id} in ${box.width}×${box.height}`);
      const r = deviceRectToCss(fit, e);
      assert.ok(drawn.x > r.x && drawn.x < r.x + r.width && drawn.y > r.y && drawn.y < r.y + r.height, `${e.id} drawn centre inside its outline`);
    }
  }
}

test('a click on an element’s drawn centre maps to that element’s centre at any box size (portrait)', () => {
  checkCentres(PORTRAIT, portraitElements);
  checkCentres(IOS, portraitElements);
});

test('after rotation (width and height swapped) the mapping follows the landscape screen', () => {
  checkCentres(LANDSCAPE, landscapeElements);
  // A box shaped for portrait now letterboxes a landscape screen top and bottom.
  const fit = fitScreen({ width: 400, height: 800 }, LANDSCAPE);
  assert.is(fit.offsetX, 0);
  assert.ok(fit.offsetY > 300);
  assert.equal(cssToDevice(fit, { x: 200, y: 10 }), undefined, 'the letterbox is not the screen');
});

test('every device pixel round-trips through its drawn position', () => {
  const device = { width: 97, height: 211 };
  for (const box of [{ width: 300, height: 300 }, { width: 51.5, height: 120 }, { width: 97, height: 211 }]) {
    const fit = fitScreen(box, device);
    for (let x = 0; x < device.width; x++) {
      for (let y = 0; y < device.height; y += 7) assert.equal(cssToDevice(fit, deviceToCss(fit, { x, y })), { x, y });
    }
  }
});

test('edges: the first and last pixel are on screen, one past is not', () => {
  const fit = fitScreen({ width: 540, height: 1200 }, PORTRAIT);
  assert.is(fit.scale, 0.5);
  assert.equal(cssToDevice(fit, { x: 0, y: 0 }), { x: 0, y: 0 });
  assert.equal(cssToDevice(fit, { x: 539.99, y: 1199.99 }), { x: 1079, y: 2399 });
  assert.equal(cssToDevice(fit, { x: 540, y: 10 }), undefined);
  assert.equal(cssToDevice(fit, { x: -0.01, y: 10 }), undefined);
  assert.equal(cssToDeviceClamped(fit, { x: 900, y: -50 }), { x: 1079, y: 0 });
});

test('fitSize keeps the aspect ratio and fits both ways', () => {
  assert.equal(fitSize({ width: 1000, height: 600 }, PORTRAIT), { width: 270, height: 600 });
  assert.equal(fitSize({ width: 600, height: 1000 }, LANDSCAPE), { width: 600, height: 270 });
  assert.equal(fitSize({ width: -5, height: 100 }, PORTRAIT), { width: 0, height: 0 });
});

test('a zero-size device or box is refused with a clear message', () => {
  assert.throws(() => fitScreen({ width: 0, height: 100 }, PORTRAIT), /screen box must have a positive width and height, got 0×100/);
  assert.throws(() => fitSize({ width: 10, height: 10 }, { width: 0, height: 0 }), /device screen/);
});

test('elementAt picks the smallest element under the point', () => {
  const list = [element('list', 0, 0, 1000, 1000), element('item', 0, 100, 1000, 100), element('button', 800, 120, 100, 60)];
  assert.is(elementAt(list, { x: 850, y: 150 })?.id, 'button');
  assert.is(elementAt(list, { x: 10, y: 150 })?.id, 'item');
  assert.is(elementAt(list, { x: 10, y: 500 })?.id, 'list');
  assert.is(elementAt(list, { x: 1000, y: 500 }), undefined, 'right edge is exclusive');
});

test.run();
