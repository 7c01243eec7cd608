import * as v from 'valibot';
import { toJsonSchema } from '@valibot/to-json-schema';
import { AllowedPaths } from './allowed-paths.js';
import { withDeadline } from './deadline.js';
import { KeyedQueue } from './device-queue.js';
import type { CallContext, DeviceHandle, Driver, DevicesChange } from './driver.js';
import { deviceNotFoundMessage, failure, isToolFailure, toFailure, ToolError, type ToolFailure } from './errors.js';
import type { ToolContext } from './tools/define.js';
import { describeIssues } from './tools/params.js';
import { findTool, TOOL_NAMES, TOOLS } from './tools/index.js';
import type { DeviceInfo } from './types.js';
import type { ScreenSize } from './ui-tree.js';

export interface EngineOptions {
  drivers: Driver[];
  /** Deadline of a device call unless the tool sets its own. */
  timeoutMs?: number;
  /** Deadline of device discovery per driver: one slow platform must not hide the others. */
  listTimeoutMs?: number;
  /** Extra folders screenshots and installs may use (SPEC §2). */
  allowPaths?: string[];
}

export interface CallOptions {
  /** Who asked (a bridge session id, "cli", "runner"): carried into activity events. */
  origin?: string;
  /** Applied to the parameters and result an activity event shows (masks a run's secrets). */
  redact?: (value: unknown) => unknown;
}

export interface CallEvent {
  device: string;
  tool: string;
  parameters: Record<string, unknown>;
  result: unknown;
  ok: boolean;
  mutates: boolean;
  origin?: string;
  durationMs: number;
}

export interface ToolDescription {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

const SCREEN_SIZE_TTL_MS = 2000;

/**
 * The transport-independent core: validates parameters, finds the device, runs the
 * tool under a deadline with calls on one device serialized, and always answers with
 * a result or a ToolFailure (never throws).
 */
export class Engine {
  readonly allowedPaths: AllowedPaths;
  private readonly drivers: Driver[];
  private readonly timeoutMs: number;
  private readonly listTimeoutMs: number;
  private readonly queue = new KeyedQueue();
  private readonly handles = new Map<string, DeviceHandle>();
  private readonly sizes = new Map<string, { size: ScreenSize; at: number }>();
  private readonly callListeners = new Set<(e: CallEvent) => void>();
  private readonly unwatch: (() => void)[] = [];
  private readonly deviceListeners = new Set<(c: DevicesChange) => void>();

  constructor(options: EngineOptions) {
    this.drivers = options.drivers;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.listTimeoutMs = options.listTimeoutMs ?? 10_000;
    this.allowedPaths = new AllowedPaths(options.allowPaths);
    for (const driver of this.drivers) {
      const off = driver.watch?.((change) => {
        for (const id of change.removed) this.forget(id);
        for (const l of this.deviceListeners) l(change);
      });
      if (off) this.unwatch.push(off);
    }
  }

  listTools(): ToolDescription[] {
    return TOOLS.map((t) => ({
      name: t.name,
      description: t.description,
      parameters: toJsonSchema(t.params, { errorMode: 'ignore' }) as Record<string, unknown>,
    }));
  }

  /** Devices of every driver; a driver that fails or is slow is left out rather than failing the list. */
  async listDevices(): Promise<DeviceInfo[]> {
    const lists = await Promise.all(
      this.drivers.map((d) =>
        withDeadline(this.listTimeoutMs, `listing ${d.name} devices`, (signal) => d.listDevices({ signal })).catch(() => []),
      ),
    );
    return lists.flat();
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
    const parsed = v.safeParse(def.params, given);
    if (!parsed.success) return failure('INVALID_PARAMETER', `${tool}: ${describeIssues(parsed.issues)}`);
    const input = parsed.output as Record<string, unknown>;

    if ('global' in def) {
      try {
        return await def.handler(input, { listDevices: () => this.listDevices() });
      } catch (err) {
        return toFailure(err);
      }
    }

    const deviceId = input.device as string;
    const result = await this.queue.run(deviceId, () =>
      withDeadline(def.timeoutMs ?? this.timeoutMs, `${tool} on ${deviceId}`, async (signal) => {
        const device = await this.resolve(deviceId, signal);
        return def.handler(input, this.context(device, signal));
      }).catch((err: unknown) => this.onError(deviceId, err)),
    );
    const ok = !isToolFailure(result);
    const shown = options.redact ? { parameters: options.redact(input) as Record<string, unknown>, result: options.redact(result) } : { parameters: input, result };
    this.emit({ device: deviceId, tool, ...shown, ok, mutates: def.mutates, origin: options.origin, durationMs: performance.now() - started });
    return result;
  }

