/** What an Engine is built with, what a call may carry, and what its listeners hear. */
import type { DeviceHold } from './device-hold.js';
import type { Driver } from './driver.js';

export interface EngineOptions {
  drivers: Driver[];
  /** Deadline of a device call unless the tool sets its own. */
  timeoutMs?: number;
  /** Deadline of device discovery per driver: one slow platform must not hide the others. */
  listTimeoutMs?: number;
  /** Extra folders screenshots and installs may use (SPEC §2). */
  allowPaths?: string[];
  /**
   * Follow devices coming and going (default true). A one-shot command does not: following starts
   * the adb server's device feed (and the server itself) even for a call on a virtual phone.
   */
  watchDevices?: boolean;
}

export interface CallOptions {
  /** Who asked (a bridge session id, "cli", "runner"): carried into activity events. */
  origin?: string;
  /** Run inside this hold of the device (see Engine.hold) instead of queueing behind it. */
  hold?: DeviceHold;
  /** The agent verb this call is one part of: that verb's own activity entry stands for it. */
  partOf?: string;
  /** Applied to the parameters and result an activity event shows (masks a run's secrets). */
  redact?: (value: unknown) => unknown;
  /** The caller gave up (requests.cancel, MCP cancellation): see DeviceScheduler.run. */
  signal?: AbortSignal;
}

export interface CallEvent {
  device: string;
  tool: string;
  parameters: Record<string, unknown>;
  result: unknown;
  ok: boolean;
  mutates: boolean;
  origin?: string;
  partOf?: string;
  durationMs: number;
}
