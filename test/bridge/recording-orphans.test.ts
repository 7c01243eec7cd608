import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Bridge } from '../../src/bridge/index.js';
import { ANDROID, RawClient, testBridge, until } from './helpers.js';

/**
 * A recording whose session went away without stopping it (a viewer tab closed) is not handed to the
 * next session behind its back when that session asks first (`adopt: false`): `recording.status` says
 * whose it was and who left it, `recording.start` is refused on its device, and the caller chooses
 * `recording.adopt` (continue it) or `recording.discard` (delete it). While the session that started it
 * may still resume, status says how long it is kept for it; when it is left for good, whoever watches
 * the device is told (`recording.left`).
 */

const IOS = 'virtual-ios-1';

interface Ctx {
  bridge?: Bridge;
  dir: string;
  clients: RawClient[];
}

const orphans = suite<Ctx>('recordings left by ended sessions', { dir: '', clients: [] });

orphans.before.each(async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'mb-orphans-'));
  ctx.bridge = (await testBridge({ recordingsDir: ctx.dir, resumeGraceMs: 60_000 })).bridge;
  ctx.clients = [];
});

orphans.after.each(async (ctx) => {
  try {
    await Promise.all(ctx.clients.map((c) => c.close()));
    await ctx.bridge?.close();
  } finally {
    rmSync(ctx.dir, { recursive: true, force: true });
  }
});

async function viewer(ctx: Ctx, client = 'viewer'): Promise<{ raw: RawClient; session: string }> {
  const raw = await RawClient.open(ctx.bridge!.wsUrl);
  ctx.clients.push(raw);
  const hello = await raw.call('session.hello', { client });
  return { raw, session: hello.session as string };
}

/** A session records one step on `device`, then its socket dies without a word (a tab closed). */
async function recordAndVanish(ctx: Ctx, device = ANDROID, name = 'Left open'): Promise<string> {
  const { raw, session } = await viewer(ctx);
  await raw.call('recording.start', { device, name });
  const opened = await raw.call('tools.call', { tool: 'mobile_open_url', parameters: { device, url: 'mbdemo://screen/signin' } });
  assert.is(opened.status, 'success');
  raw.ws.terminate();
  await until('the bridge saw the socket go', () => ctx.bridge!.sessions.get(session)?.detachedAt !== undefined);
  return session;
}

/** What the end of the resume grace does to a session that never came back. */
function expire(ctx: Ctx, session: string): void {
  ctx.bridge!.sessions.end(ctx.bridge!.sessions.get(session)!, 'resume grace period expired');
}

type Status = { recordings: { device: string }[]; orphans: Record<string, unknown>[]; others: Record<string, unknown>[] };

orphans('asked first, a recording left open is listed with whose it was, not adopted; start is refused; adopt continues it', async (ctx) => {
  const gone = await recordAndVanish(ctx);
  const { raw: next } = await viewer(ctx);

  // While the session that started it may still come back, it is kept for it, and status says how long.
  const waiting = (await next.call('recording.status', { adopt: false })) as unknown as Status;
  assert.equal(waiting.recordings, []);
  assert.equal(waiting.orphans, []);
  assert.is(waiting.others.length, 1);
  const other = waiting.others[0] as { device: string; name: string; steps: number; by: unknown; connected: boolean; kept_for_ms: number };
  assert.equal([other.device, other.name, other.steps, other.by, other.connected], [ANDROID, 'Left open', 1, { session: gone, client: 'viewer' }, false]);
  assert.ok(other.kept_for_ms > 0 && other.kept_for_ms <= 60_000, `kept for ${other.kept_for_ms} ms`);

  // Whoever watches the device hears when the recording is left for good.
  await next.call('devices.subscribe', { device: ANDROID });
  expire(ctx, gone);
  const told = await next.notification('recording.left');
  assert.equal(told, { device: ANDROID, name: 'Left open', steps: 1, assertions: 0, skipped: [], by: { session: gone, client: 'viewer' } });
  const left = (await next.call('recording.status', { adopt: false })) as unknown as Status;
  assert.equal(left.recordings, [], 'nothing adopted behind the caller\'s back');
  assert.equal(left.others, []);
  assert.is(left.orphans.length, 1);
  const orphan = left.orphans[0] as { device: string; name: string; steps: number; started_by: unknown; left_by: string; started_at: string };
  assert.equal([orphan.device, orphan.name, orphan.steps, orphan.started_by], [ANDROID, 'Left open', 1, { session: gone, client: 'viewer' }]);
  assert.is(orphan.left_by, 'a session of this process that ended');
  assert.ok(!Number.isNaN(Date.parse(orphan.started_at)));

  const refused = await next.call('recording.start', { device: ANDROID, name: 'Mine', adopt: false });
  assert.is(refused.code, 'INVALID_PARAMETER');
  assert.match(refused.message as string, /"Left open", 1 step\) left by a session of this process that ended .*recording\.adopt.*recording\.discard/);
  assert.equal(((await next.call('recording.status', { adopt: false })) as unknown as Status).orphans.length, 1, 'the refused start left it where it was');

  const adopted = await next.call('recording.adopt', { device: ANDROID });
  assert.equal(adopted.recording, { device: ANDROID, name: 'Left open', steps: 1, assertions: 0, skipped: [] });
  await next.call('tools.call', { tool: 'mobile_open_url', parameters: { device: ANDROID, url: 'mbdemo://screen/more' } });
  const stopped = (await next.call('recording.stop', { device: ANDROID })) as { scenario: { steps: { action: string; value?: string }[] } };
  assert.equal(stopped.scenario.steps.map((s) => s.value), ['mbdemo://screen/signin', 'mbdemo://screen/more'], 'continued where it was left');
});

