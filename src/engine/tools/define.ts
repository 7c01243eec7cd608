import type { ScreenCapture } from '../screen/capture.js';
import type * as v from 'valibot';
import type { CallContext, DeviceHandle } from '../driver.js';
import type { AllowedPaths } from '../allowed-paths.js';
import type { DeviceInfo, UiElement } from '../types.js';
import type { ListedElement } from '../listed-elements.js';
import type { ScreenSize } from '../ui-tree.js';

/** What a handler can reach. Only `mobile_list_available_devices` runs without a device. */
export interface ToolContext extends CallContext {
  device: DeviceHandle;
  /** Screen size, cached for a moment: a size round trip per tap would double tap latency on real phones. */
  screenSize(): Promise<ScreenSize>;
  /** Throws PERMISSION_DENIED unless the path is under an allowed folder (SPEC §2). Returns the absolute path. */
  allowedPath(path: string, param: string): Promise<string>;
  /** Reads and writes on the caller's behalf, confined to the allowed folders (files/safe-fs). */
  files: Pick<AllowedPaths, 'readable' | 'read' | 'write'>;
  /** Call after changing orientation so coordinate checks see the new size. */
  forgetScreenSize(): void;
  /** The bridge frame loop's capture of moments ago when nothing changed since (screen/latest-capture.ts), else undefined. */
  keptCapture?(): ScreenCapture | undefined;
  /** What the device's last listing showed (listed-elements.ts): remembered by the listing tool, read by scroll_to_element. */
  listed?: { remember(elements: readonly UiElement[]): void; seen(id: string): ListedElement | undefined };
}

export interface DeviceToolDef<S extends v.GenericSchema = v.GenericSchema> {
  name: string;
  description: string;
  params: S;
  /** Whether the call changes the device (drives activity events and element refresh in the bridge). */
  mutates: boolean;
  /** Deadline override in ms; default comes from the engine. */
  timeoutMs?: number;
  /** Added to a TIMEOUT's message: what may still be happening on the device, and how to find out. */
  timeoutNote?: string;
  handler(params: v.InferOutput<S>, ctx: ToolContext): Promise<unknown>;
}

export interface GlobalToolDef<S extends v.GenericSchema = v.GenericSchema> {
  name: string;
  description: string;
  params: S;
  mutates: false;
  global: true;
  handler(params: v.InferOutput<S>, ctx: { listDevices(): Promise<DeviceInfo[]> }): Promise<unknown>;
}

export type ToolDef = DeviceToolDef | GlobalToolDef;

export function deviceTool<S extends v.GenericSchema>(def: DeviceToolDef<S>): DeviceToolDef {
  return def as unknown as DeviceToolDef;
}

export function success(message: string): { status: 'success'; message: string } {
  return { status: 'success', message };
}
