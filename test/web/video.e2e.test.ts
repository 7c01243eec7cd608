import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser, Page } from 'playwright-core';
import { startBridge, type Bridge } from '../../src/bridge/index.js';
import { createEngine } from '../../src/engine/create.js';
import { encodeClip } from '../support/h264-clip.js';
import { replayVideoDriver, type ReplayControl } from '../support/replay-video.js';
import { systemTool } from '../support/system-tools.js';
import { launchChromium } from './support/browser.js';
import { pollPage } from './support/poll.js';
import { WEB_DIST } from './support/viewer-bridge.js';

/**
 * The viewer decoding live H.264 with WebCodecs in headless Chromium, from a device whose video
 * replays a moving clip; and the status bar naming the source and why video is not used.
 */

const DEVICE = 'replay-android-1';
const SIZE = { width: 360, height: 800 };
const chromiumPath = systemTool('chromium', 'the viewer video tests decode H.264 in it');
const ffmpeg = systemTool('ffmpeg', 'the viewer video tests replay an H.264 clip it encodes');

interface Ctx {
  bridge?: Bridge;
  control?: ReplayControl;
  browser?: Browser;
}

const test = suite<Ctx>('viewer live video in Chromium', {});

test.before(async (ctx) => {
  if (!chromiumPath || !ffmpeg) return;
  const clip = await encodeClip(ffmpeg, { ...SIZE, fps: 30, seconds: 2, gop: 30 });
  const replay = replayVideoDriver(clip, SIZE, DEVICE);
  ctx.control = replay.control;
  ctx.bridge = await startBridge({ engine: createEngine({ virtual: false, extraDrivers: [replay.driver] }), port: 0, webRoot: WEB_DIST, log: () => {}, video: { retryMs: 60_000 } });
  ctx.browser = await launchChromium(chromiumPath);
});

test.after(async (ctx) => {
  try {
    await ctx.browser?.close();
  } finally {
    await ctx.bridge?.close();
  }
});

async function open(ctx: Ctx, query = ''): Promise<{ page: Page; problems: string[] }> {
  const page = await ctx.browser!.newPage({ viewport: { width: 1280, height: 900 } });
  const problems: string[] = [];
  page.on('pageerror', (err) => problems.push(err.message));
  await page.goto(`http://127.0.0.1:${ctx.bridge!.port}/?device=${DEVICE}${query}`);
  await page.waitForSelector('#connection[data-state="open"]');
  return { page, problems };
}

/** Sampled pixels of the canvas, summed: changes when the picture moves. */
function signature(page: Page): Promise<string> {
  return page.evaluate(`(() => {
    const canvas = document.getElementById('screen');
    const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    let sum = 0;
    for (let i = 0; i < data.length; i += 397) sum += data[i];
    return canvas.width + 'x' + canvas.height + ':' + sum;
  })()`);
}

/** Waits until the canvas shows a picture of the clip's size (an unpainted canvas is 300×150). */
function canvasSized(page: Page): Promise<unknown> {
  return pollPage(page, `(() => { const c = document.getElementById('screen'); return c.width === ${SIZE.width} && c.height === ${SIZE.height}; })()`, 'a picture of the clip’s size', 10_000);
}

test('h264 decodes onto the canvas with WebCodecs, the picture moves, and the bar says scrcpy', async (ctx) => {
  if (!ctx.browser) return;
  const { page, problems } = await open(ctx);
  await page.waitForSelector('#source[data-source="scrcpy"][data-format="h264"]', { timeout: 10_000 });
  await canvasSized(page);
  const seen = new Set<string>();
  // Three different pictures: within 3 s on an idle machine, later when the browser decodes on a busy one.
  for (const until = Date.now() + 15_000; seen.size < 3 && Date.now() < until; ) {
    seen.add(await signature(page));
    await page.waitForTimeout(150);
  }
  assert.ok(seen.size >= 3, `the canvas changes as the video plays (${[...seen].join(' | ')})`);
  // Not a black or flat picture: the clip is colourful.
  const colourful = await page.evaluate<number>(`(() => {
    const c = document.getElementById('screen');
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    const values = new Set();
    for (let i = 0; i < d.length; i += 1201) values.add(d[i] >> 4);
    return values.size;
  })()`);
  assert.ok(colourful > 8, `decoded pixels vary (${colourful} levels)`);
  // Loose on purpose: the machine running the suite may give the browser little CPU.
  await pollPage(page, `Number(document.getElementById('fps').textContent) >= 3`, 'frames painted per second in the status bar', 10_000);
  assert.equal(problems, []);
  await page.close();
});

test('?video=0 asks for JPEG; a device whose video fails shows screenshots and the reason', async (ctx) => {
  if (!ctx.browser) return;
  const jpeg = await open(ctx, '&video=0');
  await jpeg.page.waitForSelector('#source[data-source="screencap"][data-format="jpeg"]', { timeout: 10_000 });
  await jpeg.page.close();
  // Let the running stream's grace period pass so the next subscriber opens video afresh.
  await ctx.bridge!.close();
  const clip = await encodeClip(ffmpeg!, { ...SIZE, fps: 30, seconds: 1, gop: 30 });
  const replay = replayVideoDriver(clip, SIZE, DEVICE);
  replay.control.failStart = 'scrcpy-server did not start: version mismatch';
  ctx.bridge = await startBridge({ engine: createEngine({ virtual: false, extraDrivers: [replay.driver] }), port: 0, webRoot: WEB_DIST, log: () => {}, video: { retryMs: 60_000 } });
  const failed = await open(ctx);
  const source = await failed.page.waitForSelector('#source.fallback[data-source="screencap"][data-format="jpeg"]', { timeout: 10_000 });
  assert.match((await source.textContent()) ?? '', /screenshots — video could not start: scrcpy-server did not start: version mismatch/);
  // The screenshots paint (an unpainted canvas is 300×150).
  await canvasSized(failed.page);
  await failed.page.close();
});

test.run();
