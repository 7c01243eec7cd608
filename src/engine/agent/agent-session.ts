import type { Engine } from '../engine.js';
import { applyPreconditions } from '../verbs/preconditions.js';
import { runVerb, verbContext, type VerbSessionOptions } from '../verbs/index.js';
import { evaluateLive, parseAssertion, watchHistory, type LiveAssertionResult, type LiveHistory } from './live-assertion.js';
import { RawCallFeed } from './raw-call-feed.js';
import { stoppedScenario, type StopRecording } from './stopped-scenario.js';
import { Recorder } from '../verbs/recording.js';
import type { AppState, AssertionRequest, RecordingOptions, RecordingSummary } from '../verbs/recording-types.js';
import { VerbError, type VerbContext, type VerbOutcome, type VerbStep } from '../verbs/types.js';
import { canonicalStep } from '../verbs/canonical-step.js';
import type { VariableValue } from '../runner/variables.js';
import type { RecordingStore } from '../verbs/recording-store.js';

/**
 * One agent's live session on an engine: runs verbs and assertions on devices, and records them
 * into scenarios when asked. The MCP server (local engine) and the bridge (one per WebSocket
 * session) each hold one, so recording behaves the same over both transports. Engine calls
 * carry `origin`; raw tool calls with that origin feed the recording too.
 */

export interface AgentSessionOptions extends Omit<VerbSessionOptions, 'engine' | 'device' | 'appPackage'> {
  /** How long a failing assertion is looked at again while the screen settles (ms, default 1000). */
  settleMs?: number;
  /** Where recordings are kept as they grow, to survive a crash or restart (issue 16). */
  store?: RecordingStore;
}

export interface StartRecording {
  device: string;
  name: string;
  description?: string;
  app_package?: string;
  /** fresh_install / logged_out: the app's data is cleared now, and again before every replay. */
  app_state?: AppState;
  environment?: string;
}

export interface RunOutcome extends VerbOutcome {
  /** Step ids the recording wrote for this verb (absent when not recording). */
  recorded?: string[];
}

export interface AssertOutcome extends LiveAssertionResult {
  recorded?: { id?: string; reason?: string };
}

/** A recording nobody holds (its session or process ended without stopping it), as a user is told of it. */
export interface OrphanedRecording extends RecordingSummary {
  started_at: string;
  /** The bridge session that started it, when it was one. */
  started_by?: { session: string; client?: string };
  /** Who left it: "a session of this process that ended", "process 4711, which has ended", … */
  left_by: string;
}

interface DeviceState {
  ctx: VerbContext;
  history: LiveHistory;
  busy: number;
  /** What read_text save_as (capture_value capture_to) read, since the device's recording started: a live check compares with it as the replay will. */
  captured: Record<string, VariableValue>;
}

/** A recording as a refusal names it: its name and how much it holds. */
function recordingWords({ name, steps, assertions }: RecordingSummary): string {
  return `${JSON.stringify(name)}, ${steps} step${steps === 1 ? '' : 's'} and ${assertions} assertion${assertions === 1 ? '' : 's'} so far`;
}

export class AgentSession {
  private readonly devices = new Map<string, DeviceState>();
  private readonly recorders = new Map<string, Recorder>();
  /** Each device's last stop answer: the only copy of its scenario, given again to a repeated stop. */
  private readonly stopped = new Map<string, StopRecording>();
  /** Stops still under way: a stop asked again meanwhile (its first answer was never seen) waits for the same answer. */
  private readonly stopping = new Map<string, Promise<StopRecording>>();
  private readonly feed: RawCallFeed;
  private readonly off: () => void;

  constructor(
    readonly engine: Engine,
    readonly origin: string,
    private readonly options: AgentSessionOptions = {},
  ) {
    this.feed = new RawCallFeed(engine, origin, this.recorders, (device) => Boolean(this.devices.get(device)?.busy), (device) => this.persist(device));
    this.off = engine.onCall((e) => this.feed.onCall(e));
  }

  close(): void {
    this.off();
    for (const device of this.recorders.keys()) this.options.store?.release(device);
  }

