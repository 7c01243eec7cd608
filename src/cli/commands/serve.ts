import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { startBridge, type Bridge } from '../../bridge/index.js';
import { allowedOrigin, bindProblem, weakTokenWarning } from '../../bridge/security.js';
import { createEngine } from '../../engine/create.js';
import { EXIT, parseFlags, tokenFromFlags, type Command } from '../command.js';
import { DEVICE_FLAGS, DEVICE_FLAGS_HELP, engineSetupFromFlags, stateDir } from '../engine-setup.js';
import { Peer } from '../../bridge/peers/peer.js';
import { redact } from '../../bridge/peers/rpc-link.js';
import { allocatorHint } from '../allocator-env.js';
import { parsePeer } from '../../bridge/peers/peer-spec.js';
import { logSourceNotes } from '../source-log.js';

/** Every value of a flag that may repeat (`--x a --x b`, `--x=a`, `--x a,b`). parseFlags keeps only the last. */
function repeated(args: string[], name: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--') break;
    if (arg === `--${name}` && args[i + 1] !== undefined && !args[i + 1].startsWith('--')) out.push(args[++i]);
    else if (arg.startsWith(`--${name}=`)) out.push(arg.slice(name.length + 3));
  }
  return out.flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);
}

function networkAddresses(port: number): string[] {
  const out: string[] = [];
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) out.push(`http://${a.address}:${port}/`);
  }
  return out;
}

function printListening(bridge: Bridge, token: string | undefined, peers: readonly Peer[]): void {
  const q = token ? `?token=${encodeURIComponent(token)}` : '';
  const lines = [
    `mobilebridge ${bridge.server.version} bridge listening on ${bridge.host}:${bridge.port}`,
    `  viewer     ${bridge.url}${q}`,
    `  websocket  ${bridge.wsUrl}`,
  ];
  if (bridge.host === '0.0.0.0' || bridge.host === '::') {
    for (const url of networkAddresses(bridge.port)) lines.push(`  network    ${url}${q}`);
  }
  for (const peer of peers) lines.push(`  peer       ${peer.name} ${redact(peer.spec.url)}`);
  if (token) lines.push('  token      required: "Authorization: Bearer <token>" or ?token=<token>');
  const weak = weakTokenWarning(bridge.host, token);
  if (weak) lines.push(`  warning    ${weak}`);
  const hint = allocatorHint();
  if (hint) lines.push(`  ${hint}`);
  lines.push('Press Ctrl-C to stop.');
  process.stdout.write(lines.join('\n') + '\n');
}

