/**
 * Refuses an option that takes a value but was given none: `--device` last or followed by another
 * option (the parser reads it as "on"), and `--out ""` or `--out=` (an empty variable, quoted).
 * Commands fell back to their default or took the empty text as a value: `run --device $DEV` with
 * an empty $DEV ran on another phone, `--shard` ran every scenario, and `--out ""` wrote the
 * reports into the working folder over its own junit.xml.
 */

/** How the command's --help writes the option with its value (`--device ID`), or undefined for a switch. */
function valueForm(name: string, usage: string): string | undefined {
  // Option lines put one space between the name and its value and two or more before the description.
  const line = new RegExp(`^\\s*(--${name} \\S+)`, 'm').exec(usage);
  return line?.[1];
}

/** Options given without a value (`--name` before nothing or another option) or with an empty one; stops at `--`. */
function optionsWithoutValue(args: readonly string[]): { name: string; empty: boolean }[] {
  const out: { name: string; empty: boolean }[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--') break;
    if (!arg.startsWith('--') || arg.startsWith('--no-')) continue;
    const eq = arg.indexOf('=');
    if (eq > 0) {
      if (eq === arg.length - 1) out.push({ name: arg.slice(2, eq), empty: true });
      continue;
    }
    const next = args[i + 1];
    if (next === undefined || next.startsWith('--')) out.push({ name: arg.slice(2), empty: false });
    else if (next === '') out.push({ name: arg.slice(2), empty: true });
  }
  return out;
}

/** An error message for the first option in `args` that needs a value and has none, else undefined. */
export function missingValueProblem(command: string, args: readonly string[], usage: string): string | undefined {
  for (const { name, empty } of optionsWithoutValue(args)) {
    const form = valueForm(name, usage);
    if (form) return `--${name} needs a value${empty ? ' (it was given an empty one)' : ''}: ${form} (see mobilebridge ${command} --help)`;
  }
  return undefined;
}
