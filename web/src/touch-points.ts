import type { DeviceActivityParams } from '../../src/protocol/notifications.js';
import type { Point } from './geometry.js';

/** Where an action touched the screen, for the marker every watcher sees; empty for actions without a place. */
export function touchPoints(a: Pick<DeviceActivityParams, 'tool' | 'parameters' | 'outcome'>): Point[] {
  if (a.outcome.status !== 'success') return [];
  const p = a.parameters;
  const point = (v: unknown): Point | undefined => {
    const o = v as { x?: unknown; y?: unknown } | undefined;
    return typeof o?.x === 'number' && typeof o.y === 'number' ? { x: o.x, y: o.y } : undefined;
  };
  switch (a.tool) {
    case 'mobile_click_on_screen_at_coordinates':
    case 'mobile_double_tap_on_screen':
    case 'mobile_long_press_on_screen_at_coordinates': {
      const at = point(p);
      return at ? [at] : [];
    }
    case 'input.touch': {
      if (p.action !== 'up') return [];
      return [point(p.from), point(p.to)].filter((q): q is Point => q !== undefined);
    }
    default:
      return [];
  }
}
