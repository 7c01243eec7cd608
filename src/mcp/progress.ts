import type { RequestExtra } from './protocol-errors.js';

/**
 * While a call that carries `_meta.progressToken` runs, a progress notification every `everyMs`.
 * A verb may wait a minute (wait_for up to 60 s, scroll_to's swipes), as long as SDK clients wait
 * for an answer by default; a client that resets its deadline on progress keeps waiting instead of
 * giving up on a call that is about to answer. The count only grows, as the spec requires; there
 * is no total, since how long a wait lasts depends on the screen. Returns the stop function.
 */
export function progressBeats(extra: RequestExtra, everyMs: number): () => void {
  const token = extra._meta?.progressToken;
  if (token === undefined) return () => undefined;
  const started = Date.now();
  let beats = 0;
  const timer = setInterval(() => {
    beats += 1;
    const seconds = Math.round((Date.now() - started) / 1000);
    extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: beats, message: `still running after ${seconds} s` } }).catch(() => undefined);
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
