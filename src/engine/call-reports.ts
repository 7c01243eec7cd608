/**
 * The engine's account of what ran on its devices: the CallEvent each listener hears and the
 * activity record a caller's next result reads as `others_acted` (issue 16). Apart from Engine,
 * which decides how a call runs (queue, deadline, driver): this only reports calls once they have
 * run, whether they were tool calls, touch streams, keys or screenshots.
 */
import { DeviceActivity } from './device-activity.js';
import type { CallEvent, CallOptions } from './engine-options.js';
import { isToolFailure } from './errors.js';

/** A tool call that has run, as Engine.call hands it over for its report. */
export interface FinishedCall {
  device: string;
  tool: string;
  mutates: boolean;
  parameters: Record<string, unknown>;
  /** performance.now() when the call arrived. */
  started: number;
}

export class CallReports {
  private readonly activity = new DeviceActivity();
  private readonly listeners = new Set<(e: CallEvent) => void>();

  /** `listedId`: the one id a device's activity is kept under, whichever of its names a caller used. */
  constructor(private readonly listedId: (id: string) => string) {}

  onCall(listener: (e: CallEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** See Engine.othersActed. */
  othersActed(deviceId: string, origin: string): { actions: { origin: string; tool: string; at: string }[]; more: number; note: string } | undefined {
    const others = this.activity.othersSince(this.listedId(deviceId), origin);
    return others && { ...others, note: `other callers acted on ${deviceId} since your last call on it; the screen may have changed` };
  }

  /**
   * A tool call's end: its caller's activity (with `others_acted` on the result when other callers
   * acted since), then the listeners' event. Returns the result the caller gets.
   */
  called(call: FinishedCall, result: unknown, options: CallOptions): unknown {
    const { device, tool, mutates, parameters, started } = call;
    const ok = !isToolFailure(result);
    if (options.origin !== undefined) {
      const others = this.othersActed(device, options.origin);
      this.record(device, options.origin, tool, mutates, result);
      if (others && result && typeof result === 'object' && !Array.isArray(result)) {
        result = { ...(result as Record<string, unknown>), others_acted: others };
      }
    }
    const shown = options.redact ? { parameters: options.redact(parameters) as Record<string, unknown>, result: options.redact(result) } : { parameters, result };
    this.emit({ device, tool, ...shown, ok, mutates, origin: options.origin, ...(options.partOf ? { partOf: options.partOf } : {}), durationMs: performance.now() - started });
    return result;
  }

  /** Activity for a mutating action that is not a tool call (touch streams, keys): listeners and others_acted see it like one. */
  acted(device: string, tool: string, parameters: Record<string, unknown>, result: unknown, options: CallOptions, durationMs: number): void {
    if (options.origin !== undefined) this.record(device, options.origin, tool, true, result);
    this.emit({ device, tool, parameters, result, ok: !isToolFailure(result), mutates: true, origin: options.origin, durationMs });
  }

  emit(event: CallEvent): void {
    for (const l of this.listeners) {
      try {
        l(event);
      } catch {
        // A listener's bug must not turn a finished call into a failure.
      }
    }
  }

  forgetCaller(origin: string): void {
    this.activity.forgetCaller(origin);
  }

  forget(device: string): void {
    this.activity.forget(device);
  }

  /**
   * Nothing happened on a device that is not there, and its history was just forgotten: kept, every
   * id an agent ever guessed (or a phone since gone) stayed in memory for the engine's life.
   */
  private record(device: string, origin: string, tool: string, mutates: boolean, result: unknown): void {
    if (isToolFailure(result) && result.code === 'DEVICE_NOT_FOUND') return;
    this.activity.record(device, origin, tool, mutates);
  }
}
