/**
 * mobilebridge's MCP server alone, calls back to back (no other server interleaved), against the
 * emulated Android phone behind a private real adb server: the floor under the figures of
 * mcp-vs-mobile-mcp.ts. Per call: median wall time, and the server process's CPU (all threads).
 * A call with a bad `device` shows what MCP itself costs (stdio, JSON-RPC, the SDK on both ends).
 * Prints figures; asserts nothing.
 *
 *   node dist/scripts/bench/mcp-alone.js        (BENCH_N rounds, default 100; BENCH_CALLS=<regex> picks calls by name;
 *                                                BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the server;
 *                                                BENCH_SERVER_STDERR=1 shows the server's stderr;
 *                                                BENCH_PAUSE_MS=170 idles between calls, as the interleaved comparison does)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { DEMO_PACKAGE } from '../../src/engine/drivers/virtual/index.js';
import { PrivateAdbServer } from '../../test/harness/adb-server.js';
import { EmulatedPhone } from '../../test/harness/adbd/emulated-phone.js';
import { cpuSeconds } from './server-process.js';
import { summarize } from './stats.js';

const N = Number(process.env.BENCH_N ?? 100);
const WARM_UP = 5;
const PAUSE_MS = Number(process.env.BENCH_PAUSE_MS ?? 0);
const CLI = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

const phone = await EmulatedPhone.start();
const adb = await PrivateAdbServer.start();
const home = mkdtempSync(join(tmpdir(), 'mb-bench-mcp-alone-'));
let client: Client | undefined;
try {
  await adb.connect(phone.serial);
  const device = phone.serial;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...(process.env.BENCH_NODE_ARGS?.split(' ') ?? []), CLI, 'mcp', '--engine-tools', '--no-virtual', '--no-ios', '--adb', `127.0.0.1:${adb.port}`],
    env: { ...(adb.env as Record<string, string>), HOME: home },
    stderr: process.env.BENCH_SERVER_STDERR ? 'inherit' : 'ignore',
  });
  client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(transport);
  const pid = transport.pid!;
  await client.callTool({ name: 'mobile_launch_app', arguments: { device, packageName: DEMO_PACKAGE } });
  const all: [string, string, Record<string, unknown>][] = [
    ['MCP only (bad device)', 'mobile_get_screen_size', { device: 42 }],
    ['screen size', 'mobile_get_screen_size', { device }],
    ['list elements', 'mobile_list_elements_on_screen', { device }],
    ['tap', 'mobile_click_on_screen_at_coordinates', { device, x: 10, y: 10 }],
    ['type', 'mobile_type_keys', { device, text: 'a', submit: false }],
    ['launch', 'mobile_launch_app', { device, packageName: DEMO_PACKAGE }],
    ['screenshot', 'mobile_take_screenshot', { device }],
  ];
  const pick = new RegExp(process.env.BENCH_CALLS ?? '');
  const ops = all.filter(([name]) => pick.test(name));
  const times = new Map<string, number[]>();
  const cpu = new Map<string, number>();
  for (let round = 0; round < N + WARM_UP; round++) {
    for (const [name, tool, args] of ops) {
      if (PAUSE_MS) await new Promise((r) => setTimeout(r, PAUSE_MS));
      const c = cpuSeconds(pid) * 1000;
      const t = performance.now();
      await client.callTool({ name: tool, arguments: args }, undefined, { timeout: 60_000 });
      if (round < WARM_UP) continue;
      (times.get(name) ?? times.set(name, []).get(name)!).push(performance.now() - t);
      cpu.set(name, (cpu.get(name) ?? 0) + cpuSeconds(pid) * 1000 - c);
    }
  }
  console.log(`load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  console.log(`mobilebridge MCP server alone, emulated 1080×2400 phone via a private adb server; ${N} rounds after ${WARM_UP} warm-up${PAUSE_MS ? `, ${PAUSE_MS} ms idle before each call` : ''}\n`);
  console.log(`${'call'.padEnd(24)}${'median'.padStart(10)}${'p95'.padStart(10)}${'CPU/call'.padStart(10)}  (ms)`);
  for (const [name, xs] of times) {
    const s = summarize(xs);
    console.log(`${name.padEnd(24)}${s.median.toFixed(2).padStart(10)}${s.p95.toFixed(2).padStart(10)}${(cpu.get(name)! / xs.length).toFixed(1).padStart(10)}`);
  }
} finally {
  await client?.close().catch(() => undefined);
  await adb.stop();
  await phone.close();
  rmSync(home, { recursive: true, force: true });
}
