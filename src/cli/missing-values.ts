/**
 * Refuses an option that takes a value but was given none (`--device` last, or followed by another
 * option): the parser reads it as "on", and commands then fell back to their default, so
 * `run --device $DEV` with an empty $DEV ran on another phone and `--shard` ran every scenario.
 */

/** How the command's --help writes the option with its value (`--device ID`), or undefined for a switch. */
function valueForm(name: string, usage: string): string | undefined {
  // Option lines put one space between the name and its value and two or more before the description.
  const line = new RegExp(`^\\s*(--${name} \\S+)`, 'm').exec(usage);
  return line?.[1];
}

/** Options written bare (`--name` with no `=`) followed by nothing or by another option; stops at `--`. */
function bareOptions(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--') break;
    if (!arg.startsWith('--') || arg.includes('=') || arg.startsWith('--no-')) continue;
    const next = args[i + 1];
    if (next === undefined || next.startsWith('--')) out.push(arg.slice(2));
  }
  return out;
}

/** An error message for the first option in `args` that needs a value and has none, else undefined. */
export function missingValueProblem(command: string, args: readonly string[], usage: string): string | undefined {
  for (const name of bareOptions(args)) {
    const form = valueForm(name, usage);
    if (form) return `--${name} needs a value: ${form} (see mobilebridge ${command} --help)`;
  }
  return undefined;
}
