/** Small helpers shared by the benchmarks: they print figures, they never assert. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

export interface Summary {
  median: number;
  p95: number;
  p99: number;
  n: number;
}

export function summarize(samples: number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  return { median: percentile(sorted, 50), p95: percentile(sorted, 95), p99: percentile(sorted, 99), n: sorted.length };
}

export async function sample(n: number, fn: (i: number) => Promise<unknown>, warmup = Math.min(20, n)): Promise<Summary> {
  for (let i = 0; i < warmup; i++) await fn(i);
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn(i);
    times.push(performance.now() - t);
  }
  return summarize(times);
}

export const ms = (x: number) => `${x.toFixed(3)} ms`;

export function row(label: string, s: Summary): string {
  return `${label.padEnd(48)} median ${ms(s.median).padStart(11)}   p95 ${ms(s.p95).padStart(11)}   (n=${s.n})`;
}
