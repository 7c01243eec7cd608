import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { CallContext } from '../../driver.js';

/** What the pushed install needs of its device. */
export interface PushIo {
  text(command: string, ctx: CallContext, what: string): Promise<string>;
  /** Writes `data` to `path` on the device over adb's sync service. */
  push(data: Buffer, path: string, ctx: CallContext): Promise<void>;
}

/** How long removing the copy may take after an install that failed or was stopped. */
const CLEANUP_MS = 5_000;

/**
 * The install adb itself uses where a device has no streamed install (adb_install.cpp
 * install_app_legacy): the APK pushed to /data/local/tmp, `pm install -r <path>` (Pm.java before
 * Android 8, PackageManagerShellCommand runInstall after: "Success" or "Failure [<code>]"), and the
 * copy removed in the same round trip. Unlike a session it cannot be taken back once `pm` has it.
 * Resolves to what `pm install` printed.
 */
export async function pushedInstall(io: PushIo, path: string, ctx: CallContext): Promise<string> {
  const remote = `/data/local/tmp/mobilebridge-${randomBytes(4).toString('hex')}.apk`;
  try {
    await io.push(await readFile(path), remote, ctx);
    return await io.text(`pm install -r ${remote}; rm -f ${remote}`, ctx, 'installing');
  } catch (err) {
    // A push cut short, or an install stopped by the deadline, leaves the copy behind: no device space is left used by us.
    await io.text(`rm -f ${remote}`, { signal: AbortSignal.timeout(CLEANUP_MS) }, 'removing the pushed APK').catch(() => undefined);
    throw err;
  }
}
