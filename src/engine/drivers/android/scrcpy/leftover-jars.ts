import { execOnDevice, type AdbDeviceClient } from '../adb-client.js';
import { DEVICE_JAR_DIR, DEVICE_JAR_GLOB } from './server-jar.js';

/**
 * A launch starts its server right after its push, and the server unlinks its jar within a second or
 * two: a jar whose push ended this long ago belongs to no launch still starting, on any host.
 */
const LEFTOVER_AFTER_MINUTES = 10;
/** Removing our own jar after a failed launch waits this long at most: the launch's own error is what matters. */
const REMOVE_TIMEOUT_MS = 3_000;

/**
 * The shell command, run before app_process in the launch's own line (no extra round trip), that deletes
 * the jars of launches whose server died before unlinking them (a bridge killed between push and start,
 * a phone unplugged then). toybox find (Android 6+) has -delete from 0.7.0 (Android 7) and -cmin from
 * 0.7.3 (Android 8); older ones refuse the expression ("bad arg") and delete nothing, and Android 5 has
 * no find. -cmin, not -mmin: the mtime is the pushing host's clock (adb's sync DONE), which may be off
 * by more than the threshold, while the inode's change time is the phone's own, set as the push ended.
 * toybox prints what it deletes (-delete does not turn off the default -print), so the output goes
 * where the server's console would not see it.
 */
export function leftoverJarSweep(): string {
  return `find ${DEVICE_JAR_DIR} -maxdepth 1 -type f -name '${DEVICE_JAR_GLOB}' -cmin +${LEFTOVER_AFTER_MINUTES} -delete >/dev/null 2>&1`;
}

/**
 * Deletes the jar of a launch of ours that failed: a server that exits before CleanUp unlinks its jar
 * (a refused option or version) or never runs leaves it behind. Best effort: the launch's own error is
 * reported either way, and a later launch's sweep catches what this misses.
 */
export async function removeJar(device: AdbDeviceClient, path: string): Promise<void> {
  await execOnDevice(device, `rm -f ${path}`, AbortSignal.timeout(REMOVE_TIMEOUT_MS)).catch(() => undefined);
}
