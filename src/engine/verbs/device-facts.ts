import type { DeviceProperties } from '../driver.js';
import type { DeviceInfo } from '../types.js';
import { call } from './screen.js';
import type { VerbContext } from './types.js';

/** The device_property values of SPEC §3, read once per question (they can change during a run). */
export interface DeviceFacts {
  platform: 'android' | 'ios';
  os_version: string;
  api_level: number | null;
  orientation: string;
  model: string;
  screen_width: number;
  screen_height: number;
  network: string | null;
  dark_mode: boolean | null;
}

export async function deviceProperties(ctx: VerbContext): Promise<DeviceProperties> {
  return ctx.engine
    .withDevice(ctx.device, 'reading device properties', async (h, c) => (h.properties ? h.properties(c) : {}))
    .catch(() => ({}));
}

export async function readFacts(ctx: VerbContext, info: DeviceInfo): Promise<DeviceFacts> {
  const props = await deviceProperties(ctx);
  const size = await call<{ width: number; height: number }>(ctx, 'mobile_get_screen_size');
  const { orientation } = await call<{ orientation: string }>(ctx, 'mobile_get_orientation');
  return {
    platform: info.os === 'iOS' ? 'ios' : 'android',
    os_version: info.version,
    api_level: props.apiLevel ?? null,
    orientation,
    model: info.model,
    screen_width: size.width,
    screen_height: size.height,
    network: props.network ?? (props.wifi === undefined ? null : props.wifi ? 'wifi' : 'disconnected'),
    dark_mode: props.darkMode ?? null,
  };
}
