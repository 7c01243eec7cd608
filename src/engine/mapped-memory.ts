/**
 * Shared memory for screen-sized pixel buffers, sized so that glibc maps it on its own.
 *
 * glibc serves a request below its mmap threshold from the heap, and it raises that threshold to
 * the size of every mapped block freed, up to 32 MiB. So after the first screen is freed, every
 * later 2–12 MB screen buffer lands in the heap, and once freed it stays there: small allocations
 * made meanwhile pin it, and Node cannot call `malloc_trim` (issue 16: after a load, the main
 * heap held 54 MB free in 1,858 chunks). A request of at least 32 MiB is always mapped and
 * unmapped on free. Pages never written are never resident, so the unused tail costs address
 * space, not memory: a 10 MB screen in a 32 MiB block is 10 MB of RSS. (A host with strict
 * overcommit, vm.overcommit_memory=2, does charge the whole block against its commit limit.)
 */
const ALWAYS_MAPPED = 32 * 1024 * 1024;

/** Zero-filled shared memory of at least `bytes` (use the first `bytes`), returned to the system when collected. */
export function mappedSharedMemory(bytes: number): SharedArrayBuffer {
  return new SharedArrayBuffer(Math.max(bytes, ALWAYS_MAPPED));
}
