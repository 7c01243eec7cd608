import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { TEMP_RUN_PREFIX } from '../../src/bridge/run-files.js';
import { connectBridge } from '../../src/protocol/node.js';
import { RUNS_DIR } from '../runner/harness.js';
import { ANDROID, testBridge, until } from './helpers.js';

/** The edges of a scenario run's lock: its own session cannot unlock it mid-run, and a refused run leaves nothing behind. */

const scenario = () => JSON.parse(readFileSync(join(RUNS_DIR, 'semantic_cross.json'), 'utf8')) as unknown;

test('devices.unlock by the session whose run holds the device is refused while the run goes on; the lock stays', async () => {
  const out = mkdtempSync(join(tmpdir(), 'mb-run-unlock-'));
  const { bridge } = await testBridge();
  const client = await connectBridge(bridge.wsUrl);
  try {
    const { session } = (await client.requestRaw('session.hello', { client: 'viewer' })) as { session: string };
    let started = false;
    client.on('scenario.progress', (p) => void ((p as { type: string }).type === 'started' && (started = true)));
    const run = client.requestRaw('scenarios.run', { device: ANDROID, scenario: scenario(), out });
    run.catch(() => undefined);
    await until('the run started', () => started);
    const r = (await client.requestRaw('devices.unlock', { device: ANDROID })) as { code?: string; message?: string };
    assert.is(r.code, 'INVALID_PARAMETER', JSON.stringify(r));
    assert.match(String(r.message), 'is held by a scenario run of this session');
    assert.is(bridge.locks.holder(ANDROID)?.id, session, 'the run still holds the device');
    await run;
    assert.is(bridge.locks.holder(ANDROID), undefined, 'the lock went with the run');
  } finally {
    await client.close();
    await bridge.close();
    rmSync(out, { recursive: true, force: true });
  }
});

test('a scenarios.run refused because another session holds the device leaves no temporary run folder behind', async () => {
  const { bridge } = await testBridge();
  const holder = await connectBridge(bridge.wsUrl);
  const other = await connectBridge(bridge.wsUrl);
  const runFolders = () => new Set(readdirSync(tmpdir()).filter((f) => f.startsWith(TEMP_RUN_PREFIX)));
  try {
    await holder.requestRaw('session.hello', { client: 'person' });
    await other.requestRaw('session.hello', { client: 'ci' });
    await holder.requestRaw('devices.lock', { device: ANDROID });
    const before = runFolders();
    const r = (await other.requestRaw('scenarios.run', { device: ANDROID, scenario: scenario() })) as { code?: string };
    assert.is(r.code, 'PERMISSION_DENIED', JSON.stringify(r));
    const left = [...runFolders()].filter((f) => !before.has(f));
    assert.equal(left, [], 'no new mobilebridge-run-* folder');
  } finally {
    await holder.close();
    await other.close();
    await bridge.close();
  }
});

test.run();
