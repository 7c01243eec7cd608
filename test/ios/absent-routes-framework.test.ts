import { test } from 'uvu';
import * as assert from 'uvu/assert';

import { FEW_ROUTES } from './few-routes.js';
import { makeRig, type Rig } from './rig.js';

/*
 * An emulation of WebDriverAgent built on a web framework answers a route it lacks with the framework's default 404
 * (Express's "Cannot GET /x" page, Fastify's JSON) instead of WDA's "unknown command". Once the server has answered
 * as WDA, such a 404 means the route is missing, and the same fallbacks apply as for WDA's own answer.
 */
async function withFramework(kind: 'express' | 'fastify', body: (rig: Rig) => Promise<void>, routes: readonly string[] = FEW_ROUTES): Promise<void> {
  const rig = await makeRig();
  rig.wda.faults.onlyRoutes = routes;
  rig.wda.faults.othersAs = kind;
  try {
    await body(rig);
  } finally {
    await rig.close();
  }
}

for (const kind of ['express', 'fastify'] as const) {
  test(`${kind}'s default 404 for a route the emulation lacks: listings, taps and typing use the fallbacks, and a call with none names the route`, () =>
    withFramework(kind, async (rig) => {
      for (let i = 0; i < 2; i++) assert.ok(Array.isArray((await rig.call('mobile_list_elements_on_screen')).elements), 'listed without GET /wda/locked');
      assert.is(rig.wda.requests.filter((r) => r === 'GET /wda/locked').length, 1, 'the missing route is asked once');
      assert.is((await rig.call('mobile_click_on_screen_at_coordinates', { x: 10, y: 10 })).status, 'success');
      const r = await rig.call('mobile_press_button', { button: 'HOME' });
      assert.is(r.code, 'UNSUPPORTED', JSON.stringify(r));
      assert.match(r.message, /lacks POST \/wda\/pressButton .*update WebDriverAgent/);
    }, FEW_ROUTES.filter((route) => route !== 'POST /wda/pressButton')));
}

test('a server that never answered as WebDriverAgent is still "not WebDriverAgent", not a WDA lacking routes', () =>
  withFramework('express', async (rig) => {
    const r = await rig.call('mobile_get_screen_size');
    assert.is(r.code, 'INTERNAL', JSON.stringify(r));
    assert.match(r.message, /not WebDriverAgent JSON \(HTTP 404\): .*Cannot GET .*is another server using this port\?/);
  }, []));

test.run();