  /**
   * Takes over recordings left on disk by an ended session or an earlier process, so status and
   * stop find them after a restart: every device's, or only `device`'s.
   */
  async recoverRecordings(device?: string): Promise<void> {
    const store = this.options.store;
    if (!store) return;
    for (const orphaned of device === undefined ? await store.orphans() : [device]) {
      if (this.recorders.has(orphaned)) continue;
      const recorder = await store.adopt(orphaned);
      if (recorder) this.take(orphaned, recorder);
    }
  }

  /** The recordings nobody holds, each with who started and who left it; nothing is adopted. */
  async orphanedRecordings(): Promise<OrphanedRecording[]> {
    const store = this.options.store;
    const found: OrphanedRecording[] = [];
    for (const device of (await store?.orphans()) ?? []) {
      const orphan = !this.recorders.has(device) && (await store!.orphan(device));
      if (!orphan) continue;
      const { startedAt, startedBy } = orphan.recorder.options;
      found.push({ ...orphan.recorder.summary(), started_at: (startedAt ?? new Date()).toISOString(), ...(startedBy ? { started_by: startedBy } : {}), left_by: orphan.leftBy });
    }
    return found;
  }

  /** Continues the recording an ended session or process left on `device`: it is this session's from now on. Throws VerbError. */
  async adoptRecording(device: string): Promise<RecordingSummary> {
    if (this.recorders.has(device)) throw new VerbError('INVALID_PARAMETER', `this session is recording ${device} already; nothing was adopted`);
    const recorder = await this.options.store?.adopt(device);
    if (!recorder) {
      // Another session's or live process's recording is named, rather than "none".
      await this.options.store?.ensureFree(device);
      throw new VerbError('INVALID_PARAMETER', `no recording left by an ended session or process is open on ${device}; start one with recording_start / recording.start`);
    }
    this.take(device, recorder);
    return recorder.summary();
  }

  /** A recording adopted: what this session read before is not what the recording's replay reads. */
  private take(device: string, recorder: Recorder): void {
    this.recorders.set(device, recorder);
    const state = this.devices.get(device);
    if (state) state.captured = {};
  }

  /** Deletes the recording an ended session or process left on `device`, and says what it held. Throws VerbError. */
  async discardRecording(device: string): Promise<RecordingSummary> {
    if (this.recorders.has(device)) throw new VerbError('INVALID_PARAMETER', `the recording of ${device} is this session's own; stop it (recording_stop / recording.stop) to end it`);
    if (!this.options.store) throw new VerbError('INVALID_PARAMETER', `no recording left by an ended session is open on ${device}: recordings are kept in memory only here, and go with their session`);
    return (await this.options.store.discard(device)).summary();
  }

  private persist(device: string): void {
    const recorder = this.recorders.get(device);
    if (recorder) void this.options.store?.save(recorder);
  }

  isRecording(device: string): boolean {
    return this.recorders.has(device);
  }

  /** Before a raw point tool while recording: a listing of the screen the tap will hit (RawCallFeed.listBeforePointTool). */
  listBeforePointTool(tool: string, device: unknown, evenIfListed = false): void {
    this.feed.listBeforePointTool(tool, device, evenIfListed);
  }

  recordings(): RecordingSummary[] {
    return [...this.recorders.values()].map((r) => r.summary());
  }

  /** Runs one scenario step live; never throws. `signal` stops it where it waits (its caller gave up). */
  async run(device: string, given: VerbStep & { capture_to?: string }, signal?: AbortSignal): Promise<RunOutcome> {
    // Agents and viewers do not keep to the case; the step is run and recorded in the scenario's.
    const step = canonicalStep(given);
    let state: DeviceState;
    try {
      state = await this.state(device);
    } catch (err) {
      const e = err as VerbError;
      return { status: 'error', action: step.action, resolved: null, duration_ms: 0, message: e.message, error: { code: e.code, message: e.message } };
    }
    const { ctx, history } = watchHistory(signal ? { ...state.ctx, signal } : state.ctx);
    ctx.partOf = step.action;
    state.busy++;
    let outcome: RunOutcome;
    try {
      outcome = await runVerb(ctx, step);
    } finally {
      state.busy--;
    }
    state.history = history;
    // Kept as the scenario declares it (type string): the text as read.
    if (outcome.status === 'passed' && step.action === 'capture_value' && step.capture_to) state.captured[step.capture_to] = outcome.value ?? '';
    const recorder = this.recorders.get(device);
    if (recorder) {
      outcome.recorded = recorder.noteVerb(step, outcome);
      this.persist(device);
    }
    return outcome;
  }

