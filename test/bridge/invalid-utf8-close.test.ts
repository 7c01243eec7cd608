import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { RawClient, testBridge, until } from './helpers.js';

const test = suite('bridge text that is not UTF-8');

test('a text message that is not UTF-8 closes its connection with 1007 (as docs/protocol.md says); the session is resumed on a new one, other sessions carry on', async () => {
  const { bridge } = await testBridge();
  const c = await RawClient.open(bridge.wsUrl);
  const other = await RawClient.open(bridge.wsUrl);
  try {
    const hello = await c.call('session.hello', { client: 'utf8-test' });
    c.ws.send(Buffer.from([0x7b, 0xff, 0x7d]), { binary: false });
    const closed = await until('the socket closed', () => c.closeEvent);
    assert.is(closed.code, 1007);
    assert.ok((await other.call('devices.list')).devices);
    const again = await RawClient.open(bridge.wsUrl);
    try {
      const resumed = await again.call('session.hello', { client: 'utf8-test', resume: hello.session, resume_token: hello.resume_token, received: 0 });
      assert.is(resumed.resumed, true, JSON.stringify(resumed));
      assert.is(resumed.session, hello.session);
    } finally {
      await again.close();
    }
  } finally {
    await c.close();
    await other.close();
    await bridge.close();
  }
});

test.run();
