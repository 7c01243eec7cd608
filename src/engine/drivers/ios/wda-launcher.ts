import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, closeSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { ToolError } from '../../errors.js';
import { bundleIdOfFile } from './installed-bundle.js';
import { XCODE_FIX, type Simctl } from './simctl.js';
import type { WdaClient } from './wda-client.js';

export interface WdaStartConfig {
  /** A WebDriverAgent checkout (folder holding WebDriverAgent.xcodeproj): built and run with xcodebuild. */
  project?: string;
  /** A prebuilt WebDriverAgentRunner-Runner.app for the simulator: installed and launched with simctl. */
  runner?: string;
  /** How long one call waits for a starting WDA before saying it is still starting. */
  waitMs?: number;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(t);
      reject(signal.reason);
    }, { once: true });
  });

async function answers(client: WdaClient, signal?: AbortSignal): Promise<boolean> {
  try {
    await client.status(signal);
    return true;
  } catch (err) {
    if (signal?.aborted) throw err;
    return false;
  }
}

export function simulatorStartHint(udid: string): string {
  return (
    `Start it with \`xcodebuild -project WebDriverAgent.xcodeproj -scheme WebDriverAgentRunner -destination 'platform=iOS Simulator,id=${udid}' test\` ` +
    '(in a checkout of https://github.com/appium/WebDriverAgent), or run mobilebridge with --wda-project <that folder> or --wda-runner <WebDriverAgentRunner-Runner.app> so it starts WebDriverAgent itself'
  );
}

/**
 * Makes sure a simulator's WebDriverAgent answers: if nothing answers and the user configured how,
 * starts it (once) and waits a bounded time. The started process lives until `stop`.
 */
export class SimulatorWdaStarter {
  private child: ChildProcess | undefined;
  private startedAt = 0;
  private logFile: string | undefined;
  private failure: string | undefined;

  constructor(
    private readonly udid: string,
    private readonly config: WdaStartConfig,
    private readonly simctl: Simctl,
  ) {}

  async ensure(client: WdaClient, signal?: AbortSignal): Promise<void> {
    if (await answers(client, signal)) return;
    if (!this.config.project && !this.config.runner) return; // the first WDA call reports it missing, with the fix
    if (!this.startedAt) await this.start(signal);
    const until = Date.now() + (this.config.waitMs ?? 20_000);
    while (Date.now() < until) {
      await sleep(500, signal);
      if (await answers(client, signal)) return;
      if (this.failure) {
        const why = this.failure;
        this.failure = undefined;
        this.startedAt = 0;
        throw new ToolError('UNSUPPORTED', `WebDriverAgent for simulator ${this.udid} did not start: ${why}`);
      }
    }
    const since = Math.round((Date.now() - this.startedAt) / 1000);
    throw new ToolError(
      'UNSUPPORTED',
      `WebDriverAgent for simulator ${this.udid} is still starting (${since} s so far${this.logFile ? `; log: ${this.logFile}` : ''}); call again in a moment`,
    );
  }

  stop(): void {
    this.child?.kill('SIGTERM');
    this.child = undefined;
  }

  private async start(signal?: AbortSignal): Promise<void> {
    this.startedAt = Date.now();
    if (this.config.runner) {
      const runner = this.config.runner;
      const bundleId = await bundleIdOfFile(runner).catch(() => undefined);
      if (!bundleId) throw new ToolError('INVALID_PARAMETER', `--wda-runner ${runner} is not an .app with an Info.plist; pass the WebDriverAgentRunner-Runner.app built for the simulator`);
      await this.simctl.install(this.udid, runner, signal);
      const r = await this.simctl.launch(this.udid, bundleId, signal);
      if (r.code !== 0) throw new ToolError('INTERNAL', `could not launch WebDriverAgent (${bundleId}) on simulator ${this.udid}: ${r.stderr.trim()}`);
      return;
    }
    const dir = mkdtempSync(join(tmpdir(), 'mobilebridge-wda-'));
    this.logFile = join(dir, 'xcodebuild.log');
    const log = openSync(this.logFile, 'a');
    const project = join(this.config.project!, 'WebDriverAgent.xcodeproj');
    this.child = spawn('xcodebuild', ['-project', project, '-scheme', 'WebDriverAgentRunner', '-destination', `id=${this.udid}`, 'test'], {
      stdio: ['ignore', log, log],
    });
    closeSync(log);
    this.child.on('error', (err: NodeJS.ErrnoException) => {
      this.failure = err.code === 'ENOENT' ? `xcodebuild is not on PATH; ${XCODE_FIX}` : `xcodebuild failed to start: ${err.message}`;
    });
    this.child.on('exit', (code) => {
      this.child = undefined;
      if (code !== 0) this.failure ??= `xcodebuild exited with code ${code}; see ${this.logFile}`;
    });
  }
}