orphans('discard deletes a recording left open and says what it held; a session\'s own or a live one is not discarded', async (ctx) => {
  const file = join(ctx.dir, `${ANDROID}.recording.json`);
  const gone = await recordAndVanish(ctx);
  const { raw: next } = await viewer(ctx);
  const early = await next.call('recording.discard', { device: ANDROID });
  assert.is(early.code, 'INVALID_PARAMETER', 'not while its session may still resume');
  assert.match(early.message as string, /already recording/);
  expire(ctx, gone);

  const discarded = await next.call('recording.discard', { device: ANDROID });
  assert.equal(discarded, { device: ANDROID, discarded: { device: ANDROID, name: 'Left open', steps: 1, assertions: 0, skipped: [] } });
  assert.not.ok(existsSync(file), 'the file is gone');
  const again = await next.call('recording.discard', { device: ANDROID });
  assert.match(again.message as string, /no recording left by an ended session or process is open on/);

  const started = await next.call('recording.start', { device: ANDROID, name: 'Fresh', adopt: false });
  assert.is((started.recording as { name: string }).name, 'Fresh');
  const own = await next.call('recording.discard', { device: ANDROID });
  assert.match(own.message as string, /this session's own; stop it/);
});

orphans('without adopt: false nothing changed for agents; start and stop adopt only their own device\'s recording', async (ctx) => {
  expire(ctx, await recordAndVanish(ctx, ANDROID, 'Android left'));
  expire(ctx, await recordAndVanish(ctx, IOS, 'iOS left'));
  const { raw: agent } = await viewer(ctx, 'agent');
  const stopped = (await agent.call('recording.stop', { device: IOS })) as { summary: { name: string } };
  assert.is(stopped.summary.name, 'iOS left');
  const status = (await agent.call('recording.status', { adopt: false })) as unknown as Status;
  assert.equal(status.recordings, [], 'stopping one device adopted nothing else');
  assert.equal(status.orphans.map((o) => o.name), ['Android left']);
  const adoptedByStatus = (await agent.call('recording.status', {})) as unknown as Status;
  assert.equal(adoptedByStatus.recordings.map((r) => r.device), [ANDROID], 'a plain status adopts as before');
});

orphans('a start or adopt refused because another session records the device names that session and, when it dropped, says to wait and adopt', async (ctx) => {
  const holder = await viewer(ctx, 'laptop');
  await holder.raw.call('recording.start', { device: IOS, name: 'Held' });
  const { raw: agent } = await viewer(ctx, 'agent');
  const live = await agent.call('recording.start', { device: IOS, name: 'Mine' });
  assert.is(live.code, 'INVALID_PARAMETER');
  assert.match(live.message as string, `session ${holder.session} (laptop) holds it while connected: ask it to call recording.stop`);
  holder.raw.ws.terminate();
  await until('the bridge saw the socket go', () => ctx.bridge!.sessions.get(holder.session)?.detachedAt !== undefined);
  const away = await agent.call('recording.adopt', { device: IOS });
  assert.is(away.code, 'INVALID_PARAMETER');
  assert.match(away.message as string, new RegExp(`session ${holder.session} \\(laptop\\) holds it, but its connection dropped: it is kept \\d+ s more for a resume, after which the recording is left and recording.adopt continues it`));
});

orphans.run();
