import { PeerTimeoutError } from './rpc-link.js';

/** A call forwarded to the peer that has the device: named for messages, bounded, and with the device as each side knows it. */

/** "tools.call mobile_press_button on lab-phone", for messages. */
export function what(method: string, params: Record<string, unknown>): string {
  const p = params.parameters as { device?: unknown } | undefined;
  return method === 'tools.call' ? `${String(params.tool)} on ${String(p?.device)}` : `${method} on ${String(params.device)}`;
}

/** The promise, or a PeerTimeoutError after `ms` (the promise goes on: a link still opening is kept for later calls). */
export function beforeDeadline<T>(p: Promise<T>, ms: number, why: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new PeerTimeoutError(why, true)), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

/** The params with the device as the peer knows it. */
export function withDevice(method: string, params: Record<string, unknown>, remote: string): Record<string, unknown> {
  if (method === 'tools.call') return { ...params, parameters: { ...(params.parameters as Record<string, unknown>), device: remote } };
  return { ...params, device: remote };
}

/** An object whose `device` names the peer's device, naming it as the caller did. */
function deviceListed(o: unknown, target: { remote: string; listed: string }): unknown {
  if (typeof o !== 'object' || o === null || Array.isArray(o)) return o;
  const r = o as Record<string, unknown>;
  return r.device === target.remote ? { ...r, device: target.listed } : r;
}

/** A peer's answer naming the device as the caller did: locks, descriptions, a run's document, activity.recent's entries and lock. */
export function asListed(result: unknown, target: { remote: string; listed: string }): unknown {
  if (target.remote === target.listed || typeof result !== 'object' || result === null || Array.isArray(result)) return result;
  const r = result as Record<string, unknown>;
  const metadata = r.metadata as Record<string, unknown> | undefined;
  return {
    ...r,
    ...(r.device === target.remote ? { device: target.listed } : {}),
    ...(metadata?.device_id === target.remote ? { metadata: { ...metadata, device_id: target.listed } } : {}),
    ...(Array.isArray(r.entries) ? { entries: r.entries.map((e) => deviceListed(e, target)) } : {}),
    ...(r.lock && typeof r.lock === 'object' ? { lock: deviceListed(r.lock, target) } : {}),
  };
}

/**
 * A peer's text with its device ids as listed here ("tapped on virtual-android-1" from peer b is
 * about virtual-android-1@b; the bare id may be this bridge's own phone). Whole ids only: a longer id
 * that contains one, or one already naming a peer (`id@b`), is left alone.
 */
export function renameIds(text: string, renames: ReadonlyMap<string, string>): string {
  if (!renames.size) return text;
  const ids = [...renames.keys()].sort((a, b) => b.length - a.length).map((id) => id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const re = new RegExp(`(?<![\\w.:@-])(${ids.join('|')})(?![\\w:@-]|[.-]\\w)`, 'g');
  return text.replace(re, (id) => renames.get(id) ?? id);
}

/** A peer's answer whose `message` names the devices as listed here (renameIds). */
export function withListedMessage(result: unknown, renames: ReadonlyMap<string, string>): unknown {
  if (!renames.size || typeof result !== 'object' || result === null || Array.isArray(result)) return result;
  const r = result as Record<string, unknown>;
  return typeof r.message === 'string' ? { ...r, message: renameIds(r.message, renames) } : r;
}
