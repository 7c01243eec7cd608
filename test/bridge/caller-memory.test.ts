import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { BridgeClient } from '../../src/protocol/index.js';
import { connectBridge } from '../../src/protocol/node.js';
import { ANDROID, testBridge, until } from './helpers.js';

/**
 * What the engine keeps per caller (when it last acted on each device, for `others_acted`; what its
 * last listing showed under each id) belongs to a session: once the session has ended nobody can
 * ask for it again. Kept for ever, a bridge up for days held an entry for every session it ever
 * served (each viewer reload, each MCP client start is one).
 */
type Inner = { reports: { activity: { seen: Map<string, number> } }; listed: { listings: { size: number } } };

test('sessions that called tools and ended leave nothing behind in the engine', async () => {
  const { bridge } = await testBridge();
  const inner = bridge.engine as unknown as Inner;
  const clients: BridgeClient[] = [];
  try {
    const stay = await connectBridge(bridge.wsUrl, { client: 'stays' });
    clients.push(stay);
    await stay.callTool('mobile_list_elements_on_screen', { device: ANDROID });
    await stay.callTool('mobile_press_button', { device: ANDROID, button: 'HOME' });
    for (let i = 0; i < 12; i++) {
      const c = await connectBridge(bridge.wsUrl, { client: `short-${i}` });
      clients.push(c);
      await c.callTool('mobile_list_elements_on_screen', { device: ANDROID });
      await c.callTool('mobile_press_button', { device: ANDROID, button: 'HOME' });
      await c.requestRaw('session.bye', {}).catch(() => undefined);
      await c.close();
    }
    await until('the short sessions to end', () => bridge.sessions.size === 1 || undefined);
    assert.is(inner.reports.activity.seen.size, 1, 'only the session still connected is remembered as a caller');
    assert.is(inner.listed.listings.size, 1, 'only its listing is kept');
    // The session that stays still hears about the others' presses since its own last call.
    const res = (await stay.callTool('mobile_get_screen_size', { device: ANDROID })) as { others_acted?: { actions: unknown[]; more: number } };
    assert.ok(res.others_acted && res.others_acted.actions.length + res.others_acted.more === 12, JSON.stringify(res.others_acted));
  } finally {
    await Promise.all(clients.map((c) => c.close()));
    await bridge.close();
  }
});

test.run();
