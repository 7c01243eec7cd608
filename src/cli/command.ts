/** A sub-command of the `mobilebridge` binary. Each lives in its own module under commands/. */
export interface Command {
  name: string;
  /** Full usage text printed by `mobilebridge <name> --help`. */
  usage: string;
  /** Every long option the usage text documents (without `--`; `no-X` is implied by `X`). main rejects any other. */
  flags: readonly string[];
  /** Returns the process exit code (SPEC §4: 0 ok, 1 internal, 2 device, 3 invalid_input, 4 target_not_found, 130 cancelled). */
  run(args: string[]): Promise<number>;
  /**
   * Answers arguments the command cannot start with (an unknown flag), for a command whose stdout
   * is a contract; returns the exit code. Without it main writes the problem to stderr only.
   */
  refuse?(problem: string, args: readonly string[]): number;
}

export const EXIT = { ok: 0, internal: 1, device: 2, invalidInput: 3, targetNotFound: 4, cancelled: 130 } as const;

/** Thrown for input the user must fix; main exits 3 (invalid_input) with its message. */
export class InvalidInputError extends Error {
  readonly exitCode = EXIT.invalidInput;
}

/**
 * Thrown when `--bridge URL` does not attach (nothing answers there, a refused token): a connection
 * problem, so main exits 2 (device) as `run --bridge` and `mcp --bridge` do, not 1 (internal).
 */
export class BridgeConnectError extends Error {
  readonly exitCode = EXIT.device;
}

/** The bridge token: `--token T`, else MOBILEBRIDGE_TOKEN; an empty value means none. */
export function tokenFromFlags(flags: Record<string, string | boolean>): string | undefined {
  return (typeof flags.token === 'string' ? flags.token : process.env.MOBILEBRIDGE_TOKEN) || undefined;
}

export function printJson(value: unknown): void {
  process.stdout.write(JSON.stringify(value, null, 2) + '\n');
}

/** `refuse` of the commands whose other refusals print the tool error shape (call, devices, reset): stdout stays one JSON answer. */
export function refuseAsToolError(problem: string): number {
  printJson({ status: 'error', code: 'INVALID_PARAMETER', message: problem });
  return EXIT.invalidInput;
}

/** Flags that may repeat (`--adb a --adb b`): their values are joined with commas instead of the last one winning. */
const REPEATABLE = new Set(['adb', 'wda', 'peer', 'wda-url', 'mjpeg-url', 'allow-path']);

/**
 * Minimal flag parser: `--name value`, `--name=value`, boolean `--flag`, `--no-flag`.
 * Names listed in `booleans` never consume the next argument.
 */
export function parseFlags(
  args: string[],
  booleans: readonly string[] = [],
): { flags: Record<string, string | boolean>; positional: string[] } {
  const flags: Record<string, string | boolean> = {};
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--') {
      positional.push(...args.slice(i + 1));
      break;
    }
    if (!arg.startsWith('--') || arg === '--') {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const set = (name: string, value: string) => {
      const prev = flags[name];
      flags[name] = REPEATABLE.has(name) && typeof prev === 'string' ? `${prev},${value}` : value;
    };
    if (eq > 0) {
      set(arg.slice(2, eq), arg.slice(eq + 1));
    } else if (arg.startsWith('--no-')) {
      flags[arg.slice(5)] = false;
    } else {
      const name = arg.slice(2);
      const next = args[i + 1];
      if (booleans.includes(name) || next === undefined || next.startsWith('--')) flags[name] = true;
      else {
        set(name, next);
        i++;
      }
    }
  }
  return { flags, positional };
}
