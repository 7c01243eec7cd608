import { homedir } from 'node:os';
import { join } from 'node:path';
import type { EngineSetup } from '../engine/create.js';

/**
 * Where the virtual devices keep their state between CLI processes, so successive
 * `mobilebridge call`s act on one continuing phone. MOBILEBRIDGE_STATE_DIR overrides
 * (tests point it at a temp folder); else the XDG cache folder.
 */
export function stateDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.MOBILEBRIDGE_STATE_DIR) return env.MOBILEBRIDGE_STATE_DIR;
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'mobilebridge');
}

export function virtualStateFile(env: NodeJS.ProcessEnv = process.env): string {
  return join(stateDir(env), 'virtual-devices.json');
}

function list(value: string | boolean | undefined): string[] {
  return typeof value === 'string' ? value.split(',').filter(Boolean) : [];
}

/** Engine options shared by the commands that open devices themselves (devices, call, run). */
export function engineSetupFromFlags(flags: Record<string, string | boolean>): EngineSetup {
  const timeout = typeof flags.timeout === 'string' ? Number(flags.timeout) : undefined;
  if (timeout !== undefined && !(Number.isInteger(timeout) && timeout > 0)) {
    throw new Error(`--timeout must be a positive whole number of milliseconds (got ${String(flags.timeout)})`);
  }
  return {
    virtual: flags.virtual === false ? false : { stateFile: virtualStateFile() },
    timeoutMs: timeout,
    allowPaths: list(flags['allow-path']),
  };
}
