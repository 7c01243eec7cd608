import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { getScrcpyJar } from '@u4/minicap-prebuilt';
import { ToolError } from '../../../errors.js';

export const SCRCPY_VERSION = '3.3.1';
/** SHA-256 of the official scrcpy-server v3.3.1 release, as shipped in @u4/minicap-prebuilt 1.1.2. */
export const SCRCPY_JAR_SHA256 = 'a0f70b20aa4998fbf658c94118cd6c8dab6abbb0647a3bdab344d70bc1ebcbb8';
/** The folder of scrcpy's own jar path (server.c SC_DEVICE_SERVER_PATH). */
export const DEVICE_JAR_DIR = '/data/local/tmp';
/** The name of every jar deviceJarPath gives (the scid is 8 hex digits), as a shell glob: no other tool's file matches. */
export const DEVICE_JAR_GLOB = `scrcpy-server-${'[0-9a-f]'.repeat(8)}.jar`;

/**
 * Where one launch pushes the jar: scrcpy's folder, one file per launch. A starting server unlinks the
 * jar it runs from (cleanup=true: Server.scrcpy starts CleanUp's own app_process once the options are
 * parsed, and its main calls unlinkSelf), so with one shared file a second launch on the phone (another
 * bridge, a `call` typing Unicode beside a streaming bridge) could lose its jar between its push and its
 * app_process and fail to start. A server that dies before that leaves its jar: see leftover-jars.ts.
 */
export function deviceJarPath(socketName: string): string {
  return `${DEVICE_JAR_DIR}/${socketName.replace('scrcpy_', 'scrcpy-server-')}.jar`;
}

let verified: Buffer | undefined;

/**
 * The server jar's bytes, read once from the registry package and checked against the pinned hash:
 * a jar that is missing or differs from the release is never pushed to a phone.
 */
export function scrcpyServerJar(locate: () => string = defaultLocation): Buffer {
  if (verified && locate === defaultLocation) return verified;
  let file: string;
  let bytes: Buffer;
  try {
    file = locate();
    bytes = fs.readFileSync(file);
  } catch (err) {
    throw new ToolError('UNSUPPORTED', `scrcpy-server ${SCRCPY_VERSION} is not installed (${(err as Error).message}); run "npm install" so @u4/minicap-prebuilt provides it`);
  }
  const hash = createHash('sha256').update(bytes).digest('hex');
  if (hash !== SCRCPY_JAR_SHA256) {
    throw new ToolError('UNSUPPORTED', `scrcpy-server ${SCRCPY_VERSION} at ${file} has SHA-256 ${hash}, not the release's ${SCRCPY_JAR_SHA256}; reinstall @u4/minicap-prebuilt (npm ci) instead of pushing an unknown jar`);
  }
  if (locate === defaultLocation) verified = bytes;
  return bytes;
}

function defaultLocation(): string {
  return getScrcpyJar(SCRCPY_VERSION);
}
