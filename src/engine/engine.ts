import * as v from 'valibot';
import { AllowedPaths } from './allowed-paths.js';
import { CallReports } from './call-reports.js';
import { withDeadline } from './deadline.js';
import { DeviceIds, type DeviceLookup, type DeviceOwner } from './device-ids.js';
import { DeviceHandles } from './device-handles.js';
import { DeviceHealth } from './device-health.js';
import type { DeviceHold } from './device-hold.js';
import { DeviceScheduler, type TurnOptions } from './device-scheduler.js';
import { ListedElements } from './listed-elements.js';
import { type CallContext, type DeviceHandle, type Driver, type DevicesChange, type FitSize, noteLine, type SourceNote } from './driver.js';
import { CallCancelled, deviceNotFoundMessage, failure, isToolFailure, toFailure, ToolError, type ToolFailure } from './errors.js';
import { cancelledFailure } from './cancel-watch.js';
import type { ToolContext } from './tools/define.js';
import { callName, describeIssues } from './tools/params.js';
import { asMeant } from './tools/lenient.js';
import { captureFitted, captureScreen, type FittedCapture, type ScreenCapture } from './screen/capture.js';
import { LatestCaptures } from './screen/latest-capture.js';
import { type ToolDescription, toolDescriptions } from './tools/descriptions.js';
import { findTool, TOOL_NAMES } from './tools/index.js';
import { TouchStreams, type TouchResult } from './touch-streams.js';
import { keyPress, pressOn } from './key-press.js';
import type { CtrlLetter, DeviceInfo, Key, KeyModifier, Point, TouchPhase } from './types.js';
import type { CallEvent, CallOptions, EngineOptions } from './engine-options.js';

export type { CallEvent, CallOptions, EngineOptions } from './engine-options.js';
export type { ToolDescription } from './tools/descriptions.js';
export type { DeviceLookup } from './device-ids.js';

/** A touch event or key is one quick injection: a device that takes longer is stuck, not busy. */
const TOUCH_TIMEOUT_MS = 5000;

/**
 * The transport-independent core: validates parameters, finds the device, runs the
 * tool under a deadline with calls on one device serialized, and always answers with
 * a result or a ToolFailure (never throws).
 */
export class Engine {
  readonly allowedPaths: AllowedPaths;
  /** The frame loop's newest capture per device, reused for screenshots while nothing changed (issue 18). */
  readonly latestCaptures = new LatestCaptures();
  private readonly drivers: Driver[];
  private readonly timeoutMs: number;
  private readonly listTimeoutMs: number;
  private readonly health = new DeviceHealth();
  /** How the callers of this engine are named in messages (set by a bridge: its sessions and their clients). */
  private callerName?: (origin: string | undefined) => string | undefined;
  private readonly scheduler = new DeviceScheduler(this.health, (origin) => {
    const named = this.callerName?.(origin);
    if (named) return named;
    if (origin === undefined) return 'an unnamed caller';
    return origin === 'mcp' ? 'the MCP client' : `caller ${origin}`;
  });
  private readonly handles: DeviceHandles;
  private readonly listed = new ListedElements();
  private readonly reports = new CallReports((id) => this.ids.listedId(id));
  private readonly unwatch: (() => void)[] = [];
  private readonly deviceListeners = new Set<(c: DevicesChange) => void>();
  /** Who reports which device id, and the id each is listed by (peers' clashing ids become id@peer). */
  readonly ids: DeviceIds;
  private firstListing: Promise<unknown> | undefined;
  private readonly touches = new TouchStreams({
    run: (device, what, work, longerMs = 0) => this.withDevice(device, what, work, TOUCH_TIMEOUT_MS + longerMs),
    screenSize: (device, handle, ctx) => this.handles.screenSize(device, handle, ctx.signal),
    finished: (e) => this.reports.acted(e.device, 'input.touch', e.parameters, e.result, { origin: e.origin }, e.durationMs),
  });

  constructor(options: EngineOptions) {
    this.drivers = options.drivers;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    // --timeout bounds a listing too; drivers give each device a shorter deadline of its own.
    this.listTimeoutMs = options.listTimeoutMs ?? Math.min(10_000, this.timeoutMs);
    this.allowedPaths = new AllowedPaths(options.allowPaths);
    this.ids = new DeviceIds(this.drivers);
    this.handles = new DeviceHandles(this.drivers, async () => ({ ids: (await this.listDevices()).map((d) => d.id), problems: this.sourceProblems() }));
    for (const driver of options.watchDevices === false ? [] : this.drivers) {
      const off = driver.watch?.((change) => {
        const publish = () => {
          const shown = this.ids.changed(driver, change);
          for (const id of shown.removed) this.forget(id);
          for (const l of this.deviceListeners) l(shown);
        };
        // A peer's devices are named after what the bridge's own drivers list: known after one listing.
        if (driver.renameOnClash) void this.listedOnce().then(publish);
        else publish();
      });
      if (off) this.unwatch.push(off);
    }
  }

