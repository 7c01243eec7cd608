import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createEngine } from '../../src/engine/create.js';
import { ManualClock } from '../../src/engine/drivers/virtual/index.js';
import type { Engine } from '../../src/engine/engine.js';
import type { VerbClock } from '../../src/engine/verbs/index.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Test } from 'uvu';
import * as assert from 'uvu/assert';
import { LocalBackend, type AgentBackend } from '../../src/mcp/backend.js';
import { createMcpServer, type McpServerOptions } from '../../src/mcp/server.js';

export const ANDROID = 'virtual-android-1';
export const IOS = 'virtual-ios-1';
export const DEMO = 'com.mobilebridge.demo';

/** Virtual phones only (never the user's adb server or simulators), on a manual clock. */
export function virtualEngine(): { engine: Engine; clock: ManualClock; verbClock: VerbClock } {
  const clock = new ManualClock(Date.UTC(2026, 0, 5, 9, 30));
  const engine = createEngine({ virtual: { clock }, android: false, ios: false });
  return { engine, clock, verbClock: { now: () => clock.now(), sleep: async (ms) => clock.advance(ms) } };
}

export interface Pair {
  client: Client;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

/** An SDK client talking to our server over the SDK's in-memory transport. */
export async function connectPair(backend: AgentBackend, options: Omit<McpServerOptions, 'backend'> = {}): Promise<Pair> {
  const server = createMcpServer({ backend, ...options });
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  return {
    client,
    call: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult,
    async close() {
      await client.close();
      await server.close();
    },
  };
}

export function textOf(result: CallToolResult): string {
  return result.content.filter((c) => c.type === 'text').map((c) => (c as { text: string }).text).join('\n');
}

export function jsonOf<T = any>(result: CallToolResult): T {
  return JSON.parse(textOf(result)) as T;
}

/** The JSON-RPC error a request was answered with; fails when it was answered with a result. */
export async function refusal(pending: Promise<unknown>): Promise<{ code: number; message: string }> {
  const answer = await pending.then(
    (result) => ({ result }),
    (err: unknown) => ({ err }),
  );
  if (!('err' in answer)) throw new Error(`expected a JSON-RPC error, got the result ${JSON.stringify(answer.result)}`);
  const { code, message } = answer.err as { code: number; message: string };
  // The SDK client puts "MCP error CODE: " in front of what the server said.
  return { code, message: message.replace(/^MCP error -?\d+: /, '') };
}

/** Each test's own virtual engine behind a LocalBackend, an SDK client on it, and a temp folder. */
export interface LiveSession {
  pair: Pair;
  backend: LocalBackend;
  dir: string;
  verbClock: VerbClock;
}

/** Gives every test of `s` a fresh LiveSession (waits on the manual clock), closed and removed after it. */
export function liveSessionEach(s: Test<LiveSession>, dirPrefix: string, options: Omit<McpServerOptions, 'backend'> = {}): void {
  s.before.each(async (ctx) => {
    const v = virtualEngine();
    ctx.verbClock = v.verbClock;
    ctx.backend = new LocalBackend(v.engine, { clock: v.verbClock, targetWaitMs: 1000, settleMs: 0 });
    ctx.pair = await connectPair(ctx.backend, options);
    ctx.dir = mkdtempSync(join(tmpdir(), dirPrefix));
  });
  s.after.each(async (ctx) => {
    await ctx.pair.close();
    await ctx.backend.close();
    rmSync(ctx.dir, { recursive: true, force: true });
  });
}

/** A tool result that must not be an error, as JSON. */
export function ok(r: CallToolResult): any {
  assert.not.ok(r.isError, textOf(r));
  return jsonOf(r);
}
