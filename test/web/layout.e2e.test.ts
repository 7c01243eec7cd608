import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser, Page } from 'playwright-core';
import type { Bridge } from '../../src/bridge/index.js';
import { systemTool } from '../support/system-tools.js';
import { screenBox } from './support/screen-box.js';
import { withViewerAndChromium } from './support/viewer-bridge.js';

/** Issue 17 item 7 in Chromium: colours follow the system theme; the layout holds at 1280×800 and on a 390-px phone. */

const chromiumPath = systemTool('chromium', 'the web viewer end-to-end tests drive it');
const layout = suite<{ bridge?: Bridge; url: string; browser?: Browser }>('viewer layout and theme in Chromium', { url: '' });

withViewerAndChromium(layout, chromiumPath);


async function open(ctx: { url: string; browser?: Browser }, options: { width: number; height: number; colorScheme?: 'light' | 'dark' }): Promise<Page> {
  const page = await ctx.browser!.newPage({ viewport: { width: options.width, height: options.height }, colorScheme: options.colorScheme ?? 'light' });
  await page.goto(ctx.url);
  await page.locator('#connection[data-state="open"]').waitFor();
  await page.locator('#element-list li').first().waitFor({ state: 'attached' });
  // The first frame sizes the canvas.
  await page.locator('#screen-placeholder').waitFor({ state: 'hidden' });
  return page;
}

const colours = (page: Page) =>
  page.evaluate(`(() => {
    const css = (sel, prop) => getComputedStyle(document.querySelector(sel))[prop];
    return { body: css('body', 'backgroundColor'), text: css('body', 'color'), panel: css('.side', 'backgroundColor'), scheme: matchMedia('(prefers-color-scheme: dark)').matches };
  })()`) as Promise<{ body: string; text: string; panel: string; scheme: boolean }>;

layout('dark mode follows the system: dark background, light text; light otherwise', async (ctx) => {
  const dark = await open(ctx, { width: 1280, height: 800, colorScheme: 'dark' });
  const d = await colours(dark);
  assert.ok(d.scheme);
  assert.is(d.body, 'rgb(18, 21, 28)');
  assert.is(d.panel, 'rgb(26, 31, 41)');
  assert.is(d.text, 'rgb(230, 233, 240)');
  const light = await open(ctx, { width: 1280, height: 800, colorScheme: 'light' });
  const l = await colours(light);
  assert.is(l.body, 'rgb(244, 246, 250)');
  assert.is(l.text, 'rgb(27, 34, 48)');
  await Promise.all([dark.close(), light.close()]);
});

/** Nothing sticks out sideways, and the phone's screen is drawn at a usable size inside the window. */
async function assertUsable(page: Page, width: number, minScreenWidth: number): Promise<void> {
  const overflow = (await page.evaluate(`(() => {
    const doc = document.documentElement;
    const wide = [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > doc.clientWidth + 1 && getComputedStyle(e).position !== 'fixed').map((e) => e.id || e.className || e.tagName).slice(0, 5);
    return { scroll: doc.scrollWidth, client: doc.clientWidth, wide };
  })()`)) as { scroll: number; client: number; wide: string[] };
  assert.ok(overflow.scroll <= overflow.client, `no horizontal scroll at ${width} px (scrollWidth ${overflow.scroll} > ${overflow.client}; sticking out: ${overflow.wide.join(', ')})`);
  assert.equal(overflow.wide, [], 'no element reaches past the right edge');
  const box = await screenBox(page);
  assert.ok(box.width >= minScreenWidth && box.x >= 0 && box.x + box.width <= width, `the screen is visible and fits: ${JSON.stringify(box)}`);
  assert.ok(await page.locator('#screen').isVisible());
}

layout('at 1280×800 the three columns fit without horizontal scrolling and the screen is shown', async (ctx) => {
  const page = await open(ctx, { width: 1280, height: 800 });
  await assertUsable(page, 1280, 200);
  await page.close();
});

layout('at 1:1 a screen larger than the stage can be scrolled to both edges', async (ctx) => {
  const page = await open(ctx, { width: 1280, height: 800 });
  try {
    await page.click('#btn-zoom');
    await page.locator('#screen-wrap.zoom-actual').waitFor();
    // Scrolled fully left, the canvas's left edge is inside the stage; fully right, its right edge is.
    const edges = (await page.evaluate(`(() => {
      const wrap = document.getElementById('screen-wrap');
      const canvas = document.getElementById('screen');
      wrap.scrollLeft = -1e6;
      const left = canvas.getBoundingClientRect().left - wrap.getBoundingClientRect().left;
      wrap.scrollLeft = 1e6;
      const right = wrap.getBoundingClientRect().right - canvas.getBoundingClientRect().right;
      return { left, right, wider: canvas.getBoundingClientRect().width > wrap.clientWidth };
    })()`)) as { left: number; right: number; wider: boolean };
    assert.ok(edges.wider, 'at 1:1 the 1080-px screen is wider than the stage (else this test shows nothing)');
    assert.ok(edges.left >= 0, `the left edge can be scrolled into view (${edges.left} px from the stage's left)`);
    assert.ok(edges.right >= 0, `the right edge can be scrolled into view (${edges.right} px from the stage's right)`);
  } finally {
    await page.close();
  }
});

layout('on a 390-px phone the panels stack, nothing overflows sideways, the screen is visible', async (ctx) => {
  const page = await open(ctx, { width: 390, height: 844 });
  await assertUsable(page, 390, 200);
  const [screen, side] = await Promise.all([page.locator('#screen-wrap').boundingBox(), page.locator('.side').boundingBox()]);
  assert.ok(screen && side && side.y >= screen.y + screen.height - 1, 'the inspector comes below the screen');
  // The lock badge and toolbar wrap instead of widening the page; the other tabs still open.
  await page.click('#tab-activity');
  await assertUsable(page, 390, 200);
  await page.close();
});

layout('keyboard only: the inspector is reachable without passing the screen, which keeps Tab for the device', async (ctx) => {
  const page = await open(ctx, { width: 1280, height: 800 });
  const focused = () => page.evaluate(`(() => { const e = document.activeElement; return { id: e.id, text: e.textContent.trim() }; })()`) as Promise<{ id: string; text: string }>;
  try {
    await page.keyboard.press('Tab');
    assert.is((await focused()).text, 'Skip to the device screen');
    await page.keyboard.press('Tab');
    assert.match((await focused()).text, /^Skip to the inspector/);
    await page.keyboard.press('Enter');
    assert.is((await focused()).id, 'inspector');
    await page.keyboard.press('Tab');
    assert.is((await focused()).id, 'tab-elements', 'the next Tab reaches the inspector tabs');
    assert.match((await page.getAttribute('#screen', 'aria-label')) ?? '', 'Shift+Tab leaves the screen', 'the screen says how to leave it');
  } finally {
    await page.close();
  }
});

if (chromiumPath) layout.run();
