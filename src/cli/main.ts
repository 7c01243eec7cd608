#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { loadCommands } from './commands/index.js';

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

async function main(argv: string[]): Promise<number> {
  const commands = await loadCommands();
  const [name, ...rest] = argv;
  if (name === '--version' || name === '-v') {
    process.stdout.write(version() + '\n');
    return 0;
  }
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    const width = Math.max(...commands.map((c) => c.name.length));
    process.stdout.write(
      `mobilebridge ${version()} — drive Android, iOS and virtual devices\n\n` +
        `Usage: mobilebridge <command> [options]\n\nCommands:\n` +
        commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join('\n') +
        `\n\nRun 'mobilebridge <command> --help' for a command's options.\n`,
    );
    return name ? 0 : 1;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) {
    process.stderr.write(`mobilebridge: unknown command '${name}'. Commands: ${commands.map((c) => c.name).join(', ')}\n`);
    return 1;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(command.usage.trimEnd() + '\n');
    return 0;
  }
  return command.run(rest);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`mobilebridge: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
