import type { UiElement } from '../../src/engine/types.js';

/** Top edge of each of the demo list's rows now (row id → y). */
export async function rows(call: (tool: string, params?: object) => Promise<Record<string, unknown>>): Promise<Map<string, number>> {
  const els = (await call('mobile_list_elements_on_screen')).elements as UiElement[];
  return new Map(els.filter((e) => /^item_\d+$/.test(e.id)).map((e) => [e.id, e.y]));
}

/** How far the list moved between two listings, read on a row both show. */
export function shift(before: Map<string, number>, after: Map<string, number>): number {
  const both = [...before.keys()].filter((id) => after.has(id));
  const id = both[Math.floor(both.length / 2)];
  if (!id) throw new Error('no list row on screen in both listings');
  return after.get(id)! - before.get(id)!;
}