  /** Evaluates an assertion now; records it when it passed and a recording runs. Throws VerbError. */
  async assert(device: string, request: AssertionRequest, signal?: AbortSignal): Promise<AssertOutcome> {
    const assertion = parseAssertion(request);
    const state = await this.state(device);
    state.busy++;
    let result: AssertOutcome | undefined;
    try {
      // The signal reaches the looks and the waits between them: a `timeout_ms` check its caller gave
      // up on would otherwise go on looking at the device for up to a minute.
      result = await evaluateLive(signal ? { ...state.ctx, signal } : state.ctx, assertion, state.history, this.options.settleMs ?? 1000, undefined, this.variables(device, state));
    } catch (err) {
      // A look or wait cut short by the cancel throws whatever it was doing; the cancel is the news.
      if (!signal?.aborted) throw err;
    } finally {
      state.busy--;
    }
    // A caller that gave up gets no answer: what it never saw passing is not recorded either.
    if (signal?.aborted || !result) throw new VerbError('CANCELLED', `the assertion on ${device} was cancelled by its caller; it was not recorded`);
    const recorder = this.recorders.get(device);
    if (recorder) {
      result.recorded = recorder.noteAssertion(request, result.status === 'passed');
      this.persist(device);
    }
    return result;
  }

  /**
   * Throws VerbError: unknown device, a recording already running, a failed starting state. A
   * recording left on the device by an ended session or process is adopted (and the start refused),
   * unless `adopt` is false: then the start is refused and the recording left where it is.
   */
  async startRecording(req: StartRecording, { adopt = true, startedBy, signal }: { adopt?: boolean; startedBy?: RecordingOptions['startedBy']; signal?: AbortSignal } = {}): Promise<RecordingSummary> {
    // A start its caller gave up on starts nothing: its retry would find "a recording is already running".
    const cancelled = (done: string) => {
      if (signal?.aborted) throw new VerbError('CANCELLED', `recording_start on ${req.device} was cancelled by its caller; ${done}no recording was started`);
    };
    cancelled('');
    const own = this.recorders.get(req.device);
    if (own) throw new VerbError('INVALID_PARAMETER', `this session is recording ${req.device} already (${recordingWords(own.summary())}); stop it (recording_stop / recording.stop) before starting another`);
    const leftOver = adopt ? await this.options.store?.orphan(req.device) : undefined;
    if (adopt) await this.recoverRecordings(req.device);
    const adopted = this.recorders.get(req.device);
    if (adopted) {
      // The caller would otherwise take it for its own, unaware that what it does now extends an
      // earlier recording and that the name it gave was not used.
      throw new VerbError(
        'INVALID_PARAMETER',
        `a recording of ${req.device} left by ${leftOver?.leftBy ?? 'an ended session or process'} was open on it (${recordingWords(adopted.summary())}): it is this session's now and goes on, so what you do on ${req.device} is added to it, and ${JSON.stringify(req.name)} was not started. ` +
          'Call recording_stop (recording.stop) for its scenario, with what was recorded before, then recording_start (recording.start) again to begin a new one; or carry on and stop it when done',
      );
    }
    const state = await this.state(req.device);
    if ((req.app_state === 'fresh_install' || req.app_state === 'logged_out') && !req.app_package) {
      throw new VerbError('INVALID_PARAMETER', `app_state ${req.app_state} needs app_package: the app whose data is cleared`);
    }
    // Before anything happens on the device: another session's or process's recording there refuses this one.
    await this.options.store?.ensureFree(req.device);
    const left = adopt ? undefined : await this.options.store?.orphan(req.device);
    if (left) {
      const { name, steps } = left.recorder.summary();
      throw new VerbError('INVALID_PARAMETER', `a recording of ${req.device} (${JSON.stringify(name)}, ${steps} step${steps === 1 ? '' : 's'}) left by ${left.leftBy} is open on it; continue it (recording.adopt) or discard it (recording.discard) before starting another`);
    }
    if (req.app_state) {
      state.busy++;
      let manual: string[];
      try {
        ({ manual } = await applyPreconditions(state.ctx, { app_state: req.app_state }, req.app_package ?? ''));
      } finally {
        state.busy--;
      }
      // A state that was not set must not be claimed, nor kept as a precondition every replay
      // would stop on: the agent sets it by hand and records without it.
      if (manual.length) {
        throw new VerbError(
          'UNSUPPORTED',
          `app_state ${req.app_state} cannot be set up on ${req.device}: ${manual.join('; ')}; no recording was started. ` +
            `${req.app_state === 'logged_out' ? `Sign out of ${req.app_package}` : `Uninstall and reinstall ${req.app_package}`} by hand (or ask the user to), then call recording_start / recording.start again without app_state`,
        );
      }
    }
    cancelled(req.app_state ? `app_state ${req.app_state} was set up, but ` : '');
    const recorder = new Recorder({
      device: req.device,
      os: state.ctx.os,
      name: req.name,
      description: req.description,
      appPackage: req.app_package,
      appState: req.app_state,
      environment: req.environment,
      startedAt: new Date(),
      ...(startedBy ? { startedBy } : {}),
    });
    // Kept only once its device is claimed: a start that lost a race leaves no recorder behind.
    await this.options.store?.save(recorder);
    this.recorders.set(req.device, recorder);
    this.stopped.delete(req.device);
    state.captured = {};
    return recorder.summary();
  }