  /**
   * Which driver answers for a listed id, and its own id there (`virtual-android-1@lab` is the
   * peer lab's `virtual-android-1`); `ambiguous` for a bare id that only peers report.
   */
  async ownerOf(id: string): Promise<DeviceOwner | undefined> {
    await this.listedOnce();
    return this.ids.owner(id);
  }

  private listedOnce(): Promise<unknown> {
    return (this.firstListing ??= this.listDevices().catch(() => undefined));
  }

  listTools(): readonly ToolDescription[] {
    return toolDescriptions();
  }

  /**
   * Devices of every driver; a driver that fails or is slow is left out rather than failing the
   * list. A peer's device whose id another driver reports too is listed as `id@peer` (SPEC §10).
   */
  async listDevices(): Promise<DeviceInfo[]> {
    const lists = await Promise.all(
      this.drivers.map((d) =>
        withDeadline(this.listTimeoutMs, `listing ${d.name} devices`, (signal) => d.listDevices({ signal }))
          .then((list) => {
            this.ids.listed(d, list.map((info) => info.id));
            return list.map((info) => (info.source ? info : { ...info, source: d.name }));
          })
          .catch(() => []),
      ),
    );
    const devices = lists.flatMap((list, i) => list.map((info) => ({ ...info, id: this.ids.publicId(this.drivers[i], info.id) })));
    return this.health.decorate(devices);
  }

  /** A fresh listing with lookups that resolve ids as calls do (`serial@source` of a device listed bare included). */
  async lookupDevices(): Promise<DeviceLookup> {
    return this.ids.lookup(await this.listDevices());
  }

  /** Why devices may be missing from the last listing (sources that did not answer), per source. */
  sourceNotes(): SourceNote[] {
    return this.drivers.flatMap((d) => d.problems?.() ?? []);
  }

  /** The same, one line each, as devices.list and list_devices give them. */
  sourceProblems(): string[] {
    return this.sourceNotes().map(noteLine);
  }

  /** DEVICE_NOT_FOUND's message for `id` among `devices` (a listing), naming the sources that did not answer. */
  deviceNotFoundMessage(id: string, devices: readonly DeviceInfo[]): string {
    return deviceNotFoundMessage(id, devices.map((d) => d.id), this.sourceProblems());
  }

  async call(tool: string, parameters: unknown, options: CallOptions = {}): Promise<unknown> {
    const started = performance.now();
    const def = findTool(tool);
    if (!def) {
      return failure('INVALID_PARAMETER', `unknown tool ${JSON.stringify(tool)}; available tools: ${TOOL_NAMES.join(', ')}`);
    }
    const given = parameters ?? {};
    if (typeof given !== 'object' || Array.isArray(given)) {
      return failure('INVALID_PARAMETER', `${tool}: parameters must be a JSON object such as {"device": "virtual-android-1"}, not ${Array.isArray(given) ? 'an array' : typeof given}`);
    }
    const meant = asMeant(def.params, given as Record<string, unknown>);
    const parsed = v.safeParse(def.params, meant);
    if (!parsed.success) return failure('INVALID_PARAMETER', `${callName(tool, meant.device)}: ${describeIssues(parsed.issues)}`);
    const input = parsed.output as Record<string, unknown>;

    if ('global' in def) {
      try {
        return await def.handler(input, { listDevices: () => this.listDevices() });
      } catch (err) {
        return toFailure(err);
      }
    }

    // One phone, one queue, one activity record, whichever of its names the caller used (`serial@lab` of `serial`).
    const deviceId = this.ids.listedId(input.device as string);
    const result = await this.scheduler.run(deviceId, tool, def.timeoutMs ?? this.timeoutMs, async (signal, deadline) => {
      const device = await this.handles.open(deviceId, signal);
      if (!def.mutates) return def.handler(input, this.context(device, { signal, deadline }, options.origin));
      // Before and after: a capture that began before the action ended must not be reused.
      this.latestCaptures.invalidate(deviceId);
      try {
        return await def.handler(input, this.context(device, { signal, deadline }, options.origin));
      } finally {
        this.latestCaptures.invalidate(deviceId);
      }
    }, { hold: options.hold, cancel: options.signal, origin: options.origin }).catch((err: unknown) => (err instanceof CallCancelled ? cancelledFailure(err, def.mutates) : namingDevice(tool, deviceId, this.onError(deviceId, err, def.timeoutNote))));
    return this.reports.called({ device: deviceId, tool, mutates: def.mutates, parameters: input, started }, result, options);
  }