  /**
   * Runs work that needs more than one tool result (the bridge's frame loop, the runner's
   * device checks) in the device's queue and under a deadline, without an activity event.
   * Throws ToolError.
   */
  withDevice<T>(id: string, what: string, work: (device: DeviceHandle, ctx: CallContext) => Promise<T>, timeoutMs = this.timeoutMs): Promise<T> {
    return this.queue.run(id, () =>
      withDeadline(timeoutMs, `${what} on ${id}`, async (signal) => work(await this.resolve(id, signal), { signal })).catch((err: unknown) => {
        throw this.onErrorThrow(id, err);
      }),
    );
  }

  onCall(listener: (e: CallEvent) => void): () => void {
    this.callListeners.add(listener);
    return () => this.callListeners.delete(listener);
  }

  onDevicesChanged(listener: (c: DevicesChange) => void): () => void {
    this.deviceListeners.add(listener);
    return () => this.deviceListeners.delete(listener);
  }

  /** Waits for queued device calls, then closes every driver. */
  async close(): Promise<void> {
    await this.queue.idle();
    this.unwatch.forEach((off) => off());
    await Promise.all(this.drivers.map((d) => d.close()));
  }

  private emit(event: CallEvent): void {
    for (const l of this.callListeners) {
      try {
        l(event);
      } catch {
        // A listener's bug must not turn a finished call into a failure.
      }
    }
  }

  private onError(deviceId: string, err: unknown): ToolFailure {
    const f = toFailure(err);
    if (f.code === 'DEVICE_NOT_FOUND') this.forget(deviceId);
    return f;
  }

  private onErrorThrow(deviceId: string, err: unknown): ToolError {
    const f = this.onError(deviceId, err);
    return err instanceof ToolError ? err : new ToolError(f.code, f.message);
  }

  private forget(id: string): void {
    this.handles.delete(id);
    this.sizes.delete(id);
  }

  private async resolve(id: string, signal: AbortSignal): Promise<DeviceHandle> {
    const cached = this.handles.get(id);
    if (cached) return cached;
    for (const driver of this.drivers) {
      const handle = await driver.open(id, { signal }).catch((err: unknown) => {
        if (err instanceof ToolError && err.code !== 'DEVICE_NOT_FOUND') throw err;
        return undefined;
      });
      if (handle) {
        this.handles.set(id, handle);
        return handle;
      }
    }
    const known = (await this.listDevices()).map((d) => d.id);
    throw new ToolError(
      'DEVICE_NOT_FOUND',
      `${deviceNotFoundMessage(id, known)} (call mobile_list_available_devices)`,
    );
  }

  private context(device: DeviceHandle, signal: AbortSignal): ToolContext {
    const id = device.info.id;
    return {
      device,
      signal,
      screenSize: async () => {
        const hit = this.sizes.get(id);
        if (hit && performance.now() - hit.at < SCREEN_SIZE_TTL_MS) return hit.size;
        const size = await device.screenSize({ signal });
        this.sizes.set(id, { size, at: performance.now() });
        return size;
      },
      allowedPath: (path, param) => this.allowedPaths.check(path, param),
      forgetScreenSize: () => this.sizes.delete(id),
    };
  }
}
