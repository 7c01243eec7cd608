/**
 * What a command costs before it does anything: wall time of one-shot commands, each a fresh Node
 * process (bare `node -e 0` for the floor), and for the MCP server the time from spawn to its
 * answer to `tools/list` — what an agent waits for when its client starts the server — next to
 * mobile-mcp's when MOBILE_MCP_DIR is given (see mcp-vs-mobile-mcp.ts for how to get it).
 * Medians of BENCH_N runs (default 15), the sides alternating; asserts nothing.
 *
 *   [MOBILE_MCP_DIR=/path/to/mobile-mcp] node dist/scripts/bench/cli-start.js
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deadPort } from '../../test/support/dead-port.js';
import { summarize } from './stats.js';

const N = Number(process.env.BENCH_N ?? 15);
const MAIN = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
const FIXTURE = fileURLToPath(new URL('../../../test/fixtures/scenarios/valid/login.json', import.meta.url));
const MOBILE_MCP = process.env.MOBILE_MCP_DIR ? join(process.env.MOBILE_MCP_DIR, 'lib', 'index.js') : undefined;

const state = mkdtempSync(join(tmpdir(), 'mb-bench-start-'));
// Android stays on, as for a user, but with --adb at a dead port: the bench neither reaches nor starts an adb server.
const env = { ...process.env, MOBILEBRIDGE_STATE_DIR: state };
const ADB = ['--adb', `127.0.0.1:${await deadPort()}`];

function timed(args: string[]): number {
  const start = performance.now();
  const r = spawnSync(process.execPath, args, { env, encoding: 'utf8' });
  if (r.error) throw r.error;
  return performance.now() - start;
}

/** Spawn to the answer of `tools/list` (after initialize), over stdio; the server is then closed. */
function mcpReady(args: string[], extraEnv: Record<string, string> = {}): Promise<number> {
  const start = performance.now();
  const child = spawn(process.execPath, args, { env: { ...env, ...extraEnv }, stdio: ['pipe', 'pipe', 'ignore'] });
  const send = (msg: object) => child.stdin.write(`${JSON.stringify(msg)}\n`);
  send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } });
  return new Promise((resolve, reject) => {
    let buffered = '';
    child.on('error', reject);
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      for (let nl = buffered.indexOf('\n'); nl !== -1; nl = buffered.indexOf('\n')) {
        const msg = JSON.parse(buffered.slice(0, nl)) as { id?: number };
        buffered = buffered.slice(nl + 1);
        if (msg.id === 1) {
          send({ jsonrpc: '2.0', method: 'notifications/initialized' });
          send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
        } else if (msg.id === 2) {
          const ms = performance.now() - start;
          child.kill();
          resolve(ms);
        }
      }
    });
  });
}

const cases: [string, string[]][] = [
  ['node -e 0 (the floor)', ['-e', '0']],
  ['mobilebridge --help', [MAIN, '--help']],
  ['validate login.json', [MAIN, 'validate', FIXTURE]],
  ['call screen size (virtual)', [MAIN, 'call', 'mobile_get_screen_size', '{"device":"virtual-android-1"}', '--no-ios', ...ADB]],
  ['call tap (virtual)', [MAIN, 'call', 'mobile_click_on_screen_at_coordinates', '{"device":"virtual-android-1","x":100,"y":100}', '--no-ios', ...ADB]],
  ['call screenshot (virtual)', [MAIN, 'call', 'mobile_take_screenshot', '{"device":"virtual-android-1"}', '--no-ios', ...ADB]],
];

try {
  console.log(`load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}; ${N} runs each; median wall ms (p95)`);
  for (const [label, args] of cases) {
    const times = Array.from({ length: N }, () => timed(args));
    const s = summarize(times);
    console.log(`${label.padEnd(30)} ${s.median.toFixed(0).padStart(5)} (${s.p95.toFixed(0)})`);
  }
  if (MOBILE_MCP && !existsSync(MOBILE_MCP)) throw new Error(`${MOBILE_MCP} does not exist: build mobile-mcp first`);
  const ours: number[] = [];
  const theirs: number[] = [];
  for (let i = 0; i < N; i++) {
    ours.push(await mcpReady([MAIN, 'mcp', '--no-ios', ...ADB]));
    if (MOBILE_MCP) theirs.push(await mcpReady([MOBILE_MCP], { MOBILEMCP_LEGACY_ROBOT: '1' }));
  }
  const a = summarize(ours);
  const line = [`${'mcp: spawn → tools/list'.padEnd(30)} ${a.median.toFixed(0).padStart(5)} (${a.p95.toFixed(0)})`];
  if (theirs.length) {
    const b = summarize(theirs);
    line.push(`mobile-mcp ${b.median.toFixed(0)} (${b.p95.toFixed(0)}), mobile-mcp / ours ${(b.median / a.median).toFixed(2)}×`);
  } else line.push('(set MOBILE_MCP_DIR to time mobile-mcp beside it)');
  console.log(line.join('   '));
} finally {
  rmSync(state, { recursive: true, force: true });
}