  /**
   * Mutating calls other callers made on the device since `origin`'s previous call there, as a
   * result's `others_acted`; undefined when none (or on its first call). Only looks: the verbs
   * of the bridge ask it before their own calls, which would otherwise take the news.
   */
  othersActed(deviceId: string, origin: string): { actions: { origin: string; tool: string; at: string }[]; more: number; note: string } | undefined {
    return this.reports.othersActed(deviceId, origin);
  }

  /**
   * One event of a streamed touch (bridge `input.touch`, issue 17), in the device's queue like any
   * call; the stream is one activity event when it ends (tool `input.touch`). Never throws.
   */
  touchEvent(device: string, phase: TouchPhase, at: Point, options: CallOptions = {}): Promise<TouchResult | ToolFailure> {
    return this.touches.touch(this.ids.listedId(device), phase, at, options.origin ?? 'local');
  }

  /** PERMISSION_DENIED while another caller's finger is down on the device (input.touch's own refusal), else undefined. */
  fingerRefusal(device: string, origin: string): ToolFailure | undefined {
    return this.touches.refusal(this.ids.listedId(device), origin);
  }

  /** Lifts the fingers a caller left down (its session ended mid-drag). */
  cancelTouches(origin: string): void {
    this.touches.cancelAll(origin);
  }

  /** How messages name a caller by its origin (a bridge: `session s-… (client)`, itself for no origin); undefined: the engine's own words. */
  nameCallers(name: (origin: string | undefined) => string | undefined): void {
    this.callerName = name;
  }

  /**
   * The caller will never call again (its session ended): its fingers are lifted and what was kept
   * for it (its last call on each device, its listings) goes, or a long-running bridge would hold
   * an entry for every session it ever served.
   */
  forgetCaller(origin: string): void {
    this.touches.cancelAll(origin);
    this.reports.forgetCaller(origin);
    this.listed.forgetCaller(origin);
  }

  /**
   * A keyboard key (bridge `input.key`), with CTRL a letter's shortcut (CTRL+A); UNSUPPORTED where the
   * device has no way to press it. Never throws.
   */
  async pressKey(given: string, key: Key | CtrlLetter, options: CallOptions = {}, modifiers: readonly KeyModifier[] = []): Promise<{ status: 'success'; message: string } | ToolFailure> {
    const started = performance.now();
    const device = this.ids.listedId(given);
    const press = keyPress(key, modifiers);
    const result = isToolFailure(press)
      ? press
      : await this.withDevice(device, `pressing ${press.name}`, async (handle, ctx) => {
          await pressOn(handle, device, press, ctx);
          return { status: 'success' as const, message: `pressed ${press.name} on ${device}` };
        }, TOUCH_TIMEOUT_MS).catch((err: unknown) => toFailure(err));
    this.reports.acted(device, 'input.key', { device, key, ...(modifiers.length ? { modifiers: [...modifiers] } : {}) }, result, options, performance.now() - started);
    return result;
  }

  /**
   * Runs work that needs more than one tool result (the bridge's frame loop, the runner's
   * device checks) in the device's queue and under a deadline, without an activity event.
   * Throws ToolError.
   */
  withDevice<T>(id: string, what: string, work: (device: DeviceHandle, ctx: CallContext) => Promise<T>, timeoutMs = this.timeoutMs): Promise<T> {
    // The work may change the screen (a verb's swipe): kept captures are stale before and after it.
    return this.onDevice(id, what, timeoutMs, async (device, ctx) => {
      this.latestCaptures.invalidate(id);
      try {
        return await work(device, ctx);
      } finally {
        this.latestCaptures.invalidate(id);
      }
    });
  }

  /**
   * A full capture for the bridge's frame loop (withDevice's deadline and queue), kept in
   * `latestCaptures` so an agent's screenshot right after it can reuse it. Throws ToolError.
   */
  captureFrame(id: string, timeoutMs = this.timeoutMs): Promise<ScreenCapture> {
    return this.onDevice(id, 'screen capture', timeoutMs, async (device, ctx) => {
      const started = this.latestCaptures.begin(id);
      const cap = await captureScreen(device, ctx);
      return this.latestCaptures.store(id, cap, started);
    });
  }

  /** `turn.cancel`: the caller gave up (see DeviceScheduler.run); the device is free at once for the next call. */
  private onDevice<T>(id: string, what: string, timeoutMs: number, work: (device: DeviceHandle, ctx: CallContext) => Promise<T>, turn: TurnOptions = {}): Promise<T> {
    return this.scheduler.run(id, what, timeoutMs, async (signal, deadline) => work(await this.handles.open(id, signal), { signal, deadline }), turn).catch((err: unknown) => {
      throw this.onErrorThrow(id, err);
    });
  }

