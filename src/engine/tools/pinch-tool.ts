import * as v from 'valibot';
import { ToolError } from '../errors.js';
import { MAX_PINCH_SCALE, MIN_PINCH_SCALE } from '../pinch-bounds.js';
import type { FingerPath, Point } from '../types.js';
import { deviceTool, success } from './define.js';
import { coordinate, device, params } from './params.js';

/** Fingertips closer than this touch each other: the gesture would read as one finger. */
const MIN_SPAN_PX = 48;
/** Kept between a fingertip and the screen edge, where system gestures (back, notifications) start. */
const EDGE_PX = 24;
const DEFAULT_DURATION_MS = 500;

/**
 * The two finger paths of a pinch around `center`: on the axis with more room around it, fingers
 * `small` apart at one end and `small × factor` at the other, the wider span as wide as the room
 * allows (at most half the screen's longer side, as a hand would). Scale > 1 spreads (zooms in),
 * < 1 pinches (zooms out). Throws INVALID_PARAMETER when the fingers cannot fit.
 */
export function pinchFingers(center: Point, scale: number, screen: { width: number; height: number }): [FingerPath, FingerPath] {
  const { x, y } = center;
  const roomX = Math.min(x, screen.width - 1 - x) - EDGE_PX;
  const roomY = Math.min(y, screen.height - 1 - y) - EDGE_PX;
  const vertical = roomY > roomX;
  const wide = Math.min(2 * Math.max(roomX, roomY), Math.round(Math.max(screen.width, screen.height) / 2));
  const factor = scale >= 1 ? scale : 1 / scale;
  const narrow = Math.round(wide / factor);
  if (narrow < MIN_SPAN_PX) {
    const why = wide < MIN_SPAN_PX * 2 ? `(${x}, ${y}) is too close to the screen edge for two fingers` : `scale ${scale} needs fingers ${wide} and ${narrow} px apart, and fingertips closer than ${MIN_SPAN_PX} px touch`;
    throw new ToolError('INVALID_PARAMETER', `cannot pinch there: ${why}; pinch nearer the middle of the screen or with a scale closer to 1`);
  }
  const [from, to] = scale >= 1 ? [narrow, wide] : [wide, narrow];
  const at = (span: number, sign: 1 | -1): Point => (vertical ? { x, y: y + (sign * span) / 2 } : { x: x + (sign * span) / 2, y });
  const round = (p: Point): Point => ({ x: Math.round(p.x), y: Math.round(p.y) });
  return [
    { from: round(at(from, -1)), to: round(at(to, -1)) },
    { from: round(at(from, 1)), to: round(at(to, 1)) },
  ];
}

export const pinchTool = deviceTool({
  name: 'mobile_pinch_on_screen',
  description:
    'Two-finger pinch around a point in device pixels: scale > 1 spreads the fingers apart (zoom in, e.g. 2 doubles the distance between them), scale < 1 brings them together (zoom out, e.g. 0.5). ' +
    'Maps, photos and documents zoom with it. Errors: INVALID_PARAMETER when the point is outside the screen or too near its edge; UNSUPPORTED when the device cannot do two-finger gestures (the message says why).',
  params: params({
    device,
    x: coordinate('x'),
    y: coordinate('y'),
    scale: v.pipe(
      v.number('scale must be a number: > 1 zooms in (2 = fingers twice as far apart), < 1 zooms out (0.5)'),
      v.minValue(MIN_PINCH_SCALE, `scale must be at least ${MIN_PINCH_SCALE}`),
      v.maxValue(MAX_PINCH_SCALE, `scale must be at most ${MAX_PINCH_SCALE}`),
      v.check((s) => s !== 1, 'scale 1 moves no finger: use > 1 to zoom in or < 1 to zoom out'),
      v.description(`> 1 spreads the fingers (zoom in; 2 doubles their distance), < 1 brings them together (zoom out); ${MIN_PINCH_SCALE}..${MAX_PINCH_SCALE}, not 1.`),
    ),
    duration: v.optional(
      v.pipe(v.number('duration must be a whole number of milliseconds'), v.integer('duration must be a whole number of milliseconds'), v.minValue(100, 'duration must be at least 100 ms'), v.maxValue(5000, 'duration must be at most 5000 ms'), v.description('Gesture length in milliseconds (100..5000, default 500).')),
    ),
  }),
  mutates: true,
  async handler(p, ctx) {
    const screen = await ctx.screenSize();
    if (p.x >= screen.width || p.y >= screen.height) {
      throw new ToolError('INVALID_PARAMETER', `point (${p.x}, ${p.y}) is outside the screen of ${p.device} (${screen.width}×${screen.height} pixels); take coordinates from mobile_list_elements_on_screen`);
    }
    const pinch = ctx.device.pinch;
    if (!pinch) throw new ToolError('UNSUPPORTED', `${p.device} cannot do two-finger gestures`);
    const fingers = pinchFingers({ x: Math.round(p.x), y: Math.round(p.y) }, p.scale, screen);
    await pinch.call(ctx.device, fingers, p.duration ?? DEFAULT_DURATION_MS, ctx);
    const span = (f: 'from' | 'to') => Math.round(Math.hypot(fingers[0][f].x - fingers[1][f].x, fingers[0][f].y - fingers[1][f].y));
    return success(`${p.scale > 1 ? 'spread' : 'pinched'} two fingers around (${p.x}, ${p.y}) on ${p.device}: ${span('from')} → ${span('to')} px apart (zoom ${p.scale > 1 ? 'in' : 'out'})`);
  },
});
