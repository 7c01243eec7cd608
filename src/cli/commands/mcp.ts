import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createEngine } from '../../engine/create.js';
import { RecordingStore } from '../../engine/verbs/recording-store.js';
import { LocalBackend, type AgentBackend } from '../../mcp/backend.js';
import { createMcpServer } from '../../mcp/server.js';
import { LineTransport } from '../../mcp/stdio-transport.js';
import { bridgeUrlProblem } from '../../protocol/bridge-problems.js';
import { bridgeIgnoresProblem } from '../bridge-attach.js';
import { EXIT, parseFlags, tokenFromFlags, type Command } from '../command.js';
import { allowPathsFromFlags, DEVICE_FLAGS, DEVICE_FLAGS_HELP, engineSetupFromFlags, stateDir } from '../engine-setup.js';

function packageVersion(): string {
  try {
    return (JSON.parse(readFileSync(new URL('../../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}

function fail(message: string): number {
  process.stderr.write(`mobilebridge mcp: ${message}\n`);
  return EXIT.invalidInput;
}

const command: Command = {
  name: 'mcp',
  usage: `Usage: mobilebridge mcp [options]

Speaks the Model Context Protocol on stdin/stdout, for an MCP client to start.
Tools: the verbs (tap, type_text, swipe, scroll_to, wait_for, press_back,
launch_app, …, which take a described target such as "the Sign in button"),
assert, list_devices, list_apps, list_elements, take_screenshot (a scaled image
with its pixel factor), recording_start and recording_stop (a replayable
scenario). Nothing but MCP messages goes to stdout; logs go to stderr.
See docs/agents.md for client configuration.

Options:
  --engine-tools      also offer the raw mobile_* tools (as mobile-mcp names them)
  --bridge URL        act through a running bridge (ws://HOST:PORT/ws) instead of
                      opening devices here, so the viewer shows the agent live
  --token T           the bridge's token (default MOBILEBRIDGE_TOKEN)
  --device ID         device used when a tool call names none

${DEVICE_FLAGS_HELP}

Examples:
  mobilebridge mcp
  mobilebridge mcp --engine-tools --no-virtual
  mobilebridge mcp --bridge ws://127.0.0.1:4800/ws`,
  flags: ['engine-tools', 'bridge', 'token', 'device', ...DEVICE_FLAGS],

  async run(args) {
    const { flags, positional } = parseFlags(args, ['engine-tools', 'virtual']);
    if (positional.length) return fail(`unexpected argument ${JSON.stringify(positional[0])}; see mobilebridge mcp --help`);
    if (flags.bridge === true) return fail('--bridge needs the WebSocket URL, e.g. --bridge ws://127.0.0.1:4800/ws');
    const urlProblem = typeof flags.bridge === 'string' ? bridgeUrlProblem(flags.bridge) : undefined;
    if (urlProblem) return fail(urlProblem);
    // --allow-path still counts with --bridge: recording_stop's save_to is written by this process.
    const { 'allow-path': _allowPath, ...bridged } = flags;
    const ignored = bridgeIgnoresProblem(bridged);
    if (ignored) return fail(ignored);
    if (flags.token === true) return fail('--token needs a value');
    if (flags.device === true) return fail('--device needs a device id');
    // stdout carries the protocol: anything a library prints goes to stderr instead.
    console.log = console.info = console.debug = (...parts: unknown[]) => process.stderr.write(`${parts.map(String).join(' ')}\n`);

    let allowPaths: string[];
    try {
      allowPaths = allowPathsFromFlags(flags);
    } catch (err) {
      return fail((err as Error).message);
    }
    let backend: AgentBackend;
    try {
      if (typeof flags.bridge === 'string') {
        const token = tokenFromFlags(flags);
        // The WebSocket client only for --bridge: a local server starts without it.
        const { BridgeBackend } = await import('../../mcp/bridge-backend.js');
        backend = await BridgeBackend.connect(flags.bridge, token);
      } else {
        backend = new LocalBackend(createEngine(engineSetupFromFlags(flags)), { store: new RecordingStore(join(stateDir(), 'recordings')) });
      }
    } catch (err) {
      process.stderr.write(`mobilebridge mcp: ${(err as Error).message}\n`);
      return typeof flags.bridge === 'string' ? EXIT.device : EXIT.invalidInput;
    }

    const server = createMcpServer({
      backend,
      engineTools: flags['engine-tools'] === true,
      defaultDevice: typeof flags.device === 'string' ? flags.device : undefined,
      allowPaths,
      version: packageVersion(),
    });
    const closed = new Promise<void>((resolve) => {
      server.onclose = () => resolve();
      process.stdin.once('end', () => resolve());
      process.once('SIGINT', () => resolve());
      process.once('SIGTERM', () => resolve());
    });
    // What the protocol layer cannot answer (a line that is not JSON) is said where logs go.
    server.onerror = (err) => process.stderr.write(`mobilebridge mcp: ${err.message}\n`);
    await server.connect(new LineTransport());
    process.stderr.write(`mobilebridge mcp: ready (devices in ${backend.where})\n`);
    await closed;
    await server.close().catch(() => undefined);
    await backend.close().catch((err: unknown) => process.stderr.write(`mobilebridge mcp: shutdown: ${(err as Error).message}\n`));
    return EXIT.ok;
  },
};

export default command;
