import type { DeviceActivityParams } from '../../src/protocol/methods.js';

export interface ActivityLine {
  who: string;
  what: string;
  /** Local wall-clock time, HH:MM:SS. */
  when: string;
  mine: boolean;
  error?: string;
}

const num = (v: unknown): string => (typeof v === 'number' ? String(v) : '?');
const quoted = (v: unknown, max = 40): string => {
  const s = typeof v === 'string' ? v : '';
  return `“${s.length > max ? `${s.slice(0, max)}…` : s}”`;
};

/** A streamed touch (input.touch): one entry for the whole drag, in its main direction. */
function describeDrag(p: Record<string, unknown>): string {
  const from = p.from as { x?: unknown; y?: unknown } | undefined;
  const to = p.to as { x?: unknown; y?: unknown } | undefined;
  if (p.action === 'cancel') return 'cancelled a drag';
  const dx = Number(to?.x) - Number(from?.x);
  const dy = Number(to?.y) - Number(from?.y);
  const direction = Math.abs(dx) > Math.abs(dy) ? (dx < 0 ? 'left' : 'right') : dy < 0 ? 'up' : 'down';
  const replayed = p.streamed === false ? ' (replayed on release)' : '';
  return `dragged ${direction} from (${num(from?.x)}, ${num(from?.y)}) to (${num(to?.x)}, ${num(to?.y)})${replayed}`;
}

/** Human wording for the tools people use in the viewer; anything else shows its name and parameters. */
function describeTool(tool: string, p: Record<string, unknown>): string {
  switch (tool) {
    case 'mobile_click_on_screen_at_coordinates':
      return `tapped (${num(p.x)}, ${num(p.y)})`;
    case 'mobile_double_tap_on_screen':
      return `double-tapped (${num(p.x)}, ${num(p.y)})`;
    case 'mobile_long_press_on_screen_at_coordinates':
      return `long-pressed (${num(p.x)}, ${num(p.y)})${typeof p.duration === 'number' ? ` for ${p.duration} ms` : ''}`;
    case 'mobile_swipe_on_screen':
      return `swiped ${String(p.direction)}${typeof p.distance === 'number' ? ` ${p.distance} px` : ''}`;
    case 'mobile_type_keys':
      return `typed ${quoted(p.text)}${p.submit ? ' and pressed ENTER' : ''}`;
    case 'mobile_press_button':
      return `pressed ${String(p.button)}`;
    case 'input.key':
      return `pressed ${String(p.key)}`;
    case 'input.touch':
      return describeDrag(p);
    case 'mobile_set_orientation':
      return `rotated to ${String(p.orientation)}`;
    case 'mobile_launch_app':
      return `launched ${String(p.packageName)}`;
    case 'mobile_terminate_app':
      return `stopped ${String(p.packageName)}`;
    case 'mobile_open_url':
      return `opened ${String(p.url)}`;
    default: {
      const { device: _device, ...rest } = p;
      const args = Object.keys(rest).length > 0 ? ` ${JSON.stringify(rest)}` : '';
      return `${tool}${args.length > 120 ? `${args.slice(0, 120)}…` : args}`;
    }
  }
}

export function describeActivity(a: DeviceActivityParams, mySession: string | undefined): ActivityLine {
  const mine = a.session === mySession;
  const name = a.client ? `${a.client} ${a.session.slice(0, 6)}` : a.session.slice(0, 6);
  const what = a.tool ? describeTool(a.tool, a.parameters) : `ran ${a.verb ?? 'a step'} ${JSON.stringify(a.parameters)}`;
  const at = new Date(a.at);
  const when = Number.isNaN(at.getTime()) ? '' : at.toTimeString().slice(0, 8);
  const line: ActivityLine = { who: mine ? `you (${name})` : name, what, when, mine };
  if (a.outcome.status === 'error') line.error = `${a.outcome.code ?? 'ERROR'}: ${a.outcome.message ?? 'failed'}`;
  return line;
}
