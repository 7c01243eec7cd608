import type { DeviceHandle } from '../engine/driver.js';
import type { DeviceInfo } from '../engine/types.js';
import type { EffectiveScreenOptions, StreamSource } from '../protocol/index.js';
import type { Subscription } from './sessions.js';
import type { VideoSettings } from './video-settings.js';

/**
 * Which screen subscriptions the device's own video serves: every `h264` one, and on iOS a
 * full-width `jpeg` one (WDA's MJPEG pictures are relayed without re-encoding; narrower or other
 * formats keep the screenshot pipeline, which resizes).
 */
export function wantsVideo(screen: EffectiveScreenOptions, info: DeviceInfo): boolean {
  if (screen.format === 'h264') return true;
  return screen.format === 'jpeg' && screen.maxWidth === null && info.os === 'iOS' && !isVirtual(info);
}

/** Why video cannot even be tried on this device, or undefined when it can. */
export function videoUnavailable(handle: DeviceHandle, settings: VideoSettings): string | undefined {
  if (!settings.enabled) return 'video is turned off (serve --no-video)';
  if (!handle.openVideo) return `${handle.info.id} has no live video (${isVirtual(handle.info) ? 'a virtual phone' : `its ${handle.info.os} driver cannot stream`}); screenshots are polled`;
  return undefined;
}

/** The screenshot path's name for subscribers (SPEC §9 `source`). */
export function pollSource(info: DeviceInfo): StreamSource {
  if (isVirtual(info)) return 'virtual';
  return info.os === 'Android' ? 'screencap' : 'screenshot';
}

/** A subscription served by screenshot polling: video subscribers get JPEG, and the reason video is not used. */
export function pollStream(screen: EffectiveScreenOptions, info: DeviceInfo, fallbackReason?: string): NonNullable<Subscription['stream']> {
  return { format: screen.format === 'h264' ? 'jpeg' : screen.format, source: pollSource(info), ...(fallbackReason ? { fallbackReason } : {}) };
}

function isVirtual(info: DeviceInfo): boolean {
  return info.id.startsWith('virtual-');
}
