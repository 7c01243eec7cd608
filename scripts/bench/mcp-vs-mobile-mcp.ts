/**
 * MCP over stdio, side by side, on the same emulated Android phone (test harness adbd behind a
 * private real adb server): mobilebridge (`mcp --engine-tools`) against @mobilenext/mobile-mcp in
 * its direct-adb mode (MOBILEMCP_LEGACY_ROBOT=1). Both answer the same mobile_* calls; calls are
 * interleaved (the order alternates each round) so drift hits both alike. Prints medians and the
 * ratio; asserts nothing and installs nothing.
 *
 *   MOBILE_MCP_DIR=/path/to/mobile-mcp node dist/scripts/bench/mcp-vs-mobile-mcp.js   (BENCH_N rounds, default 30;
 *                                                  BENCH_ALL=1 adds every other call both servers have: screen size,
 *                                                  orientation, press button, list apps, list devices, double tap,
 *                                                  long press, swipe, save screenshot, set orientation, open URL,
 *                                                  terminate; the app is launched again, untimed, after the round;
 *                                                  BENCH_CALLS=<regex> keeps the calls whose names match;
 *                                                  BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR" profiles our server)
 *
 * Getting mobile-mcp (outside this repository):
 *   git clone https://github.com/mobile-next/mobile-mcp /tmp/mobile-mcp && cd /tmp/mobile-mcp && npm ci && npm run build
 * Without MOBILE_MCP_DIR only mobilebridge's figures are printed.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { DEMO_PACKAGE } from '../../src/engine/drivers/virtual/index.js';
import { PrivateAdbServer } from '../../test/harness/adb-server.js';
import { EmulatedPhone } from '../../test/harness/adbd/emulated-phone.js';
import { summarize } from './stats.js';

const N = Number(process.env.BENCH_N ?? 30);
const MOBILE_MCP_DIR = process.env.MOBILE_MCP_DIR;
const CLI = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

interface Side {
  name: string;
  client: Client;
  times: Map<string, number[]>;
  errors: Map<string, string>;
  bytes: Map<string, number[]>;
  /** CPU time of the server process and its reaped children (mobile-mcp's adb runs) per call kind. */
  cpu: Map<string, number>;
  pid: number | null;
}

/** utime + stime + cutime + cstime of a process, in ms (USER_HZ 100): load-independent, unlike wall time. */
function cpuMs(pid: number | null): number {
  if (!pid) return 0;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ');
    return (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return 0;
  }
}

/**
 * Pids of running `mobilecli` processes started with HOME=`home` (Linux /proc): the ones this run's
 * mobile-mcp started, whatever else on the machine runs mobilecli.
 */
function ourMobilecli(home: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('mobilecli')) continue;
      if (readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0').includes(`HOME=${home}`)) pids.push(Number(entry));
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return pids;
}

async function connect(name: string, command: string, args: string[], env: Record<string, string>): Promise<Side> {
  const transport = new StdioClientTransport({ command, args, env, stderr: 'ignore' });
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(transport);
  return { name, client, times: new Map(), errors: new Map(), bytes: new Map(), cpu: new Map(), pid: transport.pid };
}

async function timed(side: Side, op: string, tool: string, args: Record<string, unknown>, record = true): Promise<CallToolResult> {
  const cpu = cpuMs(side.pid);
  const t = performance.now();
  const r = (await side.client.callTool({ name: tool, arguments: args }, undefined, { timeout: 60_000 })) as CallToolResult;
  const elapsed = performance.now() - t;
  if (record) side.cpu.set(op, (side.cpu.get(op) ?? 0) + cpuMs(side.pid) - cpu);
  if (r.isError) side.errors.set(op, JSON.stringify(r.content).slice(0, 200));
  if (!record) return r;
  (side.times.get(op) ?? side.times.set(op, []).get(op)!).push(elapsed);
  const size = r.content.reduce((n, c) => n + (c.type === 'image' ? c.data.length : c.type === 'text' ? c.text.length : 0), 0);
  (side.bytes.get(op) ?? side.bytes.set(op, []).get(op)!).push(size);
  return r;
}

