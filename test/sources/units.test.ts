import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseFlags } from '../../src/cli/command.js';
import { parsePeer } from '../../src/bridge/peers/peer-spec.js';
import { parseAdbSource, parseWdaSource, sourcesFromFlags } from '../../src/engine/sources/index.js';

test('--adb and --wda repeat; other flags keep the last value', () => {
  const { flags } = parseFlags(['--adb', 'lab1=10.0.0.5:5037', '--adb=10.0.0.6:5037', '--wda', 'x=http://h:8100', '--device', 'a', '--device', 'b']);
  assert.is(flags.adb, 'lab1=10.0.0.5:5037,10.0.0.6:5037');
  assert.is(flags.device, 'b');
});

test('adb sources: named, unnamed (host:port becomes the name), default local', () => {
  assert.equal(parseAdbSource('lab1=10.0.0.5:5037'), { name: 'lab1', host: '10.0.0.5', port: 5037 });
  assert.equal(parseAdbSource('10.0.0.6:5038'), { name: '10.0.0.6-5038', host: '10.0.0.6', port: 5038 });
  const s = sourcesFromFlags({ adb: 'a=127.0.0.1:6001,b=127.0.0.1:6002' }, {});
  assert.equal(s.adb.map((x) => [x.name, x.port, x.startServer]), [['a', 6001, false], ['b', 6002, false]]);
  assert.equal(sourcesFromFlags({}, { ANDROID_ADB_SERVER_PORT: '6003' }).adb, [{ name: 'local', host: '127.0.0.1', port: 6003, startServer: true, origin: 'ANDROID_ADB_SERVER_PORT=6003' }]);
  assert.equal(sourcesFromFlags({ android: false }, {}).adb, []);
  assert.throws(() => sourcesFromFlags({ android: false, adb: 'slow=127.0.0.1:47901' }, {}), /--no-android turns Android off, so the --adb sources \(slow=127\.0\.0\.1:47901\) would be ignored/);
});

test('bad sources are refused with the way to fix them', () => {
  assert.throws(() => sourcesFromFlags({ adb: 'a=h:1,a=h:2' }, {}), /both named "a"/);
  assert.throws(() => parseAdbSource('bad name=h:1'), /source name/);
  // Another host's phones listed with source "virtual" would pass for this bridge's own.
  assert.throws(() => parseAdbSource('virtual=h:1'), /already the source of this bridge's own devices/);
  assert.throws(() => parseWdaSource('ios=http://10.0.0.7:8100'), /already the source/);
  assert.throws(() => parsePeer('Virtual=ws://10.0.0.5:4800'), /already the source/);
  assert.throws(() => parsePeer('local=ws://10.0.0.5:4800'), /own adb server/);
  assert.is(parseAdbSource('local=127.0.0.1:5037').name, 'local', 'an adb server may be called local');
  assert.throws(() => parseWdaSource('http://10.0.0.7:8100'), /give the iPhone a name/);
  assert.throws(() => parseWdaSource('x=https://h'), /plain http/);
  assert.equal(parseWdaSource('lab-iphone=http://10.0.0.7:8100/'), { name: 'lab-iphone', url: 'http://10.0.0.7:8100' });
});

test.run();
