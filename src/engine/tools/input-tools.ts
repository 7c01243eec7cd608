import * as v from 'valibot';
import { ToolError } from '../errors.js';
import { BUTTONS } from '../types.js';
import { characterCount } from '../text-length.js';
import { pressOutcome } from '../long-press.js';
import { deviceTool, success, type ToolContext } from './define.js';
import { absent, coordinate, device, oneOf, params, requiredString } from './params.js';

async function checkOnScreen(ctx: ToolContext, x: number, y: number): Promise<void> {
  const outside = (size: { width: number; height: number }) => x >= size.width || y >= size.height;
  let size = await ctx.screenSize();
  if (outside(size)) {
    // The size is remembered for a moment: a fold or a rotation since may have made the screen larger.
    ctx.forgetScreenSize();
    size = await ctx.screenSize();
  }
  const { width, height } = size;
  if (outside(size)) {
    throw new ToolError(
      'INVALID_PARAMETER',
      `point (${x}, ${y}) is outside the screen of ${ctx.device.info.id} (${width}×${height} pixels; x 0..${width - 1}, y 0..${height - 1}); take coordinates from mobile_list_elements_on_screen`,
    );
  }
}

const point = { device, x: coordinate('x'), y: coordinate('y') };

/**
 * Share of a side kept clear at each end of a swipe: the screen's edges are where the system takes a
 * gesture from the app (back from the sides, home from the bottom, the notification shade from the
 * top). 8 % is more than Android's back-gesture insets (24–30 dp), its status and navigation bars and
 * iOS's home indicator on phone screens; a stroke from inside it went back instead of scrolling.
 */
const EDGE_SHARE = 0.08;

/** The longest swipe along a side of `span` pixels that stays clear of both edges. */
function longestSwipe(span: number): number {
  return span - 2 * Math.ceil(span * EDGE_SHARE);
}

/** Where a swipe of `distance` pixels (at most longestSwipe) starts and ends along a side of `span` pixels: centred. */
function strokeAlong(span: number, distance: number, forward: boolean): [number, number] {
  const low = Math.round((span - distance) / 2);
  return forward ? [low, low + distance] : [low + distance, low];
}

/** A typing failure after the field was emptied says so: the field's old text is gone, which the caller must know. */
function afterClearing(cleared: string | undefined): (err: unknown) => never {
  return (err) => {
    if (cleared && err instanceof ToolError) throw new ToolError(err.code, `${cleared} first, then typing failed: ${err.message}`, err.settled);
    throw err;
  };
}

/** Control characters other than TAB and newline (which type TAB and ENTER): nothing can type them. */
const UNTYPABLE = /[\u0000-\u0008\u000b-\u001f\u007f]/;