  /**
   * The screen as the device hands it out (raw pixels or its own encoding), for a consumer that
   * scales and encodes it once itself (MCP screenshots). Listeners see it as mobile_take_screenshot.
   * Throws ToolError.
   */
  async captureScreen(id: string, options: CallOptions = {}): Promise<ScreenCapture> {
    return this.reportedCapture(id, options, async (device, ctx) => this.latestCaptures.fresh(id) ?? captureScreen(device, ctx));
  }

  /**
   * `captureScreen` for a consumer that shrinks the screen to `fit` anyway (MCP screenshots): a
   * fresh frame-loop capture when there is one, else drivers may shrink it on the way.
   */
  async captureFitted(id: string, fit: FitSize, options: CallOptions = {}): Promise<FittedCapture> {
    return this.reportedCapture(id, options, async (device, ctx) => this.latestCaptures.fresh(id) ?? captureFitted(device, ctx, fit));
  }

  private async reportedCapture<C extends FittedCapture>(id: string, options: CallOptions, capture: (device: DeviceHandle, ctx: CallContext) => Promise<C>): Promise<C> {
    const started = performance.now();
    const report = (result: unknown) =>
      this.reports.emit({ device: id, tool: 'mobile_take_screenshot', parameters: { device: id }, result, ok: !isToolFailure(result), mutates: false, origin: options.origin, durationMs: performance.now() - started });
    try {
      // In the queue, so a reused capture is checked after every action that arrived before this call.
      const cap = await this.onDevice(id, 'taking a screenshot', this.timeoutMs, capture, { cancel: options.signal, origin: options.origin, hold: options.hold });
      report({ dimensions: { width: cap.width, height: cap.height } });
      return cap;
    } catch (err) {
      report(toFailure(err));
      throw err;
    }
  }

  /**
   * Runs `work` as one unit on the device's queue: calls passing the hold (CallOptions.hold) run
   * inside it, everyone else's wait until it ends. Bounded by `maxMs` from arrival like any call,
   * so a hung step cannot keep the device forever. `signal`: the caller gave up; a hold still
   * waiting for the device ends at once (CallCancelled) and `work` never runs.
   */
  async hold<T>(id: string, what: string, work: (hold: DeviceHold) => Promise<T>, { signal, origin, maxMs = this.timeoutMs * 2 }: { signal?: AbortSignal; origin?: string; maxMs?: number } = {}): Promise<T> {
    try {
      return await this.scheduler.hold(id, what, (hold) => {
        this.latestCaptures.invalidate(id);
        return work(hold);
      }, maxMs, { cancel: signal, origin });
    } finally {
      this.latestCaptures.invalidate(id);
    }
  }

  onCall(listener: (e: CallEvent) => void): () => void {
    return this.reports.onCall(listener);
  }

  onDevicesChanged(listener: (c: DevicesChange) => void): () => void {
    this.deviceListeners.add(listener);
    return () => this.deviceListeners.delete(listener);
  }

  /** Waits for queued device calls, then closes every driver. */
  async close(): Promise<void> {
    await this.scheduler.idle();
    this.latestCaptures.clear();
    this.unwatch.forEach((off) => off());
    await Promise.all(this.drivers.map((d) => d.close()));
  }

  private onError(deviceId: string, err: unknown, timeoutNote?: string): ToolFailure {
    const f = toFailure(err);
    if (f.code === 'DEVICE_NOT_FOUND') this.forget(deviceId);
    return timeoutNote && f.code === 'TIMEOUT' && !(err instanceof ToolError && err.settled) ? { ...f, message: `${f.message}; ${timeoutNote}` } : f;
  }

  private onErrorThrow(deviceId: string, err: unknown): ToolError {
    const f = this.onError(deviceId, err);
    return err instanceof ToolError ? err : new ToolError(f.code, f.message);
  }

  private forget(id: string): void {
    this.health.forget(id);
    this.reports.forget(id);
    this.handles.forget(id);
    this.latestCaptures.invalidate(id);
  }

  /** `origin`: who calls; each caller's element ids are read against its own last listing. */
  private context(device: DeviceHandle, { signal, deadline }: CallContext, origin?: string): ToolContext {
    const id = device.info.id;
    return {
      device,
      signal,
      deadline,
      screenSize: () => this.handles.screenSize(id, device, signal),
      allowedPath: (path, param) => this.allowedPaths.check(path, param),
      files: this.allowedPaths,
      forgetScreenSize: () => this.handles.forgetScreenSize(id),
      keptCapture: () => this.latestCaptures.fresh(id),
      listed: { remember: (elements) => this.listed.remember(id, origin, elements), seen: (element) => this.listed.seen(id, origin, element) },
    };
  }
}

/** SPEC §2: every failure names the device; a handler's message about a parameter alone ("text is empty") gets the call's name in front. */
function namingDevice(tool: string, deviceId: string, f: ToolFailure): ToolFailure {
  return f.message.includes(deviceId) ? f : { ...f, message: `${callName(tool, deviceId)}: ${f.message}` };
}
