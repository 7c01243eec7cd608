/**
 * A bridge whose session.hello answer has no `limits` (an older or another implementation) is
 * still usable from our client: its requests (batches too) are measured against the documented defaults
 * instead of failing with "Cannot read properties of undefined".
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { connectBridge } from '../../src/protocol/node.js';
import { ScriptedPeer } from './scripted-peer.js';

test('a hello without limits: calls go out, measured against the default limits', async () => {
  const peer = await ScriptedPeer.start();
  const client = await connectBridge(peer.url, { client: 'ci' });
  try {
    assert.equal(await client.callTool('mobile_get_screen_size', { device: 'scripted-phone' }), {});
    const huge = await client.callTool('mobile_type_keys', { device: 'scripted-phone', text: 'x'.repeat(2 * 1024 * 1024) }).catch((e: unknown) => e);
    assert.match(String(huge), /over the bridge's limit of 1048576/);
  } finally {
    await client.close();
    await peer.close();
  }
});

test.run();