export const inputTools = [
  deviceTool({
    name: 'mobile_click_on_screen_at_coordinates',
    description:
      'Tap at a point in device pixels. Take the point from the center of an element in mobile_list_elements_on_screen. Errors: INVALID_PARAMETER when the point is outside the screen.',
    params: params(point),
    mutates: true,
    async handler(p, ctx) {
      await checkOnScreen(ctx, p.x, p.y);
      await ctx.device.tap(p.x, p.y, ctx);
      return success(`tapped (${p.x}, ${p.y}) on ${p.device}`);
    },
  }),
  deviceTool({
    name: 'mobile_double_tap_on_screen',
    description: 'Double-tap at a point in device pixels (two taps about 100 ms apart), e.g. to zoom or like.',
    params: params(point),
    mutates: true,
    async handler(p, ctx) {
      await checkOnScreen(ctx, p.x, p.y);
      await ctx.device.doubleTap(p.x, p.y, ctx);
      return success(`double-tapped (${p.x}, ${p.y}) on ${p.device}`);
    },
  }),
  deviceTool({
    name: 'mobile_long_press_on_screen_at_coordinates',
    description:
      'Press and hold at a point in device pixels, e.g. to open a context menu. duration is in milliseconds, default 500, at most 10000; ' +
      'a press shorter than the device\'s long-press time (Android 12+ 400 ms, older Android and iOS 500 ms) is a tap to apps, and the result says so.',
    params: params({
      ...point,
      duration: v.optional(
        v.pipe(
          v.number('duration must be a whole number of milliseconds (1..10000)'),
          v.integer('duration must be a whole number of milliseconds (1..10000)'),
          v.minValue(1, 'duration must be at least 1 ms'),
          v.maxValue(10000, 'duration must be at most 10000 ms'),
          v.description('How long to hold, in milliseconds (1..10000, default 500).'),
        ),
        500,
      ),
    }),
    mutates: true,
    timeoutMs: 40_000,
    async handler(p, ctx) {
      await checkOnScreen(ctx, p.x, p.y);
      await ctx.device.longPress(p.x, p.y, p.duration, ctx);
      const { longPress, note } = pressOutcome(ctx.device.info, p.duration);
      if (!longPress) return success(`pressed (${p.x}, ${p.y}) for ${p.duration} ms on ${p.device}: ${note}`);
      return success(`long-pressed (${p.x}, ${p.y}) for ${p.duration} ms on ${p.device}`);
    },
  }),
  deviceTool({
    name: 'mobile_type_keys',
    description:
      'Type text into the focused input field; tap the field first. submit: true presses ENTER afterwards (e.g. to submit a search); ' +
      'clear_first: true empties the field before typing (text may then be empty to only clear it). ' +
      'Errors: INVALID_PARAMETER when no field is focused or the text cannot be typed on this device. ' +
      'Where the device cannot tell whether a field is focused (Android key events), the result says so instead of claiming the field took the text.',
    params: params({
      device,
      text: v.pipe(
        v.string((issue) => (absent(issue.input) ? 'text is required: the text to type' : 'text must be a string')),
        v.description('The text to type into the focused field; "\\n" presses ENTER, "\\t" TAB. May be empty with submit or clear_first.'),
      ),
      submit: v.optional(v.pipe(v.boolean('submit must be true or false'), v.description('true: press ENTER after typing (default false).')), false),
      clear_first: v.optional(v.pipe(v.boolean('clear_first must be true or false'), v.description('true: empty the field before typing (default false).')), false),
    }),
    mutates: true,
    async handler(p, ctx) {
      if (p.text === '' && !p.submit && !p.clear_first) throw new ToolError('INVALID_PARAMETER', 'text is empty: pass the text to type, submit: true to press ENTER only, or clear_first: true to empty the field');
      const control = UNTYPABLE.exec(p.text);
      if (control) {
        const code = `U+${control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
        throw new ToolError('INVALID_PARAMETER', `text holds the control character ${code} at index ${control.index}, which no keyboard types; write "\\n" for ENTER and "\\t" for TAB, and remove other control characters`);
      }
      let cleared: string | undefined;
      if (p.clear_first) {
        if (!ctx.device.clearText) throw new ToolError('UNSUPPORTED', `${p.device} cannot empty a field; select its text and delete it with the device's own controls`);
        const note = await ctx.device.clearText(ctx);
        cleared = note ? `deleted the field's text (${note})` : 'emptied the field';
      }
      const unconfirmed = p.text !== '' ? await ctx.device.typeText(p.text, ctx).catch(afterClearing(cleared)) : undefined;
      if (p.submit) await ctx.device.pressButton('ENTER', ctx);
      // Only what was done: "typed 0 characters" would claim typing that never happened.
      const done = [cleared, p.text !== '' && `typed ${characterCount(p.text)}`, p.submit && 'pressed ENTER'].filter((d) => d !== false && d !== undefined);
      return success(`${done.join(' and ')} on ${p.device}${unconfirmed ? `; ${unconfirmed}` : ''}`);
    },
  }),
  deviceTool({
    name: 'mobile_swipe_on_screen',
    description:
      'Swipe across the middle of the screen. direction up moves the content up (reveals what is below), down reveals what is above, left/right page sideways. ' +
      'distance in pixels, default about 30% of the screen dimension along the swipe; a longer one than 84% of it is shortened to that (the message says so), ' +
      'since both ends stay clear of the screen edges, where the system takes a swipe as back, home or the notification shade.',
    params: params({
      device,
      direction: oneOf('direction', ['up', 'down', 'left', 'right'] as const, 'up moves the content up (shows what is below), down shows what is above; left/right page sideways.'),
      distance: v.optional(
        v.pipe(
          v.number('distance must be a whole number of pixels'),
          v.integer('distance must be a whole number of pixels'),
          v.minValue(1, 'distance must be at least 1 pixel'),
          v.description('Length of the swipe in device pixels (default 30 % of the screen along it; at most 84 % of it is used).'),
        ),
      ),
    }),
    mutates: true,
    async handler(p, ctx) {
      const { width, height } = await ctx.screenSize();
      const vertical = p.direction === 'up' || p.direction === 'down';
      const span = vertical ? height : width;
      const asked = p.distance ?? Math.round(span * 0.3);
      if (asked >= span) {
        throw new ToolError('INVALID_PARAMETER', `distance ${asked} does not fit on the screen of ${p.device}, which is ${span} pixels ${vertical ? 'high' : 'wide'}: use at most ${longestSwipe(span)}`);
      }
      const distance = Math.min(asked, longestSwipe(span));
      const [from, to] = strokeAlong(span, distance, p.direction === 'down' || p.direction === 'right');
      const across = Math.round((vertical ? width : height) / 2);
      const [fx, fy, tx, ty] = vertical ? [across, from, across, to] : [from, across, to, across];
      await ctx.device.swipe(fx, fy, tx, ty, 300, ctx);
      const shortened =
        distance < asked
          ? ` (shortened from ${asked} px: a longer swipe starts within ${Math.ceil(span * EDGE_SHARE)} px of the screen's edge, where the system takes it as back, home or the notification shade instead of the app; swipe again to go further)`
          : '';
      return success(`swiped ${p.direction} ${distance} px on ${p.device}${shortened}`);
    },
  }),
  deviceTool({
    name: 'mobile_press_button',
    description:
      'Press a hardware or system button: BACK (Android only; on iOS use an on-screen back button or the press_back verb), HOME, VOLUME_UP, VOLUME_DOWN, ENTER.',
    params: params({ device, button: oneOf('button', BUTTONS, 'The key to press; BACK exists on Android only.') }),
    mutates: true,
    async handler(p, ctx) {
      if (p.button === 'BACK' && ctx.device.info.os === 'iOS') {
        throw new ToolError(
          'INVALID_PARAMETER',
          `button BACK does not exist on iOS (${p.device}); tap the app's own back button, or use the press_back verb (a left-edge swipe). Allowed on iOS: HOME, VOLUME_UP, VOLUME_DOWN, ENTER`,
        );
      }
      await ctx.device.pressButton(p.button, ctx);
      return success(`pressed ${p.button} on ${p.device}`);
    },
  }),
  deviceTool({
    name: 'mobile_open_url',
    description: 'Open a URL with the app that handles it: a web page in the default browser, or a deep link (myapp://...) in its app.',
    params: params({
      device,
      url: v.pipe(
        requiredString('url', 'a full URL such as https://example.com or myapp://path'),
        v.regex(/^[A-Za-z][A-Za-z0-9+.-]*:\S+$/, 'url must be a full URL with a scheme and no spaces, such as https://example.com or myapp://path'),
      ),
    }),
    mutates: true,
    async handler(p, ctx) {
      const landed = await ctx.device.openUrl(p.url, ctx);
      return success(`opened ${p.url} on ${p.device}${landed ? `; ${landed}` : ''}`);
    },
  }),
  deviceTool({
    name: 'mobile_set_wifi',
    description: 'Turn Wi-Fi on or off. Android and virtual devices; on iOS it fails with UNSUPPORTED (toggle it by hand in Settings).',
    params: params({
      device,
      enabled: v.pipe(
        v.boolean((issue) => (absent(issue.input) ? 'enabled is required: true or false' : 'enabled must be true or false')),
        v.description('true turns Wi-Fi on, false off.'),
      ),
    }),
    mutates: true,
    async handler(p, ctx) {
      await ctx.device.setWifi(p.enabled, ctx);
      return success(`turned Wi-Fi ${p.enabled ? 'on' : 'off'} on ${p.device}`);
    },
  }),
];