const command: Command = {
  name: 'serve',
  usage: `Usage: mobilebridge serve [options]

Starts the bridge: the web viewer at http://HOST:PORT/, the WebSocket endpoint
ws://HOST:PORT/ws (JSON-RPC 2.0, docs/protocol.md), GET /api/health, GET /api/devices
and POST /api/validate. Without a phone it still serves the virtual devices.
Ctrl-C (or SIGTERM) shuts down gracefully: calls in progress finish, sockets close
with a reason, drivers stop.

Options:
  --host H            address to listen on (default 127.0.0.1). Any address that is not
                      loopback requires --token
  --port P            port (default 4800; 0 picks a free one and prints it)
  --token T           require this token on every request and WebSocket upgrade
                      ("Authorization: Bearer T" or ?token=T); default MOBILEBRIDGE_TOKEN
  --allow-origin O    let browser pages from origin O (e.g. http://localhost:5173) open the
                      WebSocket; repeatable or comma-separated; "*" allows any origin
  --no-video          never start device video (scrcpy, WDA MJPEG); viewers get screenshots
  --peer [NAME=]ws://HOST:PORT[?token=T]
                      serve that bridge's devices as our own (source NAME); repeatable. Calls,
                      verbs, runs, locks and frames pass through (docs/scale-out.md)
  --peer-token T      token for peers whose URL has none (default MOBILEBRIDGE_PEER_TOKEN)

${DEVICE_FLAGS_HELP}

Examples:
  mobilebridge serve
  mobilebridge serve --port 0
  mobilebridge serve --host 0.0.0.0 --token "$(openssl rand -hex 16)"`,
  flags: ['host', 'port', 'token', 'allow-origin', 'video', 'peer', 'peer-token', ...DEVICE_FLAGS],

  async run(args) {
    const { flags } = parseFlags(args, ['virtual', 'video']);
    // '[::1]' as in a URL: listen() looks a bracketed address up as a host name (ENOTFOUND).
    const host = typeof flags.host === 'string' ? flags.host.replace(/^\[(.*)\]$/, '$1') : '127.0.0.1';
    const port = flags.port === undefined ? 4800 : Number(flags.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      process.stderr.write(`mobilebridge serve: --port must be a whole number 0..65535 (got ${String(flags.port)})\n`);
      return EXIT.invalidInput;
    }
    if (flags.token === true) {
      process.stderr.write('mobilebridge serve: --token needs a value\n');
      return EXIT.invalidInput;
    }
    const token = tokenFromFlags(flags);
    const problem = bindProblem(host, token);
    if (problem) {
      process.stderr.write(`mobilebridge serve: ${problem}\n`);
      return EXIT.invalidInput;
    }
    let allowOrigins: string[];
    try {
      allowOrigins = repeated(args, 'allow-origin').map(allowedOrigin);
    } catch (err) {
      process.stderr.write(`mobilebridge serve: ${(err as Error).message}\n`);
      return EXIT.invalidInput;
    }
    let setup;
    let peers: Peer[] = [];
    try {
      setup = engineSetupFromFlags(flags);
      const peerToken = (typeof flags['peer-token'] === 'string' ? flags['peer-token'] : process.env.MOBILEBRIDGE_PEER_TOKEN) || undefined;
      if (flags.peer === true) throw new Error('--peer needs the URL of another bridge, e.g. --peer lab1=ws://10.0.0.5:4800');
      const specs = repeated(args, 'peer').map((v) => parsePeer(v, peerToken));
      const names = new Set<string>();
      for (const s of specs) {
        if (names.has(s.name)) throw new Error(`two peers are both named ${s.name}; name them apart: --peer lab1=ws://… --peer lab2=ws://…`);
        names.add(s.name);
      }
      peers = specs.map((spec) => new Peer(spec));
      setup.extraDrivers = [...(setup.extraDrivers ?? []), ...peers];
    } catch (err) {
      process.stderr.write(`mobilebridge serve: ${(err as Error).message}\n`);
      return EXIT.invalidInput;
    }
    let bridge: Bridge;
    const engine = createEngine(setup);
    try {
      bridge = await startBridge({ engine, host, port, token, allowOrigins, video: { enabled: flags.video !== false }, peers, recordingsDir: join(stateDir(), 'recordings'), callTimeoutMs: setup.timeoutMs });
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      const why = e.code === 'EADDRINUSE' ? `port ${port} on ${host} is in use; pick another with --port (or --port 0 for any free one)` : e.message;
      process.stderr.write(`mobilebridge serve: ${why}\n`);
      return EXIT.internal;
    }
    // Handlers first: "Press Ctrl-C to stop" printed before them let a Ctrl-C (or a supervisor's SIGINT) right after it kill the bridge without its shutdown.
    const stopped = new Promise<void>((resolve) => {
      let stopping = false;
      const onSignal = (signal: NodeJS.Signals) => {
        if (stopping) {
          process.stderr.write('mobilebridge serve: forced exit\n');
          process.exit(EXIT.cancelled);
        }
        stopping = true;
        process.stderr.write(`mobilebridge serve: ${signal}, shutting down (again to force)\n`);
        const done = () => {
          process.off('SIGINT', onSignal);
          process.off('SIGTERM', onSignal);
          resolve();
        };
        bridge.close(`the bridge is shutting down (${signal})`).then(done, (err: unknown) => {
          process.stderr.write(`mobilebridge serve: shutdown failed: ${(err as Error).message}\n`);
          done();
        });
      };
      process.on('SIGINT', onSignal);
      process.on('SIGTERM', onSignal);
    });
    printListening(bridge, token, peers);
    logSourceNotes(engine, (line) => process.stderr.write(`mobilebridge serve: ${line}\n`));
    await stopped;
    return EXIT.ok;
  },
};

export default command;
