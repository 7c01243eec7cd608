import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startBridge, type Bridge } from '../../src/bridge/index.js';
import { Peer } from '../../src/bridge/peers/peer.js';
import { createEngine } from '../../src/engine/create.js';
import type { BridgeClient } from '../../src/protocol/index.js';
import { connectBridge } from '../../src/protocol/node.js';
import { ANDROID, until } from '../bridge/helpers.js';
import { exitWithOutput } from '../support/child-exit.js';

const MAIN = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

interface LockEvent {
  device: string;
  holder: unknown;
  reason?: string;
}

/**
 * A peer bridge killed (kill -9: no goodbye) while a session holds one of its phones' locks. The
 * lock is gone there; whoever shows it must hear so: the holder, also when it watches the phone
 * (its viewer hears lock news on the shared frame link), and the other viewers of the phone, or
 * they keep showing a holder that no longer holds anything, through the peer's return too.
 */
const lost = suite<{ home: string; child?: ChildProcess; exited?: Promise<number | null>; bridges: Bridge[]; clients: BridgeClient[] }>('a killed peer\'s lock, seen by its viewers', { home: '', bridges: [], clients: [] });

lost.before.each((ctx) => {
  ctx.home = mkdtempSync(join(tmpdir(), 'mb-lock-lost-'));
});

lost.after.each(async (ctx) => {
  await Promise.all(ctx.clients.map((c) => c.close()));
  for (const b of ctx.bridges.reverse()) await b.close();
  ctx.child?.kill('SIGKILL');
  await ctx.exited;
  ctx.clients = [];
  ctx.bridges = [];
  ctx.child = undefined;
  rmSync(ctx.home, { recursive: true, force: true });
});

/** A bridge in a process of its own, with one virtual Android phone, to kill. */
async function peerProcess(ctx: { home: string; child?: ChildProcess; exited?: Promise<number | null> }): Promise<string> {
  const child = spawn(process.execPath, [MAIN, 'serve', '--port', '0', '--no-android', '--no-ios'], {
    env: { ...process.env, HOME: ctx.home, MOBILEBRIDGE_STATE_DIR: ctx.home, MOBILEBRIDGE_TOKEN: '', MOBILEBRIDGE_PEER_TOKEN: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  ctx.child = child;
  ctx.exited = exitWithOutput(child);
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c));
  return until('the peer listening', () => /websocket\s+(ws:\S+)/.exec(out)?.[1], 15_000);
}

async function aggregator(ctx: { bridges: Bridge[] }, name: string, url: string): Promise<Bridge> {
  const peer = new Peer({ name, url }, { firstRetryMs: 50, maxRetryMs: 200 });
  const bridge = await startBridge({ engine: createEngine({ virtual: false, extraDrivers: [peer] }), host: '127.0.0.1', port: 0, webRoot: '/nonexistent', peers: [peer], log: () => undefined });
  ctx.bridges.push(bridge);
  await until(`peer ${name} listed`, () => peer.up && peer.owns(ANDROID), 10_000);
  return bridge;
}

async function client(ctx: { clients: BridgeClient[] }, bridge: Bridge, name: string): Promise<{ c: BridgeClient; locks: LockEvent[] }> {
  const c = await connectBridge(bridge.wsUrl, { client: name });
  ctx.clients.push(c);
  const locks: LockEvent[] = [];
  c.on('device.lock', (p) => locks.push(p as LockEvent));
  return { c, locks };
}

lost('another viewer of the phone hears that the lock ended with the peer', async (ctx) => {
  const agg = await aggregator(ctx, 'lab1', await peerProcess(ctx));
  const holder = await client(ctx, agg, 'holder');
  const viewer = await client(ctx, agg, 'viewer');
  await viewer.c.subscribe(ANDROID, { screen: { format: 'jpeg', maxFps: 2 } });
  await holder.c.request('devices.lock', { device: ANDROID });
  await until('the viewer sees the lock', () => viewer.locks.some((e) => e.holder !== null), 10_000);
  ctx.child!.kill('SIGKILL');
  const ended = await until('the viewer told the lock ended', () => viewer.locks.find((e) => e.holder === null), 15_000);
  assert.is(ended.device, ANDROID);
  assert.match(String(ended.reason), /connection to peer bridge .* was lost/);
  await until('the holder told too', () => holder.locks.find((e) => e.holder === null), 5000);
});

lost('through a chain (A peers B, B peers C), the holder watching the phone hears that its lock ended with C', async (ctx) => {
  const b = await aggregator(ctx, 'c', await peerProcess(ctx));
  const a = await aggregator(ctx, 'b', b.wsUrl);
  const holder = await client(ctx, a, 'holder');
  await holder.c.subscribe(ANDROID, { screen: { format: 'jpeg', maxFps: 2 } });
  await holder.c.request('devices.lock', { device: ANDROID });
  ctx.child!.kill('SIGKILL');
  const ended = await until('the holder told its lock ended', () => holder.locks.find((e) => e.holder === null), 15_000);
  assert.is(ended.device, ANDROID);
  assert.match(String(ended.reason), /was lost/);
  assert.is(holder.locks.filter((e) => e.holder === null).length, 1, 'told once, not once per link');
});

lost.run();
