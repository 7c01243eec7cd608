import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createEngine } from '../../src/engine/create.js';
import { ScriptedAdbServer, type ScriptedAnswer } from '../harness/scripted-adb-server.js';

/**
 * What adb says of devices a TCP adbd behind the real server cannot be made to be (USB-only states),
 * scripted as adb's transport.cpp answers: two phones that ship with one serial, a phone that reports
 * no serial, and a refusal that comes at once. They used to be listed as "did not answer within
 * 3000 ms" and their calls failed with TIMEOUT, while adb had said why within milliseconds.
 */
type Listed = { devices: { id: string; state: string; message?: string }[] };

async function withServer(devices: string, transport: (serial: string) => ScriptedAnswer, work: (call: (tool: string, params: object) => Promise<Record<string, unknown>>) => Promise<void>): Promise<void> {
  const server = await new ScriptedAdbServer((request) => {
    if (request === 'host:devices') return { okay: devices };
    if (request.startsWith('host:transport:')) return transport(request.slice('host:transport:'.length));
    return { fail: `unknown host service ${request}` };
  }).start();
  const engine = createEngine({ virtual: false, ios: false, android: { port: server.port } });
  try {
    await work(async (tool, params) => (await engine.call(tool, params)) as Record<string, unknown>);
  } finally {
    await engine.close();
    await server.stop();
  }
}

test('two phones with one serial: listed once, with why adb cannot tell them apart; a call says so instead of timing out', async () => {
  const serial = '0123456789ABCDEF';
  await withServer(`${serial}\tdevice\n${serial}\tdevice\n`, (s) => ({ fail: `more than one device with serial ${s}` }), async (call) => {
    const started = Date.now();
    const { devices } = (await call('mobile_list_available_devices', {})) as unknown as Listed;
    assert.is(devices.length, 1, JSON.stringify(devices));
    assert.equal([devices[0].id, devices[0].state], [serial, 'offline']);
    assert.match(devices[0].message!, `2 devices connected to the adb server at 127.0.0.1:`);
    assert.match(devices[0].message!, `answer to the serial ${serial}, so adb cannot tell them apart`);
    const r = await call('mobile_get_screen_size', { device: serial });
    assert.is(r.code, 'UNSUPPORTED', JSON.stringify(r));
    assert.match(String(r.message), 'answer to the serial 0123456789ABCDEF, so adb cannot tell which one');
    assert.ok(Date.now() - started < 2500, 'answered as soon as adb did');
  });
});

test('a phone that reports no serial: listed with what to do; a call is refused with it', async () => {
  await withServer('(no serial number)\tdevice\n', (s) => ({ fail: `device '${s}' not found` }), async (call) => {
    const { devices } = (await call('mobile_list_available_devices', {})) as unknown as Listed;
    assert.equal([devices[0].id, devices[0].state], ['(no serial number)', 'offline']);
    assert.match(devices[0].message!, 'reports no serial number and cannot address it');
    const r = await call('mobile_get_screen_size', { device: '(no serial number)' });
    assert.is(r.code, 'UNSUPPORTED', JSON.stringify(r));
  });
});

test('a device adb refuses at once (offline between the listing and its getprop): listed with that reason, not "did not answer within 3000 ms"', async () => {
  await withServer('emulator-5554\tdevice\n', () => ({ fail: 'device offline' }), async (call) => {
    const started = Date.now();
    const { devices } = (await call('mobile_list_available_devices', {})) as unknown as Listed;
    assert.is(devices[0].state, 'offline');
    assert.match(devices[0].message!, /offline/);
    assert.not.match(devices[0].message!, /did not answer within/);
    assert.ok(Date.now() - started < 2500);
  });
});

test.run();
