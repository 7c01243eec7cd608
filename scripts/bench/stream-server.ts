/**
 * The server side of scripts/bench/stream.ts, in its own process so its CPU and RSS are the bridge's
 * own. Serves `stream-android-1`, whose live video replays an H.264 clip (540×1200, 30 fps, libx264
 * Baseline, key frame every 2 s) encoded once here with ffmpeg, and, when STREAM_ADB_PORT names an
 * adb server, the Android devices behind it (the screenshot path: `screencap` through adb). Prints
 * the WebSocket URL on stdout.
 */
import { startBridge } from '../../src/bridge/index.js';
import type { Driver } from '../../src/engine/driver.js';
import { createEngine } from '../../src/engine/create.js';
import { encodeClip } from '../../test/support/h264-clip.js';
import { replayVideoDriver } from '../../test/support/replay-video.js';

const SIZE = { width: 540, height: 1200 };
const clip = await encodeClip(process.env.FFMPEG ?? 'ffmpeg', { ...SIZE, fps: 30, seconds: 4, gop: 60 });
const drivers: Driver[] = [replayVideoDriver(clip, SIZE, 'stream-android-1').driver];
const adbPort = process.env.STREAM_ADB_PORT ? Number(process.env.STREAM_ADB_PORT) : undefined;
const engine = createEngine({ virtual: false, ios: false, android: adbPort ? { port: adbPort } : false, extraDrivers: drivers });
const bridge = await startBridge({ engine, port: 0, log: () => undefined, rateLimit: { perSecond: 100_000, burst: 100_000 } });
process.stdout.write(`${bridge.wsUrl}\n`);
process.on('SIGTERM', () => void bridge.close().then(() => process.exit(0)));
