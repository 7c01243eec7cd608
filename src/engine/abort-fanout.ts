/**
 * Callbacks waiting on one AbortSignal, behind a single listener. A caller may hand the same
 * signal to many requests at once (one "stop everything" for a batch of calls); a listener per
 * request would make Node warn about a leak (MaxListenersExceededWarning past ten listeners on
 * an EventTarget) on the caller's signal, for bookkeeping that is ours.
 */
const waiting = new WeakMap<AbortSignal, Set<() => void>>();

/** Runs `fn` once when `signal` aborts; call the returned function when it no longer matters. */
export function onAbort(signal: AbortSignal, fn: () => void): () => void {
  let fns = waiting.get(signal);
  if (!fns) {
    const created = new Set<() => void>();
    fns = created;
    waiting.set(signal, created);
    signal.addEventListener(
      'abort',
      () => {
        waiting.delete(signal);
        for (const f of created) f();
      },
      { once: true },
    );
  }
  fns.add(fn);
  const mine = fns;
  return () => void mine.delete(fn);
}
