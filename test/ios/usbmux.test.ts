import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

import { DeviceRelay } from '../../src/engine/drivers/ios/usbmux/device-relay.js';
import { parsePlistDict, plistXml } from '../../src/engine/drivers/ios/usbmux/plist-xml.js';
import { connectToDevicePort, listUsbmuxDevices, usbmuxdAddress, UsbmuxError } from '../../src/engine/drivers/ios/usbmux/usbmuxd.js';
import { makeRig, PHONE_UDID } from './rig.js';

test('USBMUXD_SOCKET_ADDRESS is read by go-ios rules (GetUsbmuxdSocket)', () => {
  assert.equal(usbmuxdAddress(undefined, 'darwin'), { path: '/var/run/usbmuxd', shown: 'unix:///var/run/usbmuxd' });
  assert.equal(usbmuxdAddress('', 'win32'), { host: '127.0.0.1', port: 27015, shown: 'tcp://127.0.0.1:27015' });
  assert.equal(usbmuxdAddress('UNIX:///tmp/mux', 'linux'), { path: '/tmp/mux', shown: 'unix:///tmp/mux' });
  assert.equal(usbmuxdAddress('/tmp/mux', 'linux'), { path: '/tmp/mux', shown: 'unix:///tmp/mux' });
  assert.equal(usbmuxdAddress('tcp://10.0.0.5:27015', 'linux'), { host: '10.0.0.5', port: 27015, shown: 'tcp://10.0.0.5:27015' });
  assert.equal(usbmuxdAddress('mac.local:27015', 'linux'), { host: 'mac.local', port: 27015, shown: 'tcp://mac.local:27015' });
  assert.throws(() => usbmuxdAddress('http://x:1', 'linux'), (e: Error) => e instanceof UsbmuxError && /neither unix:\/\/<path> nor tcp:\/\/<host>:<port>/.test(e.message));
  assert.throws(() => usbmuxdAddress('tcp://host:99999', 'linux'), (e: Error) => e instanceof UsbmuxError);
});

test('plists: what the relay sends reads back; entities, data, nested arrays and empty elements are read as libplist writes them', () => {
  assert.equal(parsePlistDict(plistXml({ MessageType: 'Connect', DeviceID: 7, ProgName: 'a & <b>' })), { MessageType: 'Connect', DeviceID: 7, ProgName: 'a & <b>' });
  const xml =
    '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n' +
    '<plist version="1.0">\n<dict>\n\t<key>DeviceList</key>\n\t<array>\n\t\t<dict>\n\t\t\t<key>DeviceID</key>\n\t\t\t<integer>3</integer>\n' +
    '\t\t\t<key>Properties</key>\n\t\t\t<dict>\n\t\t\t\t<key>NetworkAddress</key>\n\t\t\t\t<data>\n\t\t\t\tEAIAAMCoARc=\n\t\t\t\t</data>\n' +
    '\t\t\t\t<key>SerialNumber</key>\n\t\t\t\t<string> 00008110-001A </string>\n\t\t\t\t<key>Empty</key>\n\t\t\t\t<string/>\n\t\t\t\t<key>Ok</key>\n\t\t\t\t<true/>\n' +
    '\t\t\t</dict>\n\t\t</dict>\n\t</array>\n\t<key>None</key>\n\t<array/>\n</dict>\n</plist>\n';
  const dict = parsePlistDict(xml) as any;
  assert.is(dict.DeviceList[0].DeviceID, 3);
  assert.equal([...dict.DeviceList[0].Properties.NetworkAddress], [0x10, 2, 0, 0, 192, 168, 1, 23]);
  assert.is(dict.DeviceList[0].Properties.SerialNumber, ' 00008110-001A ', 'string content is kept as written');
  assert.is(dict.DeviceList[0].Properties.Empty, '');
  assert.is(dict.DeviceList[0].Properties.Ok, true);
  assert.equal(dict.None, []);
  assert.throws(() => parsePlistDict('<plist><array/></plist>'), /not a dictionary/);
  assert.throws(() => parsePlistDict('<plist><dict><key>a</key><frob/></dict></plist>'), /unknown plist element <frob>/);
});

