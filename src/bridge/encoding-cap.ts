import { failure, type ToolFailure } from '../engine/errors.js';
import type { EffectiveScreenOptions } from '../protocol/index.js';
import { frameSpec, specKey, type FrameSpec } from './frame-encoding.js';
import type { Subscription } from './sessions.js';

/**
 * Refuses a screenshot subscription that would be the device's encoding too many (`max` distinct
 * format, width and quality over all sessions): the per-session cap alone let one client with
 * fifteen connections take a viewer from 30 to 6 fps. An encoding already made is shared, so it is
 * never refused. Subscribers of the device's video share its one stream and are not counted (while
 * it is down their screenshots are, but they are never refused for that). `width` is the device's.
 */
export function encodingRefused(device: string, subs: Iterable<Subscription>, screen: EffectiveScreenOptions, width: number, max: number): ToolFailure | undefined {
  const specs = new Map<string, FrameSpec>();
  for (const s of subs) {
    if (!s.screen || !s.stream || s.stream.source === 'scrcpy' || s.stream.source === 'wda-mjpeg') continue;
    const spec = frameSpec(s.screen, width);
    specs.set(specKey(spec), spec);
  }
  if (specs.has(specKey(frameSpec(screen, width))) || specs.size < max) return undefined;
  const ways = [...specs.values()].map((s) => `${s.format} ${s.width} px${s.format === 'png' ? '' : ` quality ${s.quality}`}`).join('; ');
  return failure(
    'INVALID_PARAMETER',
    `${device} already has screenshots encoded ${specs.size} different ways for its viewers (${ways}), the most the bridge makes per device (limits.max_screen_encodings, ${max}: each is an encode of every frame); subscribe with the format, maxWidth and quality of one of these, or with format "h264" where live video is available`,
  );
}
