import type { Command } from '../command.js';

/**
 * Every sub-command, in the order `--help` lists them; each name is the module `./<name>.js`
 * whose default export is the Command. Add a command by adding its name here.
 */
export const COMMAND_NAMES = ['serve', 'devices', 'call', 'reset', 'validate', 'run', 'schema', 'mcp'] as const;

/** Loads only the command being run: a one-shot `call` should not pay for the server's imports. */
export async function loadCommand(name: string): Promise<Command | undefined> {
  if (!(COMMAND_NAMES as readonly string[]).includes(name)) return undefined;
  const module = (await import(`./${name}.js`)) as { default: Command };
  return module.default;
}

export async function loadCommands(): Promise<Command[]> {
  const loaded = await Promise.all(COMMAND_NAMES.map((name) => loadCommand(name)));
  return loaded.filter((c): c is Command => c !== undefined);
}
