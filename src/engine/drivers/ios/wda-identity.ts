import type { SimulatorInfo } from './simctl.js';
import type { WdaClient } from './wda-client.js';

/**
 * Whose WebDriverAgent answers at a URL. /status carries no UDID, so several booted simulators behind
 * one default URL all see "a WDA" and one simulator's taps land on another. What WDA does say:
 * GET /wda/device/info (FBCustomCommands.m, no session needed) → {name: UIDevice.name, isSimulator, …}
 * and GET /status → {os: {version: UIDevice.systemVersion}}. Those are matched against simctl's
 * booted simulators (name, runtime version).
 */
export type WdaOwner =
  | { verdict: 'ours' }
  /** Surely not this simulator's WDA: `whose` says whose it is, as far as can be told. */
  | { verdict: 'other'; whose: string }
  /** Could be this simulator's or another's: nothing WDA reports tells them apart. */
  | { verdict: 'unknown'; candidates: string };

export interface WdaFacts {
  name?: string;
  isSimulator?: boolean;
  version?: string;
}

const describe = (s: SimulatorInfo) => `simulator ${s.model} (${s.id})`;

/** "17.5.1" and "17.5" name one runtime for this purpose: simctl's runtime key may omit the patch level. */
function sameRuntime(a: string, b: string): boolean {
  const cut = (v: string) => v.split('.').slice(0, 2).map((p) => Number.parseInt(p, 10) || 0).join('.');
  return cut(a) === cut(b);
}

export function judgeWda(facts: WdaFacts, self: SimulatorInfo, booted: readonly SimulatorInfo[]): WdaOwner {
  if (facts.isSimulator === false) return { verdict: 'other', whose: 'a real iPhone (its WebDriverAgent says isSimulator: false)' };
  const all = booted.some((s) => s.id === self.id) ? booted : [self, ...booted];
  let candidates = facts.version ? all.filter((s) => sameRuntime(s.version, facts.version!)) : [...all];
  // On iOS 16+ UIDevice.name may be the generic "iPhone": a name matching no simulator proves nothing.
  const named = facts.name ? candidates.filter((s) => s.model === facts.name) : [];
  if (named.length) candidates = named;
  if (!candidates.some((s) => s.id === self.id)) {
    const whose = candidates.length ? candidates.map(describe).join(' or ') : `a simulator${facts.name ? ` named ${JSON.stringify(facts.name)}` : ''}${facts.version ? ` running iOS ${facts.version}` : ''}`;
    return { verdict: 'other', whose };
  }
  if (candidates.length === 1) return { verdict: 'ours' };
  return { verdict: 'unknown', candidates: candidates.map(describe).join(', ') };
}

/** Reads what WDA says about itself; a route an old WDA lacks just leaves its facts out. */
export async function wdaFacts(client: WdaClient, signal?: AbortSignal): Promise<WdaFacts> {
  const facts: WdaFacts = {};
  const missing = (err: unknown) => {
    if (signal?.aborted) throw err;
    return null;
  };
  const info = (await client.call('GET', '/wda/device/info', undefined, signal).catch(missing)) as { name?: unknown; isSimulator?: unknown } | null;
  if (typeof info?.name === 'string') facts.name = info.name;
  if (typeof info?.isSimulator === 'boolean') facts.isSimulator = info.isSimulator;
  const status = (await client.status(signal).catch(missing)) as { os?: { version?: unknown } } | null;
  if (typeof status?.os?.version === 'string') facts.version = status.os.version;
  return facts;
}
