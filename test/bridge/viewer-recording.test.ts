import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Bridge } from '../../src/bridge/index.js';
import type { UiElement } from '../../src/engine/types.js';
import type { BridgeClient } from '../../src/protocol/client.js';
import { connectBridge } from '../../src/protocol/node.js';
import { ANDROID, testBridge, until } from './helpers.js';

/**
 * Issue 17 item 3, without a browser: what the viewer does (raw tools.call at coordinates, key
 * batches) while its session records becomes semantic steps named after the elements the bridge
 * showed it, one step per field, the password a secret parameter; and a run's screenshots are
 * served only from that run's folder, only with the token.
 */

const DEMO = 'com.mobilebridge.demo';
const TOKEN = 'viewer-recording-token';

interface Ctx {
  bridge?: Bridge;
  client?: BridgeClient;
  tmp: string;
  shown: UiElement[];
}

const rec = suite<Ctx>('viewer recording over the bridge', { tmp: '', shown: [] });

rec.before(async (ctx) => {
  ctx.tmp = mkdtempSync(join(tmpdir(), 'mb-viewer-rec-'));
  ctx.bridge = (await testBridge({ token: TOKEN })).bridge;
  ctx.client = await connectBridge(ctx.bridge.wsUrl, { token: TOKEN });
  await ctx.client.requestRaw('session.hello', { client: 'viewer-like' });
  // The viewer keeps the list elements.changed gives it, as ElementStore does.
  const byId = new Map<string, UiElement>();
  ctx.client.on('elements.changed', (p) => {
    const c = p as { reset?: boolean; added: UiElement[]; changed: UiElement[]; removed: string[] };
    if (c.reset) byId.clear();
    for (const e of [...c.added, ...c.changed]) byId.set(e.id, e);
    for (const id of c.removed) byId.delete(id);
    ctx.shown = [...byId.values()];
  });
  await ctx.client.subscribe(ANDROID, { elements: true });
});

rec.after(async (ctx) => {
  try {
    await ctx.client?.close();
  } finally {
    await ctx.bridge?.close();
    rmSync(ctx.tmp, { recursive: true, force: true });
  }
});

async function call(ctx: Ctx, tool: string, parameters: Record<string, unknown>): Promise<unknown> {
  const r = await ctx.client!.callTool(tool, { device: ANDROID, ...parameters });
  assert.not.equal((r as { status?: string }).status, 'error', `${tool}: ${JSON.stringify(r)}`);
  return r;
}

async function tapShown(ctx: Ctx, id: string): Promise<void> {
  const e = await until(`${id} shown to the viewer`, () => ctx.shown.find((x) => x.id === id));
  await call(ctx, 'mobile_click_on_screen_at_coordinates', { x: e.center.x, y: e.center.y });
}

let scenario: Record<string, unknown> & { steps: { id: string; action: string; target?: string; value?: string }[]; parameters?: Record<string, { secret?: boolean; description?: string }> };

rec('coordinate taps and key batches of a recording session become named steps; the password a secret parameter', async (ctx) => {
  await ctx.client!.requestRaw('recording.start', { device: ANDROID, name: 'Viewer sign in' });
  await call(ctx, 'mobile_launch_app', { packageName: DEMO });
  await tapShown(ctx, 'email');
  // Keys typed while a call runs go out together in the next call: one field, several batches.
  for (const batch of ['d', 'emo@exa', 'mple.com']) await call(ctx, 'mobile_type_keys', { text: batch });
  await tapShown(ctx, 'password');
  for (const batch of ['s', 'ecret', '123']) await call(ctx, 'mobile_type_keys', { text: batch });
  await until('the Sign in button enabled', () => ctx.shown.find((e) => e.id === 'sign_in' && e.enabled !== false));
  await tapShown(ctx, 'sign_in');
  const stopped = (await ctx.client!.requestRaw('recording.stop', { device: ANDROID })) as { scenario: typeof scenario; validation: { valid: boolean; errors: unknown[] } };
  assert.ok(stopped.validation.valid, JSON.stringify(stopped.validation.errors));
  scenario = stopped.scenario;
  assert.equal(
    scenario.steps.map((s) => [s.action, s.target ?? s.value]),
    [['launch_app', undefined], ['tap', 'the Email field'], ['type', 'demo@example.com'], ['tap', 'the Password field'], ['type', '${PASSWORD}'], ['tap', 'Sign in']],
  );
  assert.is(scenario.app_package, DEMO);
  assert.equal(Object.keys(scenario.parameters ?? {}), ['PASSWORD'], 'one secret for the whole password, not one per key batch');
  assert.is(scenario.parameters!.PASSWORD!.secret, true);
  // Recorded over the bridge, the file may be replayed there or by the CLI: the description names both ways.
  assert.match(scenario.parameters!.PASSWORD!.description ?? '', 'scenarios.run\'s "parameters": {"PASSWORD": "..."}');
  assert.match(scenario.parameters!.PASSWORD!.description ?? '', '--param PASSWORD=...');
  assert.not.ok(JSON.stringify(scenario).includes('secret123'));
  assert.not.ok(JSON.stringify(scenario).includes('"x"'), 'no coordinates');
});

