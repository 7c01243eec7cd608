import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser, Page } from 'playwright-core';
import type { Bridge } from '../../src/bridge/index.js';
import type { CallEvent } from '../../src/engine/engine.js';
import { systemTool } from '../support/system-tools.js';
import { eventually } from './support/poll.js';
import { screenBox } from './support/screen-box.js';
import { withViewerAndChromium } from './support/viewer-bridge.js';

/**
 * A page that held a device's lock and lost it without releasing it says so and sends nothing as if
 * it still held the device: after a brief network drop (the bridge frees the lock when the socket
 * goes, and the resumed session does not get it back), after its session expired, and when someone
 * took the device over. It offers to take control again; a tap sent without the lock while someone
 * else holds the device is refused by the bridge, and the page shows the refusal.
 */

const DEVICE = 'virtual-android-1';
const chromiumPath = systemTool('chromium', 'the web viewer end-to-end tests drive it');

interface Ctx {
  bridge?: Bridge;
  url: string;
  browser?: Browser;
}

const lost = suite<Ctx>('a lost lock in Chromium', { url: '' });
withViewerAndChromium(lost, chromiumPath);

async function open(ctx: Ctx): Promise<Page> {
  const page = await ctx.browser!.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${ctx.url}?device=${DEVICE}`);
  await page.locator('#connection[data-state="open"]').waitFor();
  await page.locator('#lock-badge:not([hidden])').waitFor();
  await page.locator('#element-list li').first().waitFor();
  return page;
}

async function takeControl(page: Page): Promise<void> {
  await page.click('#btn-take-control');
  await page.locator('#lock-badge[data-state="mine"]').waitFor();
}

/** Records the device's mutating calls until the returned function is called. */
function deviceCalls(ctx: Ctx): { calls: CallEvent[]; stop(): void } {
  const calls: CallEvent[] = [];
  const stop = ctx.bridge!.engine.onCall((e) => {
    if (e.device === DEVICE && e.mutates) calls.push(e);
  });
  return { calls, stop };
}

/** The socket of the lock holder's page dies as on a network drop (no close handshake); the page reconnects by itself. */
function dropHolderConnection(ctx: Ctx): string {
  const holder = ctx.bridge!.locks.holder(DEVICE);
  if (!holder?.connection) throw new Error(`nobody connected holds ${DEVICE}`);
  holder.connection.terminate();
  return holder.id;
}

const notice = (page: Page) => page.locator('#control-lost:not([hidden])');

lost('after a brief drop the page says it lost control, sends nothing meanwhile, and takes control again on request', async (ctx) => {
  const alice = await open(ctx);
  const seen = deviceCalls(ctx);
  try {
    await takeControl(alice);
    const session = dropHolderConnection(ctx);
    await notice(alice).waitFor();
    assert.is(await alice.textContent('#control-lost-text'), `You lost control of ${DEVICE} when the connection dropped.`);
    assert.ok(ctx.bridge!.sessions.get(session)?.connection, 'the session was resumed, not replaced');
    assert.is(await alice.getAttribute('#lock-badge', 'data-state'), 'free');

    // Nothing is sent as if the page still held the device: a button, a tap, a key.
    await alice.click('#btn-home');
    await alice.locator('#toast', { hasText: `Not sent: you lost control of ${DEVICE}` }).waitFor();
    const box = await screenBox(alice);
    await alice.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await alice.keyboard.press('Enter');

    await alice.click('#btn-retake-control');
    await alice.locator('#lock-badge[data-state="mine"]').waitFor();
    assert.is(await notice(alice).count(), 0, 'the notice goes once the page holds the device again');
    await alice.click('#btn-back');
    await eventually(() => seen.calls.some((c) => c.tool === 'mobile_press_button'), 'BACK reached the device');
    assert.equal(seen.calls.map((c) => [c.tool, c.origin]), [['mobile_press_button', session]], 'only what came after Take control again');
    assert.is(ctx.bridge!.locks.holder(DEVICE)?.id, session);
  } finally {
    seen.stop();
    await alice.close();
  }
});

lost('continuing without control acts again; while someone else holds the device the bridge refuses, and the page shows it', async (ctx) => {
  const alice = await open(ctx);
  const bob = await open(ctx);
  const seen = deviceCalls(ctx);
  try {
    await takeControl(alice);
    dropHolderConnection(ctx);
    await notice(alice).waitFor();
    await takeControl(bob);
    await alice.locator('#lock-badge[data-state="held"]').waitFor();

    await alice.click('#btn-continue-without-control');
    assert.is(await notice(alice).count(), 0);
    await alice.click('#btn-home');
    const refusal = alice.locator('#toast', { hasText: 'PERMISSION_DENIED' });
    await refusal.waitFor();
    assert.match((await refusal.textContent()) ?? '', `locked by session ${ctx.bridge!.locks.holder(DEVICE)!.id} (viewer)`);

    await bob.click('#btn-release');
    await alice.locator('#lock-badge[data-state="free"]').waitFor();
    await alice.click('#btn-home');
    await eventually(() => seen.calls.some((c) => c.tool === 'mobile_press_button'), 'HOME reached the device');
    assert.is(seen.calls.length, 1, 'the refused press never reached the device');
  } finally {
    seen.stop();
    await Promise.all([alice.close(), bob.close()]);
  }
});

lost('a page whose session ended while it was away says it lost control on its new session', async (ctx) => {
  const alice = await open(ctx);
  try {
    await takeControl(alice);
    const holder = ctx.bridge!.locks.holder(DEVICE)!;
    // The network stays down (every new socket of the page fails) until the session's resume grace is over.
    let down = true;
    await alice.routeWebSocket(/\/ws/, (ws) => {
      if (down) void ws.close({ code: 1011, reason: 'the network is down (test)' });
      else ws.connectToServer();
    });
    holder.connection!.terminate();
    await eventually(() => holder.detachedAt !== undefined, 'the bridge saw the socket go');
    ctx.bridge!.sessions.end(holder, 'resume grace period expired');
    down = false;
    await alice.locator('#session-label', { hasNotText: `session ${holder.id.slice(0, 6)}` }).waitFor();
    await notice(alice).waitFor();
    assert.is(await alice.textContent('#control-lost-text'), `You lost control of ${DEVICE} when the connection dropped.`);
    assert.is(await alice.getAttribute('#lock-badge', 'data-state'), 'free');
  } finally {
    await alice.close();
  }
});

lost('a page whose device was taken over says who took it, and takes it back on request', async (ctx) => {
  const alice = await open(ctx);
  const bob = await open(ctx);
  try {
    await takeControl(alice);
    await takeControl(bob);
    await notice(alice).waitFor();
    assert.match((await alice.textContent('#control-lost-text')) ?? '', new RegExp(`^You lost control of ${DEVICE}: viewer s-[0-9a-f]{4} took it over\\.$`));
    await alice.click('#btn-retake-control');
    await alice.locator('#lock-badge[data-state="mine"]').waitFor();
    await notice(bob).waitFor();
    assert.is(await notice(alice).count(), 0);
  } finally {
    await Promise.all([alice.close(), bob.close()]);
  }
});

lost('when whoever took the device over releases it, the notice says it is free again and input still waits for a choice', async (ctx) => {
  const alice = await open(ctx);
  const bob = await open(ctx);
  const seen = deviceCalls(ctx);
  try {
    await takeControl(alice);
    await takeControl(bob);
    await notice(alice).waitFor();
    await bob.click('#btn-release');
    await alice.locator('#lock-badge[data-state="free"]').waitFor();
    await alice.locator('#control-lost-text', { hasText: 'free again' }).waitFor();
    assert.match(
      (await alice.textContent('#control-lost-text')) ?? '',
      new RegExp(`^You lost control of ${DEVICE}: viewer s-[0-9a-f]{4} took it over\\. It is free again: press Take control again to hold it, or Continue without control\\.$`),
    );
    await alice.click('#btn-home');
    await alice.locator('#toast', { hasText: 'and it is free again. Take control again' }).waitFor();
    assert.equal(seen.calls, [], 'held back until the user chooses');
    await alice.click('#btn-retake-control');
    await alice.locator('#lock-badge[data-state="mine"]').waitFor();
    assert.is(await notice(alice).count(), 0);
  } finally {
    seen.stop();
    await Promise.all([alice.close(), bob.close()]);
  }
});

lost('while its bridge is unreachable a page says the lock state is unknown, and who holds the device once it is back', async (ctx) => {
  const alice = await open(ctx);
  const bob = await open(ctx);
  try {
    assert.is(await alice.getAttribute('#lock-badge', 'data-state'), 'free');
    // The network stays down (every new socket of the page fails) until the test lets it through.
    let down = true;
    await alice.routeWebSocket(/\/ws/, (ws) => {
      if (down) void ws.close({ code: 1011, reason: 'the network is down (test)' });
      else ws.connectToServer();
    });
    const label = ((await alice.textContent('#session-label')) ?? '').replace('session ', '');
    const session = [...ctx.bridge!.sessions.all()].find((s) => s.id.startsWith(label) && s.connection);
    session!.connection!.terminate();
    await alice.locator('#lock-badge[data-state="unknown"]').waitFor();
    assert.is(await alice.textContent('#lock-text'), 'Lock state unknown: the bridge is unreachable', 'not "Unlocked" as last heard');
    assert.is(await alice.isVisible('#btn-take-control'), false, 'nothing to take while nobody can be asked');

    // The lock changes hands while the page cannot hear it.
    await takeControl(bob);
    down = false;
    await alice.locator('#lock-badge[data-state="held"]').waitFor();
    assert.match((await alice.textContent('#lock-text')) ?? '', /^Locked by viewer s-[0-9a-f]{4} since \d\d:\d\d:\d\d$/);
    assert.ok(ctx.bridge!.sessions.get(session!.id)?.connection, 'the session was resumed, not replaced');
  } finally {
    await Promise.all([alice.close(), bob.close()]);
  }
});

if (chromiumPath) lost.run();
