import { Readable, type Duplex } from 'node:stream';
import adbkit from '@devicefarmer/adbkit';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { scrcpyServerJar } from '../../src/engine/drivers/android/scrcpy/server-jar.js';
import { DEMO_PACKAGE } from '../../src/engine/drivers/virtual/index.js';
import { decode, hasFfmpeg, until } from './scrcpy-support.js';
import { hasAdb, startRig, type AndroidRig } from './setup.js';

/**
 * The emulated server checked byte for byte against scrcpy 3.3.1's formats, with a client written from
 * the layouts in the sources (no @yume-chan/scrcpy), so the emulation and the driver cannot share a mistake.
 */
const test = suite<{ rig?: AndroidRig }>('emulated scrcpy-server 3.3.1 on the wire');
const ready = hasAdb() && hasFfmpeg();

test.before(async (ctx) => {
  if (ready) ctx.rig = await startRig();
});
test.after(async (ctx) => {
  await ctx.rig?.stop();
});

/** Exact reads from a socket. */
function reader(socket: Duplex): (n: number) => Promise<Buffer> {
  let buffer = Buffer.alloc(0);
  let wake: (() => void) | undefined;
  let ended = false;
  socket.on('data', (c: Buffer) => {
    buffer = Buffer.concat([buffer, c]);
    wake?.();
  });
  socket.on('end', () => {
    ended = true;
    wake?.();
  });
  return async (n) => {
    while (buffer.length < n) {
      if (ended) throw new Error(`socket ended with ${buffer.length} of ${n} bytes`);
      await new Promise<void>((r) => (wake = r));
    }
    const out = buffer.subarray(0, n);
    buffer = buffer.subarray(n);
    return out;
  };
}

interface Server {
  device: ReturnType<ReturnType<typeof adbkit.Adb.createClient>['getDevice']>;
  shell: Duplex;
  log: () => string;
  /** Opens the next socket, retrying until the server has bound its name. */
  connect: () => Promise<Duplex>;
}

/** Pushes the jar and runs the server with `options` after the version, as scrcpy's client would. */
async function runServer(rig: AndroidRig, options: string): Promise<Server> {
  const device = adbkit.Adb.createClient({ port: rig.server.port }).getDevice(rig.phone.serial);
  const transfer = await device.push(Readable.from([scrcpyServerJar()]), '/data/local/tmp/scrcpy-server.jar');
  await new Promise((resolve, reject) => transfer.on('end', resolve).on('error', reject));
  const shell = await device.shell(`CLASSPATH=/data/local/tmp/scrcpy-server.jar app_process / com.genymobile.scrcpy.Server 3.3.1 ${options}`);
  let log = '';
  shell.on('data', (c: Buffer) => (log += c.toString()));
  const name = /scid=(\w+)/.exec(options)?.[1];
  const connect = async (): Promise<Duplex> => {
    for (let i = 0; i < 100; i++) {
      const socket = await device.openLocal(`localabstract:scrcpy_${name}`).catch(() => undefined);
      if (socket) return socket;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`the server never bound scrcpy_${name}: ${log}`);
  };
  return { device, shell, log: () => log, connect };
}

/** The server's last lines may still be on their way through adb when its process is gone. */
async function logShows(log: () => string, line: RegExp): Promise<void> {
  await until(() => line.test(log()), `the server output to show ${line}`).catch((err: Error) => {
    throw new Error(`${err.message}; it is: ${JSON.stringify(log())}`);
  });
}

/** One H.264 packet after its 12-byte frame header. */
async function packet(read: (n: number) => Promise<Buffer>): Promise<{ flags: bigint; data: Buffer }> {
  const head = await read(12);
  return { flags: head.readBigUInt64BE(0), data: await read(head.readUInt32BE(8)) };
}

function touch(action: number, x: number, y: number, w: number, h: number): Buffer {
  const b = Buffer.alloc(32);
  b[0] = 2;
  b[1] = action;
  b.writeBigInt64BE(-2n, 2);
  b.writeInt32BE(x, 10);
  b.writeInt32BE(y, 14);
  b.writeUInt16BE(w, 18);
  b.writeUInt16BE(h, 20);
  b.writeUInt16BE(action === 1 ? 0 : 0xffff, 22);
  return b;
}

