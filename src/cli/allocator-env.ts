/**
 * glibc malloc settings under which a bridge gives more of its memory back after a load (issue 16).
 *
 * With glibc's defaults every thread that allocates may get a heap of its own, up to 8 × cores,
 * and each keeps what was freed in it: the frame pipeline's native work (libvips encoding on its
 * own threads, screens and sockets on the event loop) spreads over many of them. Node cannot call
 * `malloc_trim`, and glibc reads the setting only when the process starts, so it goes in the
 * environment of `npm start` (package.json) and of any service that runs `mobilebridge serve`.
 * Other C libraries ignore it.
 *
 * Measured with scripts/bench/load.ts (docs/protocol.md, "Memory under load"), screen buffers
 * already mapped on their own (mapped-memory.ts): after the load the defaults kept ~160 MB against
 * ~100 MB before it, two heaps ~128 MB, at the same frame rate. Fixed mmap and trim thresholds of
 * 256 KiB gave no more back and cost ~10 % of the frames.
 */
export const ALLOCATOR_ENV: Readonly<Record<string, string>> = {
  MALLOC_ARENA_MAX: '2',
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
  return `memory     started without ${settings}: glibc will keep more of the memory freed after a load (npm start sets it; docs/protocol.md#memory-under-load-issue-16)`;
}
