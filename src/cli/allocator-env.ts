/**
 * glibc malloc settings under which a bridge gives its memory back after a load (issue 16).
 *
 * With glibc's defaults, the frame pipeline's native work (libvips encoding on its own threads,
 * screens and sockets on the event loop) leaves memory that is free but kept: one heap per thread
 * up to 8 × cores, and a mmap threshold that rises with every large block freed, so later large
 * blocks come from the heaps and stay there. Node cannot call `malloc_trim`, and glibc reads these
 * settings only when the process starts, so they go in the environment of `npm start` (package.json)
 * and of any service that runs `mobilebridge serve`. Other C libraries ignore them.
 *
 * Measured with scripts/bench/load.ts (docs/protocol.md, "Memory under load"): after the load
 * the defaults kept 140–190 MB against ~100 MB before it; these settings ~127 MB.
 */
export const ALLOCATOR_ENV: Readonly<Record<string, string>> = {
  // Two heaps for every thread instead of up to 16 on two cores: each keeps its own free memory.
  MALLOC_ARENA_MAX: '2',
  // A fixed threshold (no longer raised by frees): blocks from 256 KiB on are mapped and unmapped on free.
  MALLOC_MMAP_THRESHOLD_: '262144',
  // Free memory above 256 KiB at the top of a heap goes back at once.
  MALLOC_TRIM_THRESHOLD_: '262144',
};

/** The glibc version this process runs on, undefined with another C library (musl, macOS, Windows). */
export function glibcVersion(): string | undefined {
  const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined;
  return report?.header?.glibcVersionRuntime;
}

/**
 * A one-line hint when this process runs on glibc without the settings (undefined when they are
 * set or do not apply).
 */
export function allocatorHint(env: NodeJS.ProcessEnv = process.env, glibc: string | null = glibcVersion() ?? null): string | undefined {
  if (!glibc) return undefined;
  const missing = Object.keys(ALLOCATOR_ENV).filter((k) => env[k] === undefined);
  if (missing.length === 0) return undefined;
  const settings = Object.entries(ALLOCATOR_ENV).map(([k, v]) => `${k}=${v}`).join(' ');
  return `memory     glibc keeps memory freed after a load unless started with ${settings} (npm start does; docs/protocol.md#memory-under-load-issue-16)`;
}
