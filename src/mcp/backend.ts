import type { Engine, ToolDescription } from '../engine/engine.js';
import { failure, toFailure, type ToolFailure } from '../engine/errors.js';
import type { DeviceInfo } from '../engine/types.js';
import { AgentSession, type AssertOutcome, type RunOutcome, type StartRecording } from '../engine/agent/agent-session.js';
import type { StopRecording } from '../engine/agent/stopped-scenario.js';
import { VerbError, type VerbStep } from '../engine/verbs/index.js';
import type { AssertionRequest, RecordingSummary } from '../engine/verbs/recording-types.js';
import { fitFor, type ScaledShot, type ScaleOptions } from '../engine/screen/scale.js';
import { ScaledMemo } from '../engine/screen/scaled-memo.js';
import { liveBaseline } from '../engine/agent/live-assertion.js';

/**
 * What the MCP server drives: an engine in this process (`LocalBackend`) or a running bridge
 * (`BridgeBackend`). Every method answers with a result or a ToolFailure; none throws for a
 * device-side problem.
 */
export interface AgentBackend {
  /** Where the actions happen, for messages ("this process", "the bridge at ws://…"). */
  readonly where: string;
  listDevices(): Promise<DeviceInfo[] | ToolFailure>;
  /** Why devices may be missing from the last listing (a source that did not answer), when the backend knows. */
  sourceProblems?(): string[];
  engineTools(): Promise<readonly ToolDescription[] | ToolFailure>;
  /** `signal`: the MCP client cancelled; a call still queued never runs, a running one is told to stop. */
  callTool(tool: string, parameters: Record<string, unknown>, signal?: AbortSignal): Promise<unknown>;
  /** The screen scaled for an agent (SPEC §2 pixels; `max_size` never exceeded). `signal`: as callTool's. */
  screenshot(device: string, options: ScaleOptions, signal?: AbortSignal): Promise<ScaledShot | ToolFailure>;
  /** `signal`: the caller gave up (MCP cancellation, the client went away); the verb stops where it waits. */
  runVerb(device: string, step: VerbStep & { capture_to?: string }, signal?: AbortSignal): Promise<RunOutcome | ToolFailure>;
  /** `signal`: the MCP client cancelled; an assertion it gave up on is not recorded, a start starts nothing. */
  assert(device: string, request: AssertionRequest, signal?: AbortSignal): Promise<AssertOutcome | ToolFailure>;
  startRecording(request: StartRecording, signal?: AbortSignal): Promise<{ recording: RecordingSummary } | ToolFailure>;
  /** A stop whose answer was lost (the call was cancelled) is answered again, with `repeated: true`. */
  stopRecording(device: string): Promise<StopRecording | ToolFailure>;
  /** The baseline file a live screenshot_match recorded for `reference`, when it is in this process (to save it with the scenario). */
  liveBaseline?(reference: string): string | undefined;
  /** The MCP client's own name (from `initialize`), for whoever watches its actions. */
  identify?(client: string): Promise<void>;
  close(): Promise<void>;
}

/** The origin MCP calls carry in activity events and recordings. */
export const MCP_ORIGIN = 'mcp';

export function verbFailure(err: unknown): ToolFailure {
  if (err instanceof VerbError) {
    const code = err.code === 'NEEDS_MANUAL' || err.code === 'CANCELLED' ? 'UNSUPPORTED' : err.code;
    return failure(code, err.message);
  }
  return failure('INTERNAL', err instanceof Error ? err.message : String(err));
}

async function guarded<T>(work: () => Promise<T>): Promise<T | ToolFailure> {
  try {
    return await work();
  } catch (err) {
    return verbFailure(err);
  }
}

/** Devices opened by this process. `close()` closes the engine. */
export class LocalBackend implements AgentBackend {
  readonly where = 'this process';
  readonly agent: AgentSession;
  /** Screenshots of a screen that did not change are not decoded and encoded again. */
  readonly shots = new ScaledMemo();

  constructor(
    readonly engine: Engine,
    options: ConstructorParameters<typeof AgentSession>[2] = {},
  ) {
    this.agent = new AgentSession(engine, MCP_ORIGIN, options);
  }

  async listDevices(): Promise<DeviceInfo[]> {
    return this.engine.listDevices();
  }

  sourceProblems(): string[] {
    return this.engine.sourceProblems();
  }

  async engineTools(): Promise<readonly ToolDescription[] | ToolFailure> {
    return this.engine.listTools();
  }

  callTool(tool: string, parameters: Record<string, unknown>, signal?: AbortSignal): Promise<unknown> {
    // No await before engine.call: the listing must reach the device queue ahead of the tap.
    this.agent.listBeforePointTool(tool, parameters.device);
    return this.engine.call(tool, parameters, { origin: MCP_ORIGIN, signal });
  }

  /**
   * Captured in the device's queue as raw pixels (shrunk on the way where the driver can) or the
   * device's own PNG, then scaled and encoded once outside it, so the next action on the device
   * need not wait for the encoder.
   */
  screenshot(device: string, options: ScaleOptions, signal?: AbortSignal): Promise<ScaledShot | ToolFailure> {
    return this.engine
      .captureFitted(device, fitFor(options), { origin: MCP_ORIGIN, signal })
      // A kept viewer capture lends a pooled pixel slot: give it back once encoded.
      .then((cap) => this.shots.scale(cap, options).finally(() => 'raw' in cap && cap.raw?.release?.()))
      .catch((err: unknown) => toFailure(err));
  }

  runVerb(device: string, step: VerbStep, signal?: AbortSignal): Promise<RunOutcome> {
    return this.agent.run(device, step, signal);
  }

  assert(device: string, request: AssertionRequest, signal?: AbortSignal): Promise<AssertOutcome | ToolFailure> {
    return guarded(() => this.agent.assert(device, request, signal));
  }

  startRecording(request: StartRecording, signal?: AbortSignal): Promise<{ recording: RecordingSummary } | ToolFailure> {
    return guarded(async () => ({ recording: await this.agent.startRecording(request, { signal }) }));
  }

  stopRecording(device: string): Promise<StopRecording | ToolFailure> {
    return guarded(() => this.agent.stopRecording(device));
  }

  liveBaseline(reference: string): string | undefined {
    return liveBaseline(reference);
  }

  async close(): Promise<void> {
    this.agent.close();
    await this.engine.close();
  }
}
