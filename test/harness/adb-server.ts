import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { unusedPort } from '../support/dead-port.js';

/** Servers not stopped yet: stopped when the process exits without doing it (a crash, a bench piped into `head`). */
const running = new Set<PrivateAdbServer>();
process.on('exit', () => {
  for (const server of running) server.stopNow();
});

/**
 * A private adb server for one test file: its own port, HOME and TMPDIR in a temp folder, so the
 * developer's own server (port 5037, ~/.android/adbkey) is never touched. Always `stop()` it.
 */
export class PrivateAdbServer {
  private constructor(
    readonly port: number,
    readonly dir: string,
  ) {}

  static async start(): Promise<PrivateAdbServer> {
    // A port taken by another process between the check and adb's bind: once more on another port.
    for (let attempt = 1; ; attempt++) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mb-adb-'));
      const server = new PrivateAdbServer(await unusedPort(), dir);
      running.add(server);
      try {
        await server.adb(['start-server']);
        return server;
      } catch (err) {
        await server.stop();
        if (attempt === 3) throw err;
      }
    }
  }

  get env(): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: this.dir, TMPDIR: this.dir, ANDROID_ADB_SERVER_PORT: String(this.port) };
    delete env.ADB_SERVER_SOCKET;
    delete env.ANDROID_SERIAL;
    delete env.ADB_VENDOR_KEYS;
    return env;
  }

  /** Runs `adb -P <port> ...` against this server and resolves with its stdout. */
  adb(args: string[], timeoutMs = 20_000): Promise<string> {
    return new Promise((resolve, reject) => {
      execFile('adb', ['-P', String(this.port), ...args], { env: this.env, timeout: timeoutMs, encoding: 'utf8' }, (err, stdout, stderr) => {
        if (err) reject(new Error(`adb ${args.join(' ')} failed: ${stderr || err.message}`));
        else resolve(stdout);
      });
    });
  }

  /** `adb connect` to an emulated adbd and waits until the server lists it in `want` state. */
  async connect(serial: string, want: 'device' | 'unauthorized' = 'device'): Promise<void> {
    const out = await this.adb(['connect', serial]);
    if (!/connected to/.test(out)) throw new Error(`adb connect ${serial}: ${out.trim()}`);
    await this.waitForState(serial, want);
  }

  async disconnect(serial: string): Promise<void> {
    await this.adb(['disconnect', serial]).catch(() => undefined);
  }

  async state(serial: string): Promise<string | undefined> {
    const out = await this.adb(['devices']);
    for (const line of out.split('\n')) {
      const [s, state] = line.trim().split(/\s+/);
      if (s === serial) return state;
    }
    return undefined;
  }

  async waitForState(serial: string, want: string | undefined, timeoutMs = 15_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    let last: string | undefined;
    while (Date.now() < until) {
      last = await this.state(serial);
      if (last === want) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`device ${serial} stayed ${last ?? 'absent'}, expected ${want ?? 'absent'}`);
  }

  /** Starts the server again on the same port after `kill()`; devices must be connected again. */
  async restart(): Promise<void> {
    await this.adb(['start-server']);
  }

  /** Kills the server (also used to simulate "the adb server went away"). */
  async kill(): Promise<void> {
    await this.adb(['kill-server'], 10_000).catch(() => undefined);
  }

  async stop(): Promise<void> {
    running.delete(this);
    await this.kill();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }

  /** `stop` for an exiting process, where nothing asynchronous runs any more. */
  stopNow(): void {
    running.delete(this);
    try {
      execFileSync('adb', ['-P', String(this.port), 'kill-server'], { env: this.env, timeout: 5000, stdio: 'ignore' });
    } catch {
      // Already gone, or adb itself is missing.
    }
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
