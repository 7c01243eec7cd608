import type { Command } from '../command.js';

/** Every sub-command, in the order `--help` lists them. Add a command by adding its module here. */
export async function loadCommands(): Promise<Command[]> {
  const modules = await Promise.all([
    import('./devices.js'),
    import('./call.js'),
    import('./reset.js'),
    import('./validate.js'),
    import('./run.js'),
    import('./schema.js'),
  ]);
  return modules.map((m) => m.default);
}
