#!/bin/sh
# `npm start`: the bridge on the allocator under which it gives memory back after a load
# (src/cli/allocator-env.ts says why and keeps the same list of places). jemalloc when installed
# (apt-get install libjemalloc2), else glibc with two heaps. MOBILEBRIDGE_ALLOCATOR=glibc keeps glibc.
MALLOC_ARENA_MAX=2
export MALLOC_ARENA_MAX
if [ "${MOBILEBRIDGE_ALLOCATOR:-}" != glibc ]; then
  for lib in \
    /usr/lib/x86_64-linux-gnu/libjemalloc.so.2 \
    /usr/lib/aarch64-linux-gnu/libjemalloc.so.2 \
    /usr/lib64/libjemalloc.so.2 \
    /usr/lib/libjemalloc.so.2; do
    if [ -r "$lib" ]; then
      # What was added is noted, so the bridge takes it out again for the programs it starts (adb, ffmpeg, go-ios).
      [ -z "${MALLOC_CONF:-}" ] && MOBILEBRIDGE_ADDED_MALLOC_CONF=1 && export MOBILEBRIDGE_ADDED_MALLOC_CONF
      LD_PRELOAD="$lib${LD_PRELOAD:+:$LD_PRELOAD}"
      MALLOC_CONF="${MALLOC_CONF:-narenas:2,tcache:false,dirty_decay_ms:1000,muzzy_decay_ms:0,background_thread:true}"
      MOBILEBRIDGE_ADDED_PRELOAD="$lib"
      export LD_PRELOAD MALLOC_CONF MOBILEBRIDGE_ADDED_PRELOAD
      break
    fi
  done
fi
exec node "$(dirname "$0")/../dist/src/cli/main.js" serve "$@"
