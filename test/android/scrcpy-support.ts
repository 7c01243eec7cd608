import { spawnSync } from 'node:child_process';
import * as assert from 'uvu/assert';
import { ToolError } from '../../src/engine/errors.js';
import type { DeviceHandle, VideoPacket, VideoStream } from '../../src/engine/driver.js';
import type { Engine } from '../../src/engine/engine.js';
import { systemTool } from '../support/system-tools.js';
import type { AndroidRig } from './setup.js';

export const hasFfmpeg = (): boolean => systemTool('ffmpeg', 'the emulated scrcpy-server encodes the phone screen with it') !== undefined;

/** The engine's handle for the rig's phone (openVideo runs outside the device queue, as the bridge calls it). */
export function handleOf(rig: AndroidRig, engine: Engine = rig.engine): Promise<DeviceHandle> {
  return engine.withDevice(rig.phone.serial, 'test handle', async (device) => device);
}

/** The next n packets, failing the test if the stream stalls. */
export async function take(stream: VideoStream | AsyncIterator<VideoPacket>, n: number, ms = 15_000): Promise<VideoPacket[]> {
  const it = 'next' in stream ? stream : stream.packets()[Symbol.asyncIterator]();
  const out: VideoPacket[] = [];
  const deadline = Date.now() + ms;
  while (out.length < n) {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((r) => (timer = setTimeout(() => r('late'), Math.max(1, deadline - Date.now()))));
    // Cleared once a packet came: a pending 15 s timer per packet kept a finished test file's process alive that long.
    const next = await Promise.race([it.next(), late]).finally(() => clearTimeout(timer));
    if (next === 'late') throw new Error(`only ${out.length} of ${n} video packets within ${ms} ms`);
    if (next.done) throw new Error(`the stream ended after ${out.length} packets`);
    out.push(next.value);
  }
  return out;
}

/** The message openVideo rejects with (a ToolError), or 'opened' when it opened (the stream is closed again). */
export async function openFails(rig: AndroidRig, engine: Engine): Promise<string> {
  const handle = await handleOf(rig, engine);
  try {
    const video = await handle.openVideo!({ maxSize: 1200, maxFps: 30 });
    await video.close();
    return 'opened';
  } catch (err) {
    assert.instance(err, ToolError);
    return (err as Error).message;
  }
}

export { until } from './setup.js';

/** Decodes Annex-B with ffmpeg and returns the number of frames and their size. */
export function decode(annexB: Buffer): { frames: number; width: number; height: number; error: string } {
  const r = spawnSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-f', 'h264', '-i', '-', '-f', 'framemd5', '-'], { input: annexB, encoding: 'utf8' });
  const lines = r.stdout.split('\n').filter((l) => /^\s*0,/.test(l));
  const size = /#dimensions 0: (\d+)x(\d+)/.exec(r.stdout);
  return { frames: lines.length, width: Number(size?.[1] ?? 0), height: Number(size?.[2] ?? 0), error: r.stderr.trim() };
}

/** Shell services that would mean input went through `input` or `monkey` instead of the control socket. */
export const slowInputServices = (opened: string[]): string[] => opened.filter((s) => /(?:^|[;&| ])input |monkey|^tcp:1080/.test(s));