  /** Ends the recording and returns the scenario with its validation report. Throws VerbError. */
  async stopRecording(device: string): Promise<StopRecording> {
    const pending = this.stopping.get(device);
    if (pending) return { ...(await pending), repeated: true };
    const work = this.stopNow(device);
    this.stopping.set(device, work);
    try {
      return await work;
    } finally {
      this.stopping.delete(device);
    }
  }

  private async stopNow(device: string): Promise<StopRecording> {
    await this.recoverRecordings(device);
    const recorder = this.recorders.get(device);
    const last = this.stopped.get(device);
    if (!recorder && last) return { ...last, repeated: true };
    if (!recorder) {
      // Another session or process recording this device is named, rather than "no recording".
      await this.options.store?.ensureFree(device);
      const running = [...this.recorders.keys()];
      throw new VerbError('INVALID_PARAMETER', `no recording is running on ${device}${running.length ? `; recordings run on: ${running.join(', ')}` : '; start one with recording_start / recording.start'}`);
    }
    this.recorders.delete(device);
    await this.options.store?.remove(device);
    const state = await this.state(device).catch(() => undefined);
    const result = await stoppedScenario(device, recorder, state?.ctx);
    this.stopped.set(device, result);
    return result;
  }

  /**
   * The variables a replay would hold now: while recording, those the recording declares (a value
   * read before it started, or by an ended session, is not the replay's: null); else all the session read.
   */
  private variables(device: string, state: DeviceState): Record<string, VariableValue> {
    const recorder = this.recorders.get(device);
    if (!recorder) return { ...state.captured };
    return Object.fromEntries(Object.keys(recorder.snapshot().variables).map((name) => [name, state.captured[name] ?? null]));
  }

  private async state(device: string): Promise<DeviceState> {
    let state = this.devices.get(device);
    if (!state) {
      const ctx = await verbContext({ ...this.options, engine: this.engine, device, origin: this.origin });
      state = { ctx, history: { toasts: [] }, busy: 0, captured: {} };
      this.devices.set(device, state);
    }
    return state;
  }
}
