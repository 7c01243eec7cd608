import { accessSync, constants, readFileSync } from 'node:fs';

/**
 * The C allocator a bridge runs on decides whether memory freed after a load goes back to the
 * system (issue 16). Node cannot call `malloc_trim`, and an allocator is chosen before the process
 * starts, so `npm start` (scripts/start.sh) and the systemd unit of docs/scale-out.md set it:
 *
 * - **jemalloc when installed** (Debian/Ubuntu `libjemalloc2`, preloaded with LD_PRELOAD): it hands
 *   freed pages back on its own within seconds. Measured with scripts/bench/load.ts: back to the
 *   pre-load figure after 30 s idle, where glibc stays 20–23 % above it. sharp recommends it for
 *   libvips' many-threaded work for the same reason.
 * - **else glibc with two heaps** (MALLOC_ARENA_MAX=2): with glibc's defaults every allocating
 *   thread may get a heap of its own, up to 8 × cores, each keeping what was freed in it; after
 *   the load the defaults kept ~160 MB against ~100 MB before it, two heaps ~128 MB. Other C
 *   libraries ignore the setting.
 *
 * Fixed mmap and trim thresholds of 256 KiB gave no more back and cost ~10 % of the frames.
 */
export const ALLOCATOR_ENV: Readonly<Record<string, string>> = {
  MALLOC_ARENA_MAX: '2',
};

/**
 * jemalloc's settings (MALLOC_CONF; one set by the user wins): two arenas, no per-thread caches,
 * freed pages handed back after 1 s by a background thread even when nothing allocates. With its
 * defaults (an arena per core × 4, thread caches for the ~40 threads) the load's peak was
 * 403–411 MB; with these 376 MB, for ~10 % fewer agent calls under saturation.
 */
export const JEMALLOC_CONF = 'narenas:2,tcache:false,dirty_decay_ms:1000,muzzy_decay_ms:0,background_thread:true';

/** Where Debian, Ubuntu, Fedora and Alpine put jemalloc's shared library; scripts/start.sh looks in the same places, in this order. */
export const JEMALLOC_PATHS: readonly string[] = [
  '/usr/lib/x86_64-linux-gnu/libjemalloc.so.2',
  '/usr/lib/aarch64-linux-gnu/libjemalloc.so.2',
  '/usr/lib64/libjemalloc.so.2',
  '/usr/lib/libjemalloc.so.2',
];

/** The first installed jemalloc, or undefined. */
export function installedJemalloc(paths: readonly string[] = JEMALLOC_PATHS): string | undefined {
  for (const p of paths) {
    try {
      accessSync(p, constants.R_OK);
      return p;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** The environment `npm start` gives the bridge on this machine (the load benchmark starts its server with it). */
export function startEnv(jemalloc = installedJemalloc()): Record<string, string> {
  return { ...ALLOCATOR_ENV, ...(jemalloc ? { LD_PRELOAD: jemalloc, MALLOC_CONF: JEMALLOC_CONF } : {}) };
}

/**
 * Takes out of `env` what scripts/start.sh added for this process alone (it names them in
 * MOBILEBRIDGE_ADDED_*): jemalloc's preload and settings are loaded by now, and programs the
 * bridge starts (an adb server that outlives it, ffmpeg, go-ios) should run as the user would
 * start them, not with a background thread of jemalloc's each. MALLOC_ARENA_MAX stays: it only
 * bounds glibc's heaps. A preload or settings of the user's own are left alone.
 */
export function dropStartOnlyEnv(env: NodeJS.ProcessEnv = process.env): void {
  const added = env.MOBILEBRIDGE_ADDED_PRELOAD;
  if (added && env.LD_PRELOAD !== undefined) {
    const rest = env.LD_PRELOAD.split(':');
    const at = rest.indexOf(added);
    if (at >= 0) rest.splice(at, 1);
    if (rest.length) env.LD_PRELOAD = rest.join(':');
    else delete env.LD_PRELOAD;
  }
  if (env.MOBILEBRIDGE_ADDED_MALLOC_CONF === '1') delete env.MALLOC_CONF;
  delete env.MOBILEBRIDGE_ADDED_PRELOAD;
  delete env.MOBILEBRIDGE_ADDED_MALLOC_CONF;
}

/** The glibc version this process runs on, undefined with another C library (musl, macOS, Windows). */
export function glibcVersion(): string | undefined {
  const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined;
  return report?.header?.glibcVersionRuntime;
}

/** True when jemalloc is loaded into this process (Linux: its mappings). */
export function jemallocLoaded(maps = readMaps()): boolean {
  return /\/libjemalloc[^/\n]*\.so/.test(maps);
}

function readMaps(): string {
  try {
    return readFileSync('/proc/self/maps', 'utf8');
  } catch {
    return '';
  }
}

/**
 * A one-line hint for the serve banner when this process runs on glibc's malloc without jemalloc
 * (undefined on jemalloc and on other C libraries): what to install or set, and what it changes.
 */
export function allocatorHint(
  env: NodeJS.ProcessEnv = process.env,
  glibc: string | null = glibcVersion() ?? null,
  jemalloc = jemallocLoaded(),
  installed: string | false = installedJemalloc() ?? false,
): string | undefined {
  if (!glibc || jemalloc) return undefined;
  const missing = Object.keys(ALLOCATOR_ENV).filter((k) => env[k] === undefined);
  const settings = Object.entries(ALLOCATOR_ENV).map(([k, v]) => `${k}=${v}`).join(' ');
  const more = missing.length === 0 ? 'glibc malloc keeps ~20 % more after a load' : `started without ${settings}: glibc will keep more of the memory freed after a load`;
  const docs = '(docs/protocol.md#memory-under-load-issue-16)';
  if (installed && env.MOBILEBRIDGE_ALLOCATOR === 'glibc') return `memory     ${more}; jemalloc (${installed}) is installed but skipped, as MOBILEBRIDGE_ALLOCATOR=glibc asks ${docs}`;
  if (installed) return `memory     ${more}; jemalloc is installed: start with npm start, or set LD_PRELOAD=${installed}, to use it ${docs}`;
  const install = 'with jemalloc (apt-get install libjemalloc2; npm start preloads it) memory freed after a load goes back to the system';
  if (missing.length === 0) return `memory     ${more}; ${install} ${docs}`;
  return `memory     ${more}; ${install}, else set ${settings} ${docs}`;
}
