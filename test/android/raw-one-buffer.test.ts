import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { RawCollector } from '../../src/engine/drivers/android/raw-collector.js';
import { DEMO_PACKAGE } from '../../src/engine/drivers/virtual/index.js';
import { hasAdb, startRig, type AndroidRig } from './setup.js';

/**
 * A whole raw capture (a viewer's frame, a saved PNG, an agent's first screenshot) is read into one
 * buffer sized from its header, never gathered in chunks and joined (which held the frame twice).
 */
const collector = suite('raw screencap output gathered into one buffer');

function frame(width: number, height: number, format: number, headerSize: 12 | 16): Buffer {
  const out = Buffer.alloc(headerSize + width * height * (format === 4 ? 2 : 4));
  out.writeUInt32LE(width, 0);
  out.writeUInt32LE(height, 4);
  out.writeUInt32LE(format, 8);
  for (let i = headerSize; i < out.length; i++) out[i] = i & 0xff;
  return out;
}

function pushed(out: Buffer, sizes: number[]): { collector: RawCollector } {
  const c = new RawCollector();
  let at = 0;
  for (const size of sizes) {
    c.push(out.subarray(at, at + size));
    at += size;
  }
  if (at < out.length) c.push(out.subarray(at));
  return { collector: c };
}

collector('a 16-byte-header frame in many chunks, the header split: the result is its bytes, in one buffer sized for it', () => {
  const out = frame(64, 48, 1, 16);
  const { collector: c } = pushed(out, [5, 4, 7, 1000, 3000]);
  const result = c.result();
  assert.ok(result.equals(out));
  assert.is(result.byteOffset, 0, 'the start of the one buffer');
  assert.ok(result.buffer.byteLength < out.length * 2, `one buffer for the frame: ${result.buffer.byteLength} bytes for ${out.length}`);
});

collector('12-byte headers (before Android 8) and RGB_565 fit the same way', () => {
  for (const out of [frame(30, 20, 1, 12), frame(30, 20, 4, 16)]) assert.ok(pushed(out, [12, 100]).collector.result().equals(out));
});

collector('output that is no readable frame (an error printed, an unknown format, too many bytes) is kept as it came', () => {
  const text = Buffer.from('screencap: Capturing failed.\nsome more text to go past twelve bytes\n');
  assert.ok(pushed(text, [3, 20]).collector.result().equals(text));
  const unknown = frame(8, 8, 43, 16);
  assert.ok(pushed(unknown, [40]).collector.result().equals(unknown));
  const long = Buffer.concat([frame(8, 8, 1, 16), Buffer.from('trailing junk')]);
  assert.ok(pushed(long, [100, 100]).collector.result().equals(long));
});

const device = suite<{ rig?: AndroidRig }>('android: whole raw captures are never joined from chunks');

device.before(async (ctx) => {
  ctx.rig = await startRig();
});
device.after(async (ctx) => {
  await ctx.rig?.stop();
});

device('viewer frames and saved PNGs: no Buffer.concat of a frame\'s size', async ({ rig }) => {
  const engine = rig!.engineWith({ screencap: 'raw' });
  const serial = rig!.phone.serial;
  await engine.call('mobile_launch_app', { device: serial, packageName: DEMO_PACKAGE });
  const frameBytes = 1080 * 2400 * 4;
  const joined: string[] = [];
  const concat = Buffer.concat;
  Buffer.concat = ((list: readonly Uint8Array[], total?: number) => {
    const out = concat(list, total);
    // The emulated phone (in this process) builds its frames with concat too: only the engine's count.
    const stack = new Error().stack ?? '';
    if (out.length >= frameBytes && !stack.includes('/test/harness/')) joined.push(stack.split('\n')[2]?.trim() ?? '');
    return out;
  }) as typeof Buffer.concat;
  try {
    const raw = await engine.withDevice(serial, 'raw screenshot', (d, ctx) => d.screenshotRaw!(ctx));
    const png = await engine.withDevice(serial, 'screenshot', (d, ctx) => d.screenshot(ctx));
    assert.equal([raw.width, raw.height, png.width, png.height], [1080, 2400, 1080, 2400]);
  } finally {
    Buffer.concat = concat;
  }
  assert.equal(joined, [], 'frames joined from chunks');
});

collector.run();
if (hasAdb()) device.run();
