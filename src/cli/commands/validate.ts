import { EXIT, parseFlags, printJson, type Command } from '../command.js';
import { envelope, usageEnvelope } from '../../validate/index.js';
import { validateFiles } from '../../validate/files.js';
import { renderHuman } from '../../validate/human.js';

const usage = `Usage: mobilebridge validate <file|folder|glob>... [--human] [--quiet]

Validates scenario files (schema 2.0 / 2.1 / 2.2) and prints one JSON envelope on stdout:
data (one file) or data.results[] (several), each with errors[] and warnings[] carrying
a JSON Pointer, line, column, rule id, message and suggestion.

  <file>     a scenario .json file
  <folder>   every *.json below it, recursively (without run's ./mobilebridge-out results and caches)
  <glob>     e.g. 'scenarios/**/*.json' (quote it so the shell leaves it alone)

Options:
  --human    readable text with the offending source line and a caret
  --quiet    print nothing; only the exit code

Exit codes: 0 all valid, 3 some scenario invalid (or no path, or an unknown option),
1 a file could not be read.
`;

/** Every `validate` prints one envelope (SPEC §4), also when it cannot start; --quiet keeps stdout empty. */
function refuse(problem: string, args: readonly string[]): number {
  if (!args.includes('--quiet')) {
    if (args.includes('--human')) process.stdout.write(`invalid: ${problem}\n`);
    else printJson(usageEnvelope(problem));
  }
  return EXIT.invalidInput;
}

const command: Command = {
  name: 'validate',
  usage,
  flags: ['human', 'quiet'],
  refuse,
  async run(args) {
    const { flags, positional } = parseFlags(args, ['human', 'quiet']);
    if (positional.length === 0) {
      const problem = 'no scenario given: name at least one file, folder or glob';
      process.stderr.write(`mobilebridge validate: ${problem}\n\n${usage}`);
      return refuse(problem, args);
    }
    const outcomes = validateFiles(positional);
    const readErrors = outcomes.filter((o) => o.readError).map((o) => o.readError!);
    const internal = readErrors.length ? readErrors.join('; ') : undefined;
    const env = envelope(
      outcomes.map((o) => o.report),
      internal,
    );
    if (flags.quiet !== true) {
      if (flags.human === true) {
        process.stdout.write(outcomes.map((o) => renderHuman(o.report, o.text)).join('\n'));
        if (outcomes.length > 1) {
          const bad = outcomes.filter((o) => !o.report.valid).length;
          process.stdout.write(`\n${outcomes.length - bad} of ${outcomes.length} files valid\n`);
        }
      } else printJson(env);
    }
    if (internal) return EXIT.internal;
    return env.ok ? EXIT.ok : EXIT.invalidInput;
  },
};

export default command;