rec('typing after Tab (focus moved without a recorded step) into a password field is kept as a secret, never in clear', async (ctx) => {
  await ctx.client!.requestRaw('recording.start', { device: ANDROID, name: 'Tab to password' });
  await call(ctx, 'mobile_open_url', { url: 'mbdemo://screen/signin' });
  await tapShown(ctx, 'email');
  await call(ctx, 'mobile_type_keys', { text: 'ada@example.com' });
  await ctx.client!.requestRaw('input.key', { device: ANDROID, key: 'TAB' });
  await call(ctx, 'mobile_type_keys', { text: 'hunter2pw' });
  const stopped = (await ctx.client!.requestRaw('recording.stop', { device: ANDROID })) as { scenario: typeof scenario; summary: { skipped: string[] } };
  assert.not.ok(JSON.stringify(stopped.scenario).includes('hunter2pw'), JSON.stringify(stopped.scenario.steps));
  assert.ok(Object.values(stopped.scenario.parameters ?? {}).some((p) => p.secret === true), 'a secret parameter stands for it');
  assert.ok(JSON.stringify(stopped.scenario).includes('ada@example.com'), 'the e-mail, typed with the focus known, stays as typed');
});

rec('a tap right after the screen changed is named by the screen it landed on, not the list the viewer was shown', async (ctx) => {
  // A second page that watches no elements at all, and taps at once after a screen change.
  const other = await connectBridge(ctx.bridge!.wsUrl, { token: TOKEN });
  try {
    await other.requestRaw('recording.start', { device: ANDROID, name: 'More' });
    const act = (tool: string, parameters: Record<string, unknown>) => other.callTool(tool, { device: ANDROID, ...parameters });
    await act('mobile_open_url', { url: 'mbdemo://screen/more' });
    const { elements } = (await ctx.bridge!.engine.call('mobile_list_elements_on_screen', { device: ANDROID })) as { elements: UiElement[] };
    const alert = elements.find((e) => e.id === 'show_alert')!;
    await act('mobile_open_url', { url: 'mbdemo://screen/signin' });
    const sent = [act('mobile_open_url', { url: 'mbdemo://screen/more' }), act('mobile_click_on_screen_at_coordinates', { x: alert.center.x, y: alert.center.y })];
    await Promise.all(sent);
    const stopped = (await other.requestRaw('recording.stop', { device: ANDROID })) as { scenario: typeof scenario };
    assert.equal(stopped.scenario.steps.map((s) => [s.action, s.target ?? s.value]), [
      ['open_url', 'mbdemo://screen/more'],
      ['open_url', 'mbdemo://screen/signin'],
      ['open_url', 'mbdemo://screen/more'],
      ['tap', 'Show alert'],
    ]);
  } finally {
    await other.close();
  }
});

rec('the recording replays green over scenarios.run; its screenshots are served from that run only, with the token', async (ctx) => {
  await call(ctx, 'mobile_clear_app_data', { packageName: DEMO });
  const out = join(ctx.tmp, 'out');
  const doc = (await ctx.client!.requestRaw('scenarios.run', { device: ANDROID, scenario, out, parameters: { PASSWORD: 'secret123' } })) as { run_id: string; status: string; summary: string; steps_executed: { step_id: string; screenshot: string | null }[] };
  assert.is(doc.status, 'passed', doc.summary);
  const shot = doc.steps_executed.find((s) => s.screenshot)!;
  const base = `http://127.0.0.1:${ctx.bridge!.port}/api/runs/${doc.run_id}/screenshots`;
  const auth = { headers: { authorization: `Bearer ${TOKEN}` } };

  const ok = await fetch(`${base}/${basename(shot.screenshot!)}`, auth);
  assert.is(ok.status, 200);
  assert.is(ok.headers.get('content-type'), 'image/png');
  assert.equal([...new Uint8Array(await ok.arrayBuffer()).subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]);

  assert.is((await fetch(`${base}/${basename(shot.screenshot!)}`)).status, 401, 'no token, no screenshot');
  // Another file of the output folder, a parent folder, a symlink out of the run's folder, another run.
  const folder = dirname(join(out, shot.screenshot!));
  writeFileSync(join(ctx.tmp, 'outside.png'), 'not for the viewer');
  symlinkSync(join(ctx.tmp, 'outside.png'), join(folder, 'link.png'));
  for (const name of ['..%2F..%2F..%2Fresults%2F' + doc.run_id + '.json', '%2E%2E%2Foutside.png', 'link.png', 'nothing.png', 'report.html']) {
    const r = await fetch(`${base}/${name}`, auth);
    assert.is(r.status, 404, name);
    assert.not.match(await r.text(), 'not for the viewer');
  }
  assert.is((await fetch(`http://127.0.0.1:${ctx.bridge!.port}/api/runs/run_20990101_000000_abcd/screenshots/${basename(shot.screenshot!)}`, auth)).status, 404);
});

rec.run();
