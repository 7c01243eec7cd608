/**
 * Live-video benchmark (issue 13): the H.264 path against the screenshot path in the same run.
 * For 1, 10 and 50 viewers of one device: frames per second each viewer receives, latency from the
 * frame's capture to its arrival at the WebSocket client (p50/p99), the bridge's CPU (% of one core)
 * and RSS; for one viewer in Chromium, capture → decoded-on-canvas latency as the viewer shows it.
 *
 *   H.264 path       `stream-android-1`: a clip replayed at 30 fps as a scrcpy stream would arrive
 *                    (see stream-server.ts); the emulator's encode is not part of the figures.
 *   scrcpy-emu       the emulated Android phone's scrcpy-server 3.3.1 through the real adb server
 *                    (its screen is still, so the emulated encoder repeats frames at ~10 fps).
 *   Screenshot path  the emulated Android phone through the real adb server (`screencap`), JPEG at
 *                    540 px; its rate is the bridge's capture rate (what it could deliver at most).
 *
 * Prints figures; asserts nothing. Needs ffmpeg (and adb, chromium for those rows).
 *   node dist/scripts/bench/stream.js   (BENCH_SECONDS=5, BENCH_SUBS=1,10,50)
 */
import type { ChildProcess } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { decodeFrame } from '../../src/protocol/index.js';
import { startRig, type AndroidRig } from '../../test/android/setup.js';
import { launchChromium } from '../../test/web/support/browser.js';
import { pollPage } from '../../test/web/support/poll.js';
import { systemTool } from '../../test/support/system-tools.js';
import { summarize } from './stats.js';
import { cpuSeconds, rssMb, startServerProcess } from './server-process.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const SUBSCRIBER_COUNTS = (process.env.BENCH_SUBS ?? '1,10,50').split(',').map(Number);
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

interface Path {
  name: string;
  device: string;
  screen: Record<string, unknown>;
}

interface Figures {
  viewers: number;
  fpsMin: number;
  fpsMean: number;
  p50: number;
  p99: number;
  cpu: number;
  rss: number;
  captures?: number;
}

const startServer = (adbPort?: number) =>
  startServerProcess(new URL('./stream-server.js', import.meta.url), ROOT, { ...process.env, ...(adbPort ? { STREAM_ADB_PORT: String(adbPort) } : {}) });

interface Viewer {
  ws: WebSocket;
  frames: number;
  latencies: number[];
}

async function viewer(url: string, path: Path): Promise<Viewer> {
  const ws = new WebSocket(url, { perMessageDeflate: false });
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  const v: Viewer = { ws, frames: 0, latencies: [] };
  ws.on('message', (data, binary) => {
    if (!binary) return;
    const { header } = decodeFrame(data as Buffer);
    v.frames++;
    v.latencies.push(Date.now() - header.captured_at);
  });
  ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'devices.subscribe', params: { device: path.device, screen: path.screen } }));
  return v;
}

async function captures(port: number, device: string): Promise<number> {
  const health = (await (await fetch(`http://127.0.0.1:${port}/api/health`)).json()) as { frames?: Record<string, { captures: number }> };
  return health.frames?.[device]?.captures ?? 0;
}

async function measure(server: { child: ChildProcess; url: string; port: number }, path: Path, n: number): Promise<Figures> {
  const viewers = await Promise.all(Array.from({ length: n }, () => viewer(server.url, path)));
  await new Promise((r) => setTimeout(r, 1500));
  for (const v of viewers) {
    v.frames = 0;
    v.latencies = [];
  }
  const pid = server.child.pid!;
  const cpu0 = cpuSeconds(pid);
  const cap0 = await captures(server.port, path.device);
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  const secs = (performance.now() - t0) / 1000;
  const cpu = (cpuSeconds(pid) - cpu0) / secs;
  const cap = (await captures(server.port, path.device)) - cap0;
  const rss = rssMb(pid);
  const fps = viewers.map((v) => v.frames / secs);
  const lat = summarize(viewers.flatMap((v) => v.latencies));
  await Promise.all(viewers.map((v) => new Promise((r) => (v.ws.once('close', r), v.ws.close()))));
  // The device stream outlives its viewers by the grace period: let it pass so runs do not overlap.
  await new Promise((r) => setTimeout(r, 6000));
  return { viewers: n, fpsMin: Math.min(...fps), fpsMean: fps.reduce((a, b) => a + b, 0) / n, p50: lat.median, p99: lat.p99, cpu, rss, ...(path.screen.format === 'h264' ? {} : { captures: cap / secs }) };
}

