import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { clipboardMessage } from '../harness/adbd/scrcpy/controller.js';
import { parseServerOptions } from '../harness/adbd/scrcpy/options.js';
import { deviceMeta } from '../harness/adbd/scrcpy/strings.js';

/** The emulated scrcpy-server's parsers against what scrcpy 3.3.1's Options.parse and writers do. */

const parse = (...words: string[]) => parseServerOptions(['3.3.1', ...words]);

function refusal(words: string[]): string {
  try {
    parse(...words);
  } catch (err) {
    return `${(err as Error).name}: ${(err as Error).message}`;
  }
  return 'accepted';
}

test('scid is Integer.parseInt(value, 16): 31 bits, hex digits only', () => {
  assert.is(parse('scid=7fffffff').scid, 0x7fffffff);
  assert.is(parse('scid=-1').scid, -1);
  assert.is(refusal(['scid=80000000']), 'java.lang.NumberFormatException: For input string: "80000000" under radix 16');
  assert.is(refusal(['scid=12zz']), 'java.lang.NumberFormatException: For input string: "12zz" under radix 16');
  assert.is(refusal(['scid=-2']), "java.lang.IllegalArgumentException: scid may not be negative (except -1 for 'none'): -2");
});

test('booleans are Boolean.parseBoolean; numbers and levels are checked as Java does', () => {
  assert.is(parse('send_dummy_byte=TRUE').sendDummyByte, true);
  assert.is(parse('audio=yes').audio, false);
  assert.is(parse('max_size=1203').maxSize, 1200, 'max_size & ~7');
  assert.is(parse('max_fps=29.97').maxFps, 29.97);
  assert.is(refusal(['max_fps=abc']), 'java.lang.IllegalArgumentException: Invalid float value for max_fps: "abc"');
  assert.is(refusal(['max_size=1e3']), 'java.lang.NumberFormatException: For input string: "1e3"');
  assert.is(parse('log_level=warn').logLevel, 'WARN');
  assert.is(refusal(['log_level=loud']), 'java.lang.IllegalArgumentException: No enum constant com.genymobile.scrcpy.util.Ln.Level.LOUD');
  assert.is(refusal(['max_fps']), 'java.lang.IllegalArgumentException: Invalid key=value pair: "max_fps"');
});

test('only keys Options.parse does not know are warned about', () => {
  const options = parse('display_id=0', 'crop=', 'show_touches=false', 'video_bit_rate=8000000', 'stay_awake=true', 'power_on=false', 'shiny=1');
  assert.equal(options.unknown, ['shiny']);
  assert.is(options.powerOn, false);
});

test('video_codec_options follow CodecOption.parse: int by default, typed values, escapes', () => {
  assert.is(parse('video_codec_options=profile=1,i-frame-interval=2').iFrameIntervalS, 2);
  assert.is(parse('video_codec_options=i-frame-interval:float=0.5').iFrameIntervalS, 0.5);
  assert.is(refusal(['video_codec_options=i-frame-interval=0.5']), 'java.lang.NumberFormatException: For input string: "0.5"');
  assert.is(refusal(['video_codec_options=i-frame-interval:double=1']), 'java.lang.IllegalArgumentException: Invalid codec option type (int, long, float, str): double');
  assert.is(refusal(['video_codec_options=vendor.name:string=a\\,b,=1']), "java.lang.IllegalArgumentException: Key may not be null");
  assert.is(refusal(['video_codec_options=profile']), "java.lang.IllegalArgumentException: '=' expected");
  assert.is(refusal(['video_codec=vp8']), 'java.lang.IllegalArgumentException: Video codec vp8 not supported');
});

test('strings are cut on a UTF-8 character boundary: the 64-byte device name, a clipboard over 256 KiB', () => {
  const name = deviceMeta('é'.repeat(40));
  assert.is(name.length, 64);
  assert.is(name.subarray(0, 62).toString('utf8'), 'é'.repeat(31), '63 bytes would split an é: 62 kept');
  assert.ok(name.subarray(62).every((b) => b === 0), 'NUL-padded');
  const message = clipboardMessage('日'.repeat(100_000));
  const length = message.readUInt32BE(1);
  assert.is(length, 262_137, 'DeviceMessageWriter.CLIPBOARD_TEXT_MAX_LENGTH is 262139 bytes; a whole 日 is 3');
  assert.is(message.length, 5 + length);
});

test.run();