test('dummy byte, device meta, codec meta, frame headers; touches for another size dropped; untypable characters dropped; an unknown type stops the server without an error line', async ({ rig }) => {
  if (!rig) return;
  const { device, shell, log: output, connect } = await runServer(rig, 'scid=0000abcd tunnel_forward=true audio=false max_size=1200 log_level=info');
  const video = await connect();
  const read = reader(video);
  let control: Duplex | undefined;
  try {
    // DesktopConnection.open writes it right after accepting the first socket, before the next accept.
    const dummy = await Promise.race([read(1), new Promise<undefined>((r) => setTimeout(() => r(undefined), 5_000))]);
    assert.equal(dummy && [...dummy], [0], 'send_dummy_byte defaults to true: one 0x00 first, before the control socket is opened');
    const socket = await device.openLocal('localabstract:scrcpy_0000abcd');
    control = socket;
    const name = await read(64);
    assert.is(name.toString('utf8').replace(/\0+$/, ''), 'Virtual Pixel 8', '64-byte NUL-padded device name');
    const meta = await read(12);
    assert.equal([meta.toString('latin1', 0, 4), meta.readUInt32BE(4), meta.readUInt32BE(8)], ['h264', 544, 1200]);
    const first = await read(12);
    assert.is(first.readBigUInt64BE(0), 1n << 63n, 'CONFIG flag, pts 0');
    const config = await read(first.readUInt32BE(8));
    assert.is(config[4] & 0x1f, 7, 'SPS');
    const second = await read(12);
    const flags = second.readBigUInt64BE(0);
    assert.ok((flags & (1n << 62n)) !== 0n && (flags & (1n << 63n)) === 0n, 'then a KEY_FRAME packet');
    await read(second.readUInt32BE(8));

    await rig.call('mobile_launch_app', { packageName: DEMO_PACKAGE });
    await rig.call('mobile_open_url', { url: 'mbdemo://screen/signin' });
    const injected = rig.phone.scrcpy.injected;
    injected.length = 0;
    // The bytes of notes/streaming.md, made for a 540x1200 video: the server streams 544x1200, so Controller drops them.
    socket.write(Buffer.concat([touch(0, 270, 600, 540, 1200), touch(1, 270, 600, 540, 1200)]));
    const email = { x: 540, y: 600 };
    socket.write(Buffer.concat([touch(0, (email.x * 544) / 1080, (email.y * 1200) / 2400, 544, 1200), touch(1, (email.x * 544) / 1080, (email.y * 1200) / 2400, 544, 1200)]));
    const text = Buffer.from('straße😀');
    const inject = Buffer.alloc(5);
    inject[0] = 1;
    inject.writeUInt32BE(text.length, 1);
    socket.write(Buffer.concat([inject, text]));
    await until(() => injected.some((e) => e.startsWith('text')), 'the text');
    assert.equal(injected, ['dropped touch for 540x1200', 'dropped touch for 540x1200', 'tap 540,600', 'text strae']);
    await until(() => /WARN: Could not inject char u\+de00/.test(output()), 'the warnings for ß and the emoji');
    // Controller.injectText goes by Java char: the emoji's two UTF-16 units are refused one by one.
    assert.equal(output().match(/Could not inject char u\+\w+/g), ['Could not inject char u+00df', 'Could not inject char u+d83d', 'Could not inject char u+de00']);
    // ControlProtocolException is an IOException, which Controller.handleEvent takes for the socket closing.
    socket.write(Buffer.from([99]));
    await until(() => rig.phone.scrcpy.servers === 0, 'the server to exit');
    assert.not.match(output(), /ERROR|Exception/, output());
  } finally {
    video.destroy();
    control?.destroy();
    shell.destroy();
  }
});

test('the server wakes a dark screen before it reads a message (power_on); log_level=warn leaves out INFO lines; a text length over 2^31 crashes the controller', async ({ rig }) => {
  if (!rig) return;
  const quirks = rig.phone.shell.quirks;
  quirks.screenOff = true;
  const { shell, log, connect } = await runServer(rig, 'scid=0000abce tunnel_forward=true audio=false video=false log_level=warn');
  const control = await connect();
  try {
    const read = reader(control);
    assert.equal([...(await read(1))], [0], 'without video the control socket is the first: the dummy byte');
    assert.is((await read(64)).toString('utf8').replace(/\0+$/, ''), 'Virtual Pixel 8', 'and the device meta');
    // Controller.control presses POWER when PowerManager says the screen is off.
    await until(() => !quirks.screenOff, 'the screen to be woken');
    // ControlMessageReader reads the length into a Java int: new byte[-2^31] throws, and only IOExceptions are caught.
    control.write(Buffer.from([1, 0x80, 0, 0, 0]));
    await until(() => rig.phone.scrcpy.servers === 0, 'the server to exit');
    await logShows(log, /\[server\] ERROR: Exception on thread Thread\[control-recv,5,main\]\njava\.lang\.NegativeArraySizeException: -2147483648\n/);
    assert.not.match(log(), /INFO:/, 'Ln.initLogLevel(WARN): no "Device:" line');
  } finally {
    quirks.screenOff = false;
    control.destroy();
    shell.destroy();
  }
});

