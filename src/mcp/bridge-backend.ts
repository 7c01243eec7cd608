import type { ToolDescription } from '../engine/engine.js';
import { failure, type ToolFailure } from '../engine/errors.js';
import type { DeviceInfo } from '../engine/types.js';
import type { AssertOutcome, RunOutcome, StartRecording } from '../engine/agent/agent-session.js';
import type { StopRecording } from '../engine/agent/stopped-scenario.js';
import type { VerbStep } from '../engine/verbs/index.js';
import type { AssertionRequest, RecordingSummary } from '../engine/verbs/recording-types.js';
import { isFailureResult, type BridgeClient } from '../protocol/index.js';
import { connectBridge } from '../protocol/node.js';
import { bridgeFailureMessage } from '../protocol/bridge-problems.js';
import type { ScaledShot, ScaleOptions } from '../engine/screen/scale.js';
import type { AgentBackend } from './backend.js';
import { ScaledMemo } from '../engine/screen/scaled-memo.js';
import { scaleScreenshot } from './screenshot.js';

/**
 * Drives the devices of a running bridge over its WebSocket (docs/protocol.md), so whoever
 * watches the viewer sees every action of the agent live. Verbs go through `verbs.run` and
 * assertions through `agent.assert`, which keep the recording on the bridge side.
 */
export class BridgeBackend implements AgentBackend {
  private clientName?: string;
  private notes: string[] = [];
  /** The bridge's PNG of a screen that did not change is not decoded and encoded again. */
  private readonly shots = new ScaledMemo();

  private closing = false;
  private reconnecting: Promise<BridgeClient> | undefined;

  private constructor(
    private client: BridgeClient,
    readonly where: string,
    private readonly open: () => Promise<BridgeClient>,
  ) {
    this.watch(client);
  }

  private watch(client: BridgeClient): void {
    // A reconnect says hello as mobilebridge-mcp again: the agent's own name is restored after it.
    client.onSession((e) => {
      if (!e.initial && this.clientName) void this.sayName();
    });
    client.onState((state) => {
      if (state !== 'closed' || this.closing || client !== this.client) return;
      process.stderr.write(`mobilebridge mcp: gave up reconnecting to ${this.where}; the next call connects again\n`);
    });
  }

  /**
   * The client, connected anew when it gave up reconnecting (the bridge was down longer than its
   * attempts last): the MCP server outlives a bridge restart, so calls work again once it is back.
   */
  private async live(): Promise<BridgeClient> {
    if (this.client.state !== 'closed' || this.closing) return this.client;
    this.reconnecting ??= this.open()
      .then((client) => {
        this.client = client;
        this.watch(client);
        if (this.clientName) void this.sayName();
        return client;
      })
      .finally(() => (this.reconnecting = undefined));
    return this.reconnecting;
  }

  /** Viewers of the bridge show the agent's actions under the MCP client's name ("claude-code"). */
  async identify(name: string): Promise<void> {
    this.clientName = name;
    await this.sayName();
  }

  private async sayName(): Promise<void> {
    await this.client.requestRaw('session.hello', { client: this.clientName }).catch(() => undefined);
  }

  /** Throws with what to do when the bridge cannot be reached or refuses the token. */
  static async connect(url: string, token?: string, maxAttempts = 20): Promise<BridgeBackend> {
    const open = async () => {
      try {
        return await connectBridge(url, { token, client: 'mobilebridge-mcp', reconnect: { maxAttempts } });
      } catch (err) {
        throw new Error(bridgeFailureMessage(url, err, token !== undefined));
      }
    };
    return new BridgeBackend(await open(), `the bridge at ${url}`, open);
  }

  /** A bridge-level failure ({status:'error'}) passes through; a protocol error becomes one. */
  private async request<T>(method: string, params: Record<string, unknown>, signal?: AbortSignal): Promise<T | ToolFailure> {
    try {
      return (await (await this.live()).requestRaw(method, params, signal)) as T;
    } catch (err) {
      const message = (err as Error).message;
      if (/method .* not found/i.test(message)) {
        return failure('UNSUPPORTED', `${this.where} does not offer ${method} (${message}); update the bridge to the same mobilebridge version as this MCP server`);
      }
      return failure('INTERNAL', `${method} on ${this.where} failed: ${message}; check that the bridge is still running`);
    }
  }

  async listDevices(): Promise<DeviceInfo[] | ToolFailure> {
    const r = await this.request<{ devices: DeviceInfo[]; notes?: string[] }>('devices.list', {});
    if (isFailureResult(r)) return r;
    this.notes = r.notes ?? [];
    return r.devices;
  }

  /** The bridge's notes from the last listing (its sources that did not answer). */
  sourceProblems(): string[] {
    return this.notes;
  }

  async engineTools(): Promise<ToolDescription[] | ToolFailure> {
    const r = await this.request<{ tools: ToolDescription[] }>('tools.list', {});
    return isFailureResult(r) ? r : r.tools;
  }

  /** `signal`: the MCP client cancelled; the bridge is asked to cancel the call (requests.cancel). */
  callTool(tool: string, parameters: Record<string, unknown>, signal?: AbortSignal): Promise<unknown> {
    return this.request('tools.call', { tool, parameters }, signal);
  }

  /** The bridge sends the full PNG of mobile_take_screenshot; it is scaled here (one decode, one encode). */
  async screenshot(device: string, options: ScaleOptions, signal?: AbortSignal): Promise<ScaledShot | ToolFailure> {
    const shot = await this.callTool('mobile_take_screenshot', { device }, signal);
    if (isFailureResult(shot)) return shot;
    try {
      return await scaleScreenshot(Buffer.from((shot as { image: string }).image, 'base64'), options, this.shots);
    } catch (err) {
      return failure('INTERNAL', `scaling the screenshot of ${device} from ${this.where} failed: ${(err as Error).message}`);
    }
  }

  /** `signal`: the MCP client cancelled; the bridge stops the verb where it waits (requests.cancel). */
  runVerb(device: string, step: VerbStep, signal?: AbortSignal): Promise<RunOutcome | ToolFailure> {
    return this.request('verbs.run', { device, step }, signal);
  }

  /** `signal`: the bridge is asked to cancel (requests.cancel): the assertion is then not recorded, the start starts nothing. */
  assert(device: string, assertion: AssertionRequest, signal?: AbortSignal): Promise<AssertOutcome | ToolFailure> {
    return this.request('agent.assert', { device, assertion }, signal);
  }

  startRecording(request: StartRecording, signal?: AbortSignal): Promise<{ recording: RecordingSummary } | ToolFailure> {
    return this.request('recording.start', { ...request }, signal);
  }

  stopRecording(device: string): Promise<StopRecording | ToolFailure> {
    return this.request('recording.stop', { device });
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.client.close();
  }
}