/** A "usbmuxd" that answers every message with `answer` (raw bytes), for the shapes the real one never sends. */
async function oddDaemon(answer: Buffer | null): Promise<{ address: string; close(): void }> {
  const dir = mkdtempSync(join(tmpdir(), 'mb-oddmux-'));
  const path = join(dir, 'sock');
  const server: Server = createServer((s) => {
    s.on('error', () => s.destroy());
    s.once('data', () => (answer ? s.write(answer) : s.end()));
  });
  await new Promise<void>((r) => server.listen(path, () => r()));
  return {
    address: `unix://${path}`,
    close: () => {
      server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function frame(payload: string): Buffer {
  const body = Buffer.from(payload, 'utf8');
  const header = Buffer.alloc(16);
  header.writeUInt32LE(16 + body.length, 0);
  header.writeUInt32LE(1, 4);
  header.writeUInt32LE(8, 8);
  header.writeUInt32LE(1, 12);
  return Buffer.concat([header, body]);
}

test('a usbmuxd answering oddly: each shape is a clear error, never a hang', async () => {
  const cases: [Buffer | null, RegExp][] = [
    [null, /closed the connection without an answer/],
    [frame('not xml at all'), /something other than a plist dictionary/],
    [Buffer.from([8, 0, 0, 0, 1, 0, 0, 0, 8, 0, 0, 0, 1, 0, 0, 0]), /a message of 8 bytes, which is no usbmuxd message/],
    [frame(plistXml({ MessageType: 'Result', Number: 6 })), /answered Connect to port 8100 with result 6 \(bad version\)/],
  ];
  for (const [answer, expected] of cases) {
    const daemon = await oddDaemon(answer);
    try {
      const err = await connectToDevicePort(usbmuxdAddress(daemon.address), 1, 8100).then(() => undefined, (e: unknown) => e);
      assert.ok(err instanceof UsbmuxError, String(err));
      assert.match((err as Error).message, expected);
    } finally {
      daemon.close();
    }
  }
  const noList = await oddDaemon(frame(plistXml({ MessageType: 'Result', Number: 0 })));
  try {
    const err = await listUsbmuxDevices(usbmuxdAddress(noList.address)).catch((e: Error) => e);
    assert.match(String(err), /answered ListDevices without a DeviceList/);
  } finally {
    noList.close();
  }
});

test('the relay to a real iPhone listens on 127.0.0.1 only and carries its WebDriverAgent; a Wi-Fi pairing of the same phone is not preferred', async () => {
  const rig = await makeRig({ phone: { version: '17.4.1', tunnel: true } });
  try {
    rig.tools.config.phones[0].wifi = true;
    const devices = await listUsbmuxDevices(usbmuxdAddress(rig.tools.usbmuxd.address));
    assert.equal(devices.map((d) => [d.udid, d.connectionType]), [[PHONE_UDID, 'USB'], [PHONE_UDID, 'Network']]);
    const relay = await DeviceRelay.open(usbmuxdAddress(rig.tools.usbmuxd.address), devices[0].deviceId, 8100);
    try {
      const status = await fetch(`http://127.0.0.1:${relay.port}/status`).then((r) => r.json() as Promise<{ value: { ready: boolean } }>);
      assert.is(status.value.ready, true);
      // Not on any other interface: connecting to the port through another local address is refused.
      const other = await new Promise<string>((resolve) => {
        const s = connect({ host: '127.0.0.2', port: relay.port }, () => (s.destroy(), resolve('connected')));
        s.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
      });
      assert.is.not(other, 'connected');
    } finally {
      relay.close();
    }
    const shot = await rig.call('mobile_take_screenshot');
    assert.is(shot.code, undefined, JSON.stringify(shot).slice(0, 300));
  } finally {
    await rig.close();
  }
});

test('no usbmuxd at the address: UNSUPPORTED naming it and how to run one; WebDriverAgent down: its port refused, named', async () => {
  const missing = await makeRig({ phone: { version: '16.7.8', tunnel: false }, driver: { usbmuxd: 'unix:///nonexistent/usbmuxd' } });
  try {
    const r = await missing.call('mobile_list_elements_on_screen');
    assert.is(r.code, 'UNSUPPORTED', JSON.stringify(r));
    assert.match(r.message, 'usbmuxd is not reachable at unix:///nonexistent/usbmuxd (nothing listens there)');
    assert.match(r.message, /apt install usbmuxd/);
    assert.match(r.message, /USBMUXD_SOCKET_ADDRESS/);
  } finally {
    await missing.close();
  }
  const down = await makeRig({ phone: { version: '16.7.8', tunnel: false }, wdaDown: true, driver: { forwardWaitMs: 600 } });
  try {
    const r = await down.call('mobile_list_elements_on_screen');
    assert.is(r.code, 'UNSUPPORTED', JSON.stringify(r));
    assert.match(r.message, 'WebDriverAgent is not running on iPhone iPhone14,5');
    assert.match(r.message, 'nothing listens on port 8100 of the device (usbmuxd refused the connection)');
  } finally {
    await down.close();
  }
});

test.run();
