import type { Command } from '../command.js';

/**
 * Every sub-command, in the order `--help` lists them, with its one line there; each name is the
 * module `./<name>.js` whose default export is the Command. Add a command by adding it here. The
 * lines live here so that `--help` loads no command (the server's and MCP's imports cost ~0.5 s).
 */
export const COMMANDS: readonly { name: string; summary: string }[] = [
  { name: 'serve', summary: 'start the bridge: web viewer, WebSocket JSON-RPC with live frames (default 127.0.0.1:4800)' },
  { name: 'devices', summary: 'list connected devices (the mobile_list_available_devices result)' },
  { name: 'call', summary: 'run one engine tool and print its result' },
  { name: 'reset', summary: 'forget the virtual devices\' saved state and start them fresh' },
  { name: 'validate', summary: 'check scenario files against schema 2.0/2.1/2.2 (JSON envelope, exit 0 or 3)' },
  { name: 'run', summary: 'replay scenarios on devices: result documents, JUnit XML, HTML report' },
  { name: 'schema', summary: 'print the JSON Schema of scenarios or run results' },
  { name: 'mcp', summary: 'MCP server on stdio for Claude Desktop, Claude Code, Cursor and other agents (docs/agents.md)' },
];

export const COMMAND_NAMES = COMMANDS.map((c) => c.name);

/** Loads only the command being run: a one-shot `call` should not pay for the server's imports. */
export async function loadCommand(name: string): Promise<Command | undefined> {
  if (!COMMAND_NAMES.includes(name)) return undefined;
  const module = (await import(`./${name}.js`)) as { default: Command };
  return module.default;
}

export async function loadCommands(): Promise<Command[]> {
  const loaded = await Promise.all(COMMAND_NAMES.map((name) => loadCommand(name)));
  return loaded.filter((c): c is Command => c !== undefined);
}
