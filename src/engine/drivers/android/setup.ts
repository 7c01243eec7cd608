import { AdbAddressError, parseHostPort, resolveAdbAddress } from './adb-address.js';

/** What `createEngine` needs to know about Android: false turns the driver off. */
export type AndroidSetup = false | { host?: string; port?: number; startServer?: boolean; origin?: string };

/**
 * Turns the CLI's `--adb host:port` and `--no-android` flags (as parsed by `parseFlags`) into the
 * engine's `android` setup. The CLI starts a local adb server when none runs, as adb itself does.
 * Throws AdbAddressError with a message for the user when the flag or the adb variables are malformed.
 */
export function androidSetupFromFlags(flags: Record<string, string | boolean | undefined>, env: NodeJS.ProcessEnv = process.env): AndroidSetup {
  if (flags.android === false) return false;
  const adb = flags.adb;
  if (adb === true) throw new AdbAddressError('--adb needs a value: --adb host:port, e.g. --adb 192.168.1.20:5037');
  if (typeof adb === 'string') return { ...parseHostPort(adb, '--adb'), startServer: false };
  const address = resolveAdbAddress(undefined, env);
  // A remote server cannot be started from here; a local one can, like `adb devices` would.
  return { host: address.host, port: address.port, startServer: /^(127\.0\.0\.1|localhost|::1)$/.test(address.host), origin: address.source };
}
