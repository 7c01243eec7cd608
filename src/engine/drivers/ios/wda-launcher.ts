import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, closeSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { ToolError } from '../../errors.js';
import { freePort } from './free-port.js';
import { sleep } from '../../deadline.js';
import { bundleIdOfFile } from './installed-bundle.js';
import { XCODE_FIX, type Simctl, type SimulatorInfo } from './simctl.js';
import type { WdaClient } from './wda-client.js';
import type { WdaEndpoint } from './wda-endpoint.js';
import { judgeWda, wdaFacts, type WdaOwner } from './wda-identity.js';

export interface WdaStartConfig {
  /** A WebDriverAgent checkout (folder holding WebDriverAgent.xcodeproj): built and run with xcodebuild. */
  project?: string;
  /** A prebuilt WebDriverAgentRunner-Runner.app for the simulator: installed and launched with simctl. */
  runner?: string;
  /** How long one call waits for a starting WDA before saying it is still starting. */
  waitMs?: number;
}

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

/** What the starter needs to know about its simulator and the others. */
export interface SimulatorWdaContext {
  sim: SimulatorInfo;
  /** The URL was given for this simulator alone (engine option wdaUrls): what answers there is its own. */
  dedicated: boolean;
  /** The booted simulators (simctl), to tell whose WebDriverAgent answers a shared URL. */
  booted: (signal?: AbortSignal) => Promise<SimulatorInfo[]>;
  clientFor: (url: string) => WdaClient;
}

/**
 * Makes sure this simulator's own WebDriverAgent answers. Something answering is not enough: several
 * booted simulators share the default URL, and another simulator's WDA there would take this one's taps.
 * If nothing answers and the user configured how, WDA is started (once) and waited for a bounded time;
 * if another simulator's answers, one is started for this simulator on free ports of its own
 * (USE_PORT / MJPEG_SERVER_PORT, read by FBConfiguration.m), or, without a way to start one, the call
 * is refused with what to configure. The started process lives until `stop`.
 */
export class SimulatorWdaStarter {
  private child: ChildProcess | undefined;
  private startedAt = 0;
  private logFile: string | undefined;
  private failure: string | undefined;
  /** The MJPEG port of a WDA started on ports of its own. */
  ownMjpegPort: number | undefined;

  constructor(
    private readonly target: SimulatorWdaContext,
    private readonly config: WdaStartConfig,
    private readonly simctl: Simctl,
  ) {}

  private get udid(): string {
    return this.target.sim.id;
  }

  private get canStart(): boolean {
    return Boolean(this.config.project || this.config.runner);
  }

  async ensure(endpoint: WdaEndpoint, signal?: AbortSignal): Promise<void> {
    if (await answers(endpoint.client, signal)) {
      // A URL given for this simulator alone, or the WDA started for it on its own port, is its own.
      if (this.target.dedicated || this.ownMjpegPort) return;
      const owner = judgeWda(await wdaFacts(endpoint.client, signal), this.target.sim, await this.target.booted(signal));
      if (owner.verdict === 'ours') return;
      if (!this.canStart) throw this.notOurs(endpoint.client.baseUrl, owner);
      // Another simulator's WDA holds the shared URL: this simulator gets one of its own, on its own ports.
      endpoint.use(this.target.clientFor(`http://127.0.0.1:${await freePort()}`));
      this.ownMjpegPort = await freePort();
    } else if (!this.canStart) {
      return; // the first WDA call reports it missing, with the fix
    }
    const client = endpoint.client;
    if (!this.startedAt) await this.start(Number(new URL(client.baseUrl).port), signal);
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

  private notOurs(url: string, owner: Exclude<WdaOwner, { verdict: 'ours' }>): ToolError {
    const sim = `simulator ${this.target.sim.model} (${this.udid})`;
    const what =
      owner.verdict === 'other'
        ? `the WebDriverAgent at ${url} belongs to ${owner.whose}, not to ${sim}; using it would act on that device instead`
        : `the WebDriverAgent at ${url} cannot be told to be ${sim}'s: it could be that of ${owner.candidates} (WebDriverAgent reports no UDID)`;
    return new ToolError(
      'UNSUPPORTED',
      `${what}. Give each simulator its own WebDriverAgent: start one for ${this.udid} on another port (USE_PORT=8101 MJPEG_SERVER_PORT=9101 xcodebuild … -destination 'platform=iOS Simulator,id=${this.udid}' test) ` +
        `and pass its URL with --wda-url ${this.udid}=http://127.0.0.1:8101 (--mjpeg-url ${this.udid}=… for video; engine option wdaUrls), or run mobilebridge with --wda-project or --wda-runner so it starts one for each simulator on its own port`,
    );
  }

  /** Starts WDA listening on `port` (USE_PORT), and its MJPEG server on the own MJPEG port when there is one. */
  private async start(port: number, signal?: AbortSignal): Promise<void> {
    this.startedAt = Date.now();
    const env: Record<string, string> = { USE_PORT: String(port) };
    if (this.ownMjpegPort) env.MJPEG_SERVER_PORT = String(this.ownMjpegPort);
    if (this.config.runner) {
      const runner = this.config.runner;
      const bundleId = await bundleIdOfFile(runner).catch(() => undefined);
      if (!bundleId) throw new ToolError('INVALID_PARAMETER', `--wda-runner ${runner} is not an .app with an Info.plist; pass the WebDriverAgentRunner-Runner.app built for the simulator`);
      await this.simctl.install(this.udid, runner, signal);
      // `simctl launch` hands SIMCTL_CHILD_<name> variables to the launched app as <name>.
      const childEnv = Object.fromEntries(Object.entries(env).map(([k, v]) => [`SIMCTL_CHILD_${k}`, v]));
      const r = await this.simctl.launch(this.udid, bundleId, signal, childEnv);
      if (r.code !== 0) throw new ToolError('INTERNAL', `could not launch WebDriverAgent (${bundleId}) on simulator ${this.udid}: ${r.stderr.trim()}`);
      return;
    }
    const dir = mkdtempSync(join(tmpdir(), 'mobilebridge-wda-'));
    this.logFile = join(dir, 'xcodebuild.log');
    const log = openSync(this.logFile, 'a');
    const project = join(this.config.project!, 'WebDriverAgent.xcodeproj');
    // The WebDriverAgentRunner scheme passes $(USE_PORT) and $(MJPEG_SERVER_PORT) from xcodebuild's environment to the runner.
    this.child = spawn('xcodebuild', ['-project', project, '-scheme', 'WebDriverAgentRunner', '-destination', `id=${this.udid}`, 'test'], {
      stdio: ['ignore', log, log],
      env: { ...process.env, ...env },
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
