/**
 * Starting a local adb server when none answers, as the adb CLI does, once for all the
 * connections that found it missing. adbkit starts one per refused connection; at start-up a
 * listing and the device tracker connect together, two `adb start-server` race for the port, and
 * the loser reports "could not install *smartsocket* listener: Address already in use" /
 * "ADB server didn't ACK" while the winner's server is up: the first `devices` of the day said the
 * adb server was unreachable.
 */
import { execFile } from 'node:child_process';
import type { AdbAddress } from './adb-address.js';

/** adb's own start-up waits for its server; this bounds a start that hangs (a stuck server). */
const START_TIMEOUT_MS = 30_000;

export type StartServer = () => Promise<void>;

function runStartServer(bin: string, address: AdbAddress): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(bin, ['-P', String(address.port), 'start-server'], { timeout: START_TIMEOUT_MS }, (err, _stdout, stderr) => {
      if (!err) return resolve();
      const said = String(stderr).trim();
      reject(said ? Object.assign(new Error(`${err.message.split('\n')[0]}\n${said}`), { code: (err as NodeJS.ErrnoException).code }) : err);
    });
  });
}

/** One `<bin> -P <port> start-server` at a time: callers that ask while one runs wait for it. */
export function singleServerStart(bin: string, address: AdbAddress): StartServer {
  let running: Promise<void> | undefined;
  return () => {
    running ??= runStartServer(bin, address).finally(() => {
      running = undefined;
    });
    return running;
  };
}