test('an encoder that refuses the size: the header keeps it, the stream is downsized (SurfaceEncoder.prepareRetry, downsize_on_error)', async ({ rig }) => {
  if (!rig) return;
  rig.phone.scrcpy.faults = { encoderMaxSize: 1100 };
  const { shell, log, connect } = await runServer(rig, 'scid=0000abcf tunnel_forward=true audio=false control=false max_size=1200 log_level=info send_dummy_byte=false');
  const video = await connect();
  try {
    const read = reader(video);
    await read(64);
    const meta = await read(12);
    assert.equal([meta.readUInt32BE(4), meta.readUInt32BE(8)], [544, 1200], 'the header is written before the encoder is configured');
    const config = await packet(read);
    const key = await packet(read);
    assert.is(config.flags, 1n << 63n);
    const decoded = decode(Buffer.concat([config.data, key.data]));
    assert.equal([decoded.width, decoded.height], [464, 1024], `-m1024, the first fallback below 1200: ${decoded.error}`);
    // The log comes over the shell stream, the packets over the video socket: either may arrive first.
    await logShows(log, /ERROR: Capture\/encoding error: android\.media\.MediaCodec\$CodecException: .*\n\[server\] INFO: Retrying with -m1024\.\.\./);
  } finally {
    rig.phone.scrcpy.faults = {};
    video.destroy();
    shell.destroy();
  }
});

test('list_encoders and list_displays print LogUtils\' lists and exit without mirroring; the jar is unlinked', async ({ rig }) => {
  if (!rig) return;
  const { shell, log } = await runServer(rig, 'scid=0000abd0 list_encoders=true list_displays=true log_level=info');
  try {
    await until(() => rig.phone.scrcpy.servers === 0, 'the server to exit');
    await logShows(log, /List of displays:\n.*\n$/);
    // From Android 10 each encoder line is padded to column 70, then its type.
    assert.match(log(), /\n\[server\] INFO: List of video encoders:\n {4}--video-codec=h264 --video-encoder=c2\.android\.avc\.encoder {9}\(sw\)\n\[server\] INFO: List of audio encoders:\n\[server\] INFO: List of displays:\n {4}--display-id=0 {4}\(1080x2400\)\n$/, log());
    assert.is(rig.phone.files.read('/data/local/tmp/scrcpy-server.jar'), undefined, 'Server.internalMain calls CleanUp.unlinkSelf in list mode');
  } finally {
    shell.destroy();
  }
});

test('a display that does not exist and a codec without an encoder: the sockets open, then ScreenCapture or SurfaceEncoder names what exists and the server exits before the codec header', async ({ rig }) => {
  if (!rig) return;
  for (const [scid, option, error] of [
    ['0000abd1', 'display_id=3', /\[server\] ERROR: Display 3 not found\nList of displays:\n {4}--display-id=0 {4}\(1080x2400\)\n/],
    ['0000abd2', 'video_codec=h265', /\[server\] ERROR: Could not create default video encoder for h265\nList of video encoders:\n {4}--video-codec=h264 --video-encoder=c2\.android\.avc\.encoder {9}\(sw\)\n/],
  ] as const) {
    const { shell, log, connect } = await runServer(rig, `scid=${scid} tunnel_forward=true audio=false log_level=info send_dummy_byte=false ${option}`);
    const video = await connect();
    let control: Duplex | undefined;
    try {
      control = await connect();
      const read = reader(video);
      assert.is((await read(64)).toString('utf8').replace(/\0+$/, ''), 'Virtual Pixel 8', `${option}: the device meta comes first`);
      const header = await read(12).then(() => 'a codec header', (err: Error) => err.message);
      assert.match(header, /socket ended with 0 of 12 bytes/, `${option}: no codec header`);
      await until(() => rig.phone.scrcpy.servers === 0, 'the server to exit');
      await logShows(log, error);
    } finally {
      video.destroy();
      control?.destroy();
      shell.destroy();
    }
  }
});

test('ACK_CLIPBOARD carries the sequence as a signed long; RESET_VIDEO without video does nothing and logs nothing', async ({ rig }) => {
  if (!rig) return;
  const { shell, log, connect } = await runServer(rig, 'scid=0000abd3 tunnel_forward=true audio=false video=false log_level=info send_dummy_byte=false');
  const control = await connect();
  try {
    const read = reader(control);
    await read(64);
    const setClipboard = (sequence: bigint, text: string) => {
      const bytes = Buffer.from(text);
      const head = Buffer.alloc(14);
      head[0] = 9;
      head.writeBigInt64BE(sequence, 1);
      head.writeUInt32BE(bytes.length, 10);
      return Buffer.concat([head, bytes]);
    };
    // RESET_VIDEO (17) first: Controller.resetVideo has no capture to reset when video=false.
    control.write(Buffer.concat([Buffer.from([17]), setClipboard(-2n, 'first')]));
    const ack = await read(9);
    assert.equal([ack[0], ack.readBigInt64BE(1)], [1, -2n], 'DeviceMessageWriter writes the sequence back with writeLong');
    control.write(setClipboard(7n, 'second'));
    const next = await read(9);
    assert.equal([next[0], next.readBigInt64BE(1)], [1, 7n]);
    await until(() => (log().match(/Device clipboard set/g) ?? []).length === 2, 'both clipboard lines');
    assert.not.match(log(), /Video capture reset/, log());
  } finally {
    control.destroy();
    shell.destroy();
  }
});

test.run();
