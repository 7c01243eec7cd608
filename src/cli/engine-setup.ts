import { accessSync, constants, mkdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { EngineSetup } from '../engine/create.js';
import type { VirtualModel } from '../engine/drivers/virtual/index.js';
import { InvalidInputError } from './command.js';
import { sourcesFromFlags } from '../engine/sources/index.js';
import { iosSetupFromFlags } from '../engine/drivers/ios/setup.js';

/**
 * Where the virtual devices keep their state between CLI processes, so successive
 * `mobilebridge call`s act on one continuing phone. MOBILEBRIDGE_STATE_DIR overrides
 * (tests point it at a temp folder); else the XDG cache folder.
 */
export function stateDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.MOBILEBRIDGE_STATE_DIR) return env.MOBILEBRIDGE_STATE_DIR;
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'mobilebridge');
}

function list(value: string | boolean | undefined): string[] {
  return typeof value === 'string' ? value.split(',').filter(Boolean) : [];
}

const str = (value: string | boolean | undefined) => (typeof value === 'string' ? value : undefined);

/** The device flags every command that opens devices accepts; commands append this to their --help. */
export const DEVICE_FLAGS_HELP = `Device options:
  --no-virtual            leave out the built-in virtual devices
  --virtual-devices LIST  which virtual devices to make, comma-separated from android, ios, ipad
                          (default android,ios; e.g. android,ios,ipad adds virtual-ipad-1)
  --no-android            leave out Android devices (adb)
  --adb [NAME=]HOST:PORT  use this adb server; repeat for several (default: ANDROID_ADB_SERVER_PORT /
                          ADB_SERVER_SOCKET, else 127.0.0.1:5037). Ids on two servers become SERIAL@NAME
  --wda NAME=URL          an iPhone whose WebDriverAgent answers at URL (repeatable); NAME is its id
  --no-ios                leave out iOS simulators and iPhones
  --wda-url [UDID=]URL    WebDriverAgent of simulators (default http://127.0.0.1:8100); with UDID=,
                          of that simulator alone (repeatable: one WDA per simulator)
  --mjpeg-url [UDID=]URL  WebDriverAgent's MJPEG server (default the WDA URL's host, port 9100;
                          a simulator with a --wda-url of its own needs one of its own)
  --wda-project DIR       WebDriverAgent checkout to build and start when none answers
  --wda-runner PATH       prebuilt WebDriverAgentRunner-Runner.app to install on simulators
  --wda-device-port PORT  WebDriverAgent's port inside real iPhones (default 8100)
  --timeout MS            deadline of each device call (default 30000)
  --allow-path DIR        extra folder screenshots, installs and saved scenarios may use (repeatable or comma-separated)`;

/** The options DEVICE_FLAGS_HELP documents. */
export const DEVICE_FLAGS = ['virtual', 'android', 'adb', 'wda', 'ios', 'wda-url', 'mjpeg-url', 'wda-project', 'wda-runner', 'wda-device-port', 'timeout', 'allow-path', 'virtual-devices'] as const;

const MODELS: readonly VirtualModel[] = ['android', 'ios', 'ipad'];

/** `--virtual-devices`: which virtual devices to make (each model once), or nothing for the default pair. */
function virtualModels(flags: Record<string, string | boolean>): { devices?: VirtualModel[] } {
  const given = flags['virtual-devices'];
  if (given === undefined) return {};
  if (flags.virtual === false) throw new InvalidInputError('--virtual-devices and --no-virtual contradict each other: give one of them');
  const names = list(given).map((n) => n.trim().toLowerCase());
  const unknown = names.filter((n) => !(MODELS as readonly string[]).includes(n));
  if (given === true || names.length === 0 || unknown.length) {
    const what = unknown.length ? `does not know ${unknown.map((n) => JSON.stringify(n)).join(', ')}` : 'needs a list';
    throw new InvalidInputError(`--virtual-devices ${what}: give some of ${MODELS.join(', ')}, comma-separated, e.g. --virtual-devices android,ios,ipad`);
  }
  return { devices: [...new Set(names)] as VirtualModel[] };
}

/** `--allow-path` folders, repeated or comma-separated. */
export function allowPathsFromFlags(flags: Record<string, string | boolean>): string[] {
  // Without its folder the flag would allow nothing, and the save it was meant for is refused later, far from the cause.
  if (flags['allow-path'] === true) throw new InvalidInputError('--allow-path needs a folder, e.g. --allow-path ./shots (repeat it or separate folders with commas)');
  return list(flags['allow-path']);
}

/**
 * Engine options shared by the commands that open devices themselves (devices, call, run, serve).
 * `persistVirtual` keeps the virtual phones' state between processes (the one-shot commands want that).
 */
export function engineSetupFromFlags(flags: Record<string, string | boolean>, persistVirtual = true): EngineSetup {
  // Every problem found here is in what the user gave (a flag, an environment variable): exit 3, not "internal".
  try {
    return setupFromFlags(flags, persistVirtual);
  } catch (err) {
    throw err instanceof InvalidInputError ? err : new InvalidInputError(err instanceof Error ? err.message : String(err));
  }
}

/**
 * The state file, its folder checked (and made if missing, unless `create` is false: a reset has
 * nothing to remove there) before any device is touched: a save that failed after a call had acted
 * reported INTERNAL ("EEXIST: file already exists, mkdir …") for work done, and a reset the raw errno.
 */
export function usableStateFile(env: NodeJS.ProcessEnv = process.env, create = true): string {
  const dir = stateDir(env);
  const file = join(dir, 'virtual-devices.json');
  const from = env.MOBILEBRIDGE_STATE_DIR ? ' (MOBILEBRIDGE_STATE_DIR)' : '';
  try {
    if (create) mkdirSync(dir, { recursive: true, mode: 0o700 });
    const stat = statSync(dir, { throwIfNoEntry: false });
    if (!stat) return file;
    if (!stat.isDirectory()) throw Object.assign(new Error(`${dir} is not a folder`), { code: 'ENOTDIR' });
    accessSync(dir, constants.W_OK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'EEXIST' || code === 'ENOTDIR' ? 'it is a file, not a folder' : code === 'EACCES' || code === 'EPERM' || code === 'EROFS' ? 'it cannot be written' : (err as Error).message;
    const or = create ? ', or pass --no-virtual' : '';
    throw new InvalidInputError(`the virtual phones keep their state in ${dir}${from}, but ${why}; set MOBILEBRIDGE_STATE_DIR to a folder you can write${or}`);
  }
  return file;
}

function setupFromFlags(flags: Record<string, string | boolean>, persistVirtual: boolean): EngineSetup {
  const timeout = typeof flags.timeout === 'string' ? Number(flags.timeout) : undefined;
  if (timeout !== undefined && !(Number.isInteger(timeout) && timeout > 0)) {
    throw new Error(`--timeout must be a positive whole number of milliseconds (got ${String(flags.timeout)})`);
  }
  return {
    virtual: flags.virtual === false ? (virtualModels(flags), false) : { ...(persistVirtual ? { stateFile: usableStateFile() } : {}), ...virtualModels(flags) },
    sources: sourcesFromFlags(flags),
    ios: iosSetupFromFlags({
      noIos: flags.ios === false,
      wdaUrl: str(flags['wda-url']),
      mjpegUrl: str(flags['mjpeg-url']),
      wdaProject: str(flags['wda-project']),
      wdaRunner: str(flags['wda-runner']),
      wdaDevicePort: str(flags['wda-device-port']),
    }),
    timeoutMs: timeout,
    allowPaths: allowPathsFromFlags(flags),
  };
}
