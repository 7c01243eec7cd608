/**
 * Whether a process with this pid exists on this host. Signal 0 checks without sending anything;
 * EPERM means it exists but belongs to another user. (A pid can be reused: callers that must know
 * it is the same process also compare its start time.)
 */
export function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