function textOf(r: CallToolResult): string {
  return r.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
}

/** Where to tap to focus the sign-in screen's e-mail field, from mobilebridge's own listing. */
async function emailField(side: Side, device: string): Promise<{ x: number; y: number }> {
  const r = await timed(side, 'setup', 'mobile_list_elements_on_screen', { device }, false);
  const { elements } = JSON.parse(textOf(r)) as { elements: { id: string; text?: string; accessibility_label?: string; type: string; center: { x: number; y: number } }[] };
  const field = elements.find((e) => e.type === 'edittext');
  if (!field) throw new Error(`no text field on the demo app's first screen: ${textOf(r).slice(0, 300)}`);
  return field.center;
}

async function main(): Promise<void> {
  const phone = await EmulatedPhone.start();
  const adb = await PrivateAdbServer.start();
  const home = mkdtempSync(join(tmpdir(), 'mb-bench-mcp-'));
  const sides: Side[] = [];
  try {
    await adb.connect(phone.serial);
    const device = phone.serial;
    // Both servers may write files under their working and temp folders only: the temp folder is `home`.
    const env = { ...(adb.env as Record<string, string>), HOME: home, TMPDIR: home, MOBILEMCP_DISABLE_TELEMETRY: '1' };
    sides.push(await connect('mobilebridge', process.execPath, [...(process.env.BENCH_NODE_ARGS?.split(' ') ?? []), CLI, 'mcp', '--engine-tools', '--no-virtual', '--no-ios', '--adb', `127.0.0.1:${adb.port}`], env));
    if (MOBILE_MCP_DIR) {
      const entry = join(MOBILE_MCP_DIR, 'lib', 'index.js');
      if (!existsSync(entry)) throw new Error(`${entry} does not exist: build mobile-mcp first (npm ci && npm run build in ${MOBILE_MCP_DIR})`);
      // mobile-mcp runs $ANDROID_HOME/platform-tools/adb; the private server is reached via ANDROID_ADB_SERVER_PORT.
      const sdk = join(home, 'android-sdk');
      mkdirSync(join(sdk, 'platform-tools'), { recursive: true });
      symlinkSync(execFileSync('sh', ['-c', 'command -v adb'], { encoding: 'utf8' }).trim(), join(sdk, 'platform-tools', 'adb'));
      sides.push(await connect('mobile-mcp', process.execPath, [entry], { ...env, ANDROID_HOME: sdk, MOBILEMCP_LEGACY_ROBOT: '1' }));
    } else {
      console.log('MOBILE_MCP_DIR is not set: only mobilebridge is measured. To compare, build mobile-mcp outside this repo:');
      console.log('  git clone https://github.com/mobile-next/mobile-mcp /tmp/mobile-mcp && (cd /tmp/mobile-mcp && npm ci && npm run build)');
      console.log('  MOBILE_MCP_DIR=/tmp/mobile-mcp node dist/scripts/bench/mcp-vs-mobile-mcp.js\n');
    }
    await timed(sides[0], 'setup', 'mobile_launch_app', { device, packageName: DEMO_PACKAGE }, false);
    const field = await emailField(sides[0], device);
    const pick = new RegExp(process.env.BENCH_CALLS ?? '');
    const allOps: [string, string, Record<string, unknown>][] = [
      ['screenshot', 'mobile_take_screenshot', { device }],
      ['list elements', 'mobile_list_elements_on_screen', { device }],
      ['tap', 'mobile_click_on_screen_at_coordinates', { device, x: field.x, y: field.y }],
      ['type', 'mobile_type_keys', { device, text: 'a', submit: false }],
      ['launch', 'mobile_launch_app', { device, packageName: DEMO_PACKAGE }],
      // The issue's five above; BENCH_ALL=1 adds the other calls both servers have that leave the screen as it is.
      ...(process.env.BENCH_ALL === '1'
        ? ([
            ['screen size', 'mobile_get_screen_size', { device }],
            ['orientation', 'mobile_get_orientation', { device }],
            ['press button', 'mobile_press_button', { device, button: 'VOLUME_UP' }],
            ['list apps', 'mobile_list_apps', { device }],
            ['list devices', 'mobile_list_available_devices', {}],
            ['double tap', 'mobile_double_tap_on_screen', { device, x: field.x, y: field.y }],
            ['long press', 'mobile_long_press_on_screen_at_coordinates', { device, x: field.x, y: field.y, duration: 100 }],
            ['swipe', 'mobile_swipe_on_screen', { device, direction: 'up' }],
            ['save shot', 'mobile_save_screenshot', { device, saveTo: join(home, 'shot.png') }],
            ['set portrait', 'mobile_set_orientation', { device, orientation: 'portrait' }],
            // These two leave the app: the round ends with an untimed launch.
            ['open URL', 'mobile_open_url', { device, url: 'https://example.com/' }],
            ['terminate', 'mobile_terminate_app', { device, packageName: DEMO_PACKAGE }],
          ] as [string, string, Record<string, unknown>][])
        : []),
    ];
    const ops = allOps.filter(([op]) => pick.test(op));
    const restore = async () => {
      if (process.env.BENCH_ALL === '1') await timed(sides[0], 'setup', 'mobile_launch_app', { device, packageName: DEMO_PACKAGE }, false);
    };
    // Warm-up: each server's first calls pay for device discovery and lazy setup.
    for (let i = 0; i < 3; i++) {
      for (const side of sides) for (const [op, tool, args] of ops) await timed(side, op, tool, args, false);
      await restore();
    }
    for (const side of sides) side.errors.clear();
    for (let round = 0; round < N; round++) {
      for (const [op, tool, args] of ops) {
        const order = round % 2 ? [...sides].reverse() : sides;
        for (const side of order) {
          await timed(side, op, tool, args);
          // A refused save is not always flagged as an error: only a written file counts.
          if (tool === 'mobile_save_screenshot') {
            if (!existsSync(String(args.saveTo))) side.errors.set(op, `no file at ${String(args.saveTo)}`);
            rmSync(String(args.saveTo), { force: true });
          }
        }
      }
      await restore();
    }
    console.log(`load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
    console.log(`MCP over stdio, emulated Android phone ${device} (1080×2400) via a private adb server; ${N} interleaved rounds; medians (p95)\n`);
    const header = ['call', ...sides.map((s) => s.name), ...(sides.length > 1 ? ['mobilebridge speed-up'] : [])];
    console.log(header.map((h, i) => (i === 0 ? h.padEnd(16) : h.padStart(22))).join(''));
    for (const [op] of ops) {
      const cells = sides.map((s) => summarize(s.times.get(op) ?? []));
      const kb = sides.map((s) => Math.round(summarize(s.bytes.get(op) ?? []).median / 1024));
      const line = [op.padEnd(16), ...cells.map((c, i) => `${c.median.toFixed(1)} (${c.p95.toFixed(1)}) ms${op === 'screenshot' || op === 'list elements' ? ` ${kb[i]}K` : ''}`.padStart(22))];
      if (sides.length > 1) line.push(`${(cells[1].median / cells[0].median).toFixed(2)}×`.padStart(22));
      console.log(line.join(''));
    }
    console.log(`\nCPU per call of each server process (its adb child processes included), ms, mean of ${N}:`);
    for (const [op] of ops) console.log([op.padEnd(16), ...sides.map((s) => ((s.cpu.get(op) ?? 0) / N).toFixed(1).padStart(22))].join(''));
    for (const side of sides) for (const [op, message] of side.errors) console.log(`! ${side.name} ${op} returned an error: ${message}`);
    console.log('\nsizes: median characters of the result (base64 image or JSON text). Both servers return a JPEG/PNG');
    console.log('scaled to their own defaults; the emulated phone answers at once, so these are host-side costs.');
  } finally {
    await Promise.all(sides.map((s) => s.client.close().catch(() => undefined)));
    // mobile-mcp's mobilecli starts a daemon that outlives it: the ones this run started are stopped.
    for (const pid of ourMobilecli(home)) {
      try {
        process.kill(pid);
      } catch {
        // Already gone.
      }
    }
    await adb.stop();
    await phone.close();
    rmSync(home, { recursive: true, force: true });
  }
}

await main();
