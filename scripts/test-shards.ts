/**
 * Which test folders share a uvu process. Each folder costs about as many seconds as it took in a
 * sequential run on a 2-core machine (2026-11-30); the folders go, longest first, to the process with
 * the least work so far. An outdated table only evens the processes out less well.
 */
const SECONDS: Record<string, number> = {
  android: 174,
  ios: 125,
  web: 116,
  bridge: 108,
  runner: 42,
  cli: 34,
  verbs: 23,
  engine: 21,
  sources: 15,
  peers: 15,
  mcp: 13,
  validate: 3,
};
/** A folder that is not in the table yet. */
const UNKNOWN_SECONDS = 10;

export interface Shard {
  names: string[];
  weight: number;
}

export function planShards(names: readonly string[], jobs: number): Shard[] {
  const shards: Shard[] = Array.from({ length: Math.max(1, Math.min(jobs, names.length)) }, () => ({ names: [], weight: 0 }));
  const weighed = names.map((name) => ({ name, weight: SECONDS[name] ?? (name.endsWith('.test.js') ? 1 : UNKNOWN_SECONDS) }));
  weighed.sort((a, b) => b.weight - a.weight || a.name.localeCompare(b.name));
  for (const { name, weight } of weighed) {
    const lightest = shards.reduce((min, s) => (s.weight < min.weight ? s : min));
    lightest.names.push(name);
    lightest.weight += weight;
  }
  for (const s of shards) s.names.sort();
  return shards.filter((s) => s.names.length > 0);
}
