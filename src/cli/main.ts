#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { ToolError } from '../engine/errors.js';
import { dropStartOnlyEnv } from './allocator-env.js';
import { BridgeConnectError, EXIT, InvalidInputError } from './command.js';
import { missingValueProblem } from './missing-values.js';
import { unknownFlagProblem } from './unknown-flags.js';
import { COMMANDS, COMMAND_NAMES, loadCommand } from './commands/index.js';

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--version' || name === '-v') {
    process.stdout.write(version() + '\n');
    return 0;
  }
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    const width = Math.max(...COMMANDS.map((c) => c.name.length));
    process.stdout.write(
      `mobilebridge ${version()} — drive Android, iOS and virtual devices\n\n` +
        `Usage: mobilebridge <command> [options]\n\nCommands:\n` +
        COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join('\n') +
        `\n\nRun 'mobilebridge <command> --help' for a command's options.\n`,
    );
    // No command is a usage error (exit 3, SPEC §4 keeps 1 for internal errors); asking for help is not.
    return name ? 0 : EXIT.invalidInput;
  }
  const command = await loadCommand(name);
  if (!command) {
    process.stderr.write(`mobilebridge: unknown command '${name}'. Commands: ${COMMAND_NAMES.join(', ')}\n`);
    return EXIT.invalidInput;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(command.usage.trimEnd() + '\n');
    return 0;
  }
  const badFlag = unknownFlagProblem(name, rest, command.flags, command.usage) ?? missingValueProblem(name, rest, command.usage);
  if (badFlag) {
    process.stderr.write(`mobilebridge: ${badFlag}\n`);
    return command.refuse ? command.refuse(badFlag, rest) : EXIT.invalidInput;
  }
  return command.run(rest);
}

/**
 * A reader that stops early (`validate specs/ | head`) closes the pipe: what is left of the output
 * has nowhere to go, which is not a failure of the command. Node reports it as an unhandled
 * 'error' (a stack trace, exit 1); the command goes on to its end instead (a run still writes its
 * results and reports) and exits with its own code.
 */
function ignoreClosedReaders(stream: NodeJS.WriteStream): void {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
  });
}

ignoreClosedReaders(process.stdout);
ignoreClosedReaders(process.stderr);
dropStartOnlyEnv();
const speaksMcp = process.argv[2] === 'mcp';
main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    // Commands speak JSON on stdout; an unexpected failure keeps that promise with the tool error shape.
    const message = err instanceof Error ? err.message : String(err);
    // A bad setting (an environment variable a module reads as it loads) is the user's to fix too.
    const invalid = err instanceof InvalidInputError || (err instanceof ToolError && err.code === 'INVALID_PARAMETER');
    // No bridge at --bridge: the devices it would reach are not found from here (exit 2, as call maps DEVICE_NOT_FOUND).
    const unattached = err instanceof BridgeConnectError;
    // Except under mcp, whose stdout carries nothing but MCP messages (the client would read this one as a broken message).
    if (!speaksMcp) process.stdout.write(JSON.stringify({ status: 'error', code: invalid ? 'INVALID_PARAMETER' : unattached ? 'DEVICE_NOT_FOUND' : 'INTERNAL', message }, null, 2) + '\n');
    process.stderr.write(`mobilebridge: ${message}\n`);
    process.exitCode = invalid ? EXIT.invalidInput : unattached ? EXIT.device : EXIT.internal;
  },
);