/** Capture → canvas latency as the viewer's status bar shows it, sampled for SECONDS. */
async function canvasLatency(chromium: string, port: number, device: string, query: string): Promise<{ p50: number; fps: number; source: string } | undefined> {
  const browser = await launchChromium(chromium);
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`http://127.0.0.1:${port}/?device=${encodeURIComponent(device)}${query}`);
    const shown = await pollPage(page, `document.getElementById('latency').textContent.endsWith('ms')`, 'a latency figure', 20_000).then(
      () => true,
      () => false,
    );
    if (!shown) return undefined;
    await page.waitForTimeout(1000);
    const samples: number[] = [];
    const rates: number[] = [];
    for (let i = 0; i < SECONDS * 4; i++) {
      const [lat, fps] = await page.evaluate<[string, string]>(`[document.getElementById('latency').textContent, document.getElementById('fps').textContent]`);
      samples.push(Number.parseFloat(lat));
      rates.push(Number(fps));
      await page.waitForTimeout(250);
    }
    const source = await page.evaluate<string>(`document.getElementById('source').textContent`);
    return { p50: summarize(samples).median, fps: summarize(rates).median, source };
  } finally {
    await browser.close();
  }
}

function print(label: string, f: Figures): void {
  const extra = f.captures === undefined ? '' : `   captures/s ${f.captures.toFixed(1)}`;
  console.log(
    `${label.padEnd(12)} ${String(f.viewers).padStart(3)} viewers   fps/viewer min ${f.fpsMin.toFixed(1).padStart(5)} mean ${f.fpsMean.toFixed(1).padStart(5)}   capture→client p50 ${f.p50.toFixed(0).padStart(4)} ms p99 ${f.p99.toFixed(0).padStart(5)} ms   bridge CPU ${(f.cpu * 100).toFixed(1).padStart(5)}%   RSS ${f.rss.toFixed(0)} MB${extra}`,
  );
}

async function main(): Promise<void> {
  const ffmpeg = systemTool('ffmpeg', 'the stream benchmark replays an H.264 clip it encodes');
  if (!ffmpeg) return;
  const adb = systemTool('adb', 'the screenshot path runs through the real adb server');
  const chromium = systemTool('chromium', 'the canvas latency row needs it');
  console.log(`stream benchmark, node ${process.version}, ${cpus().length} CPUs (${cpus()[0]?.model ?? '?'}), ${SECONDS} s per row, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}\n`);
  let rig: AndroidRig | undefined;
  const server = await startServer(adb ? (rig = await startRig()).server.port : undefined);
  try {
    const paths: Path[] = [{ name: 'h264', device: 'stream-android-1', screen: { format: 'h264', maxFps: 30 } }];
    if (rig) {
      // The emulated phone's own scrcpy-server (ffmpeg encode of its screen); a still screen repeats frames at ~10 fps like MediaCodec.
      paths.push({ name: 'scrcpy-emu', device: rig.phone.serial, screen: { format: 'h264', maxFps: 30 } });
      paths.push({ name: 'screenshots', device: rig.phone.serial, screen: { format: 'jpeg', maxWidth: 540, maxFps: 30 } });
    }
    const results = new Map<string, Figures[]>();
    for (const path of paths) {
      const rows: Figures[] = [];
      for (const n of SUBSCRIBER_COUNTS) {
        const f = await measure(server, path, n);
        rows.push(f);
        print(path.name, f);
      }
      results.set(path.name, rows);
    }
    const h264 = results.get('h264')!;
    const one = h264.find((f) => f.viewers === 1);
    const ten = h264.find((f) => f.viewers === 10);
    if (one && ten) console.log(`\nh264 fan-out CPU per 10 viewers: ${(((ten.cpu - one.cpu) / 9) * 10 * 100).toFixed(1)}% of a core (device stream alone, 1 viewer: ${(one.cpu * 100).toFixed(1)}%)`);
    const shots = results.get('screenshots')?.find((f) => f.viewers === 1);
    if (one && shots?.captures) console.log(`h264 fps / screenshot-path capture rate (1 viewer): ${(one.fpsMean / shots.captures).toFixed(1)}×`);
    if (chromium) {
      const video = await canvasLatency(chromium, server.port, 'stream-android-1', '');
      console.log(video ? `Chromium, 1 viewer, h264 (${video.source}): capture→canvas p50 ${video.p50.toFixed(0)} ms at ${video.fps} fps` : 'Chromium, h264: no latency shown within 20 s');
      if (rig) {
        const jpeg = await canvasLatency(chromium, server.port, rig.phone.serial, '&video=0');
        console.log(jpeg ? `Chromium, 1 viewer, screenshots (${jpeg.source}): capture→canvas p50 ${jpeg.p50.toFixed(0)} ms at ${jpeg.fps} fps` : 'Chromium, screenshots: no latency shown within 20 s (fewer than two frames)');
      }
    }
  } finally {
    server.child.kill('SIGTERM');
    await new Promise((r) => server.child.once('exit', r));
    await rig?.stop();
  }
}

await main();
