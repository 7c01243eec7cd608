import { ToolError, type ErrorCode } from '../../errors.js';

/*
 * What `pm install` prints when the device refuses a package: "Failure [<CODE>: <detail>]" (or
 * "Failure [<CODE>]"), codes from android.content.pm.PackageManager (INSTALL_FAILED_*, and
 * INSTALL_PARSE_FAILED_* from the package parser). adbkit's InstallError carries the bracket's text
 * as `code`. Each code becomes the SPEC code that says whose move it is: the file's
 * (INVALID_PARAMETER), the device's capability (UNSUPPORTED) or its owner's policy (PERMISSION_DENIED).
 */
interface Refusal {
  code: ErrorCode;
  reason: string;
}

const REFUSALS: Record<string, Refusal> = {
  INSTALL_FAILED_INVALID_APK: { code: 'INVALID_PARAMETER', reason: 'the file is not a valid APK (split APKs need all their parts)' },
  INSTALL_FAILED_ALREADY_EXISTS: { code: 'INVALID_PARAMETER', reason: 'the package is already installed and may not be replaced' },
  INSTALL_FAILED_DUPLICATE_PACKAGE: { code: 'INVALID_PARAMETER', reason: 'a package with this name already exists' },
  INSTALL_FAILED_UPDATE_INCOMPATIBLE: { code: 'INVALID_PARAMETER', reason: 'the installed copy is signed with another key; uninstall it first (its data is lost)' },
  INSTALL_FAILED_SHARED_USER_INCOMPATIBLE: { code: 'INVALID_PARAMETER', reason: 'its shared user id clashes with an installed package signed with another key' },
  INSTALL_FAILED_VERSION_DOWNGRADE: { code: 'INVALID_PARAMETER', reason: 'it is older than the installed version; uninstall the newer one first' },
  INSTALL_FAILED_TEST_ONLY: { code: 'INVALID_PARAMETER', reason: 'it is a test-only build (android:testOnly); build a release or debug APK without it' },
  INSTALL_FAILED_CONFLICTING_PROVIDER: { code: 'INVALID_PARAMETER', reason: 'another installed app already declares one of its content provider authorities (often another build flavour of the same app); uninstall that app, or give this build its own authority' },
  INSTALL_FAILED_DUPLICATE_PERMISSION: { code: 'INVALID_PARAMETER', reason: 'it declares a permission that an installed app signed with another key already defines (often another build of the same app); uninstall that app first' },
  INSTALL_FAILED_MISSING_SPLIT: { code: 'INVALID_PARAMETER', reason: 'it is one part of a split app whose other parts are missing; install the complete app (a universal APK, or all its splits)' },
  INSTALL_FAILED_PERMISSION_MODEL_DOWNGRADE: { code: 'INVALID_PARAMETER', reason: 'it targets an SDK below 23 while the installed version uses runtime permissions; uninstall the installed version first' },
  INSTALL_FAILED_NO_SHARED_USER: { code: 'INVALID_PARAMETER', reason: 'it asks for a shared user id that does not exist on the device' },
  INSTALL_FAILED_OLDER_SDK: { code: 'UNSUPPORTED', reason: "it needs a newer Android version than the device's (minSdkVersion too high)" },
  INSTALL_FAILED_NEWER_SDK: { code: 'UNSUPPORTED', reason: "it needs an older Android version than the device's (maxSdkVersion too low)" },
  INSTALL_FAILED_DEPRECATED_SDK_VERSION: { code: 'UNSUPPORTED', reason: 'it targets an SDK level this Android refuses (Android 14 needs targetSdkVersion 23 or higher); rebuild it with a newer targetSdkVersion' },
  INSTALL_FAILED_CPU_ABI_INCOMPATIBLE: { code: 'UNSUPPORTED', reason: "its native code is built for another CPU than the device's" },
  INSTALL_FAILED_NO_MATCHING_ABIS: { code: 'UNSUPPORTED', reason: "its native libraries are built for another CPU (ABI) than the device's; build one that includes the device's ABI" },
  INSTALL_FAILED_MISSING_FEATURE: { code: 'UNSUPPORTED', reason: 'it requires a hardware or software feature the device lacks' },
  INSTALL_FAILED_MISSING_SHARED_LIBRARY: { code: 'UNSUPPORTED', reason: 'it needs a shared library the device does not have' },
  INSTALL_FAILED_INSUFFICIENT_STORAGE: { code: 'UNSUPPORTED', reason: 'the device does not have enough free storage; free some space and try again' },
  INSTALL_FAILED_USER_RESTRICTED: { code: 'PERMISSION_DENIED', reason: 'installing over USB is not allowed on the device (e.g. MIUI: enable "Install via USB" in Developer options; or a user/work-profile restriction)' },
  INSTALL_FAILED_VERIFICATION_TIMEOUT: { code: 'PERMISSION_DENIED', reason: "the device's package verifier (e.g. Play Protect) did not answer in time; try again, or turn off \"Verify apps over USB\"" },
  INSTALL_FAILED_INVALID_INSTALL_LOCATION: { code: 'UNSUPPORTED', reason: 'the device cannot install it where it asks to be installed (android:installLocation)' },
  INSTALL_FAILED_MEDIA_UNAVAILABLE: { code: 'UNSUPPORTED', reason: 'the storage it is to be installed on (an SD card or adopted storage) is not available' },
  INSTALL_FAILED_VERIFICATION_FAILURE: { code: 'PERMISSION_DENIED', reason: "the device's package verifier (e.g. Play Protect) rejected it; allow it on the device or turn off \"Verify apps over USB\"" },
  INSTALL_FAILED_ABORTED: { code: 'PERMISSION_DENIED', reason: 'the install was cancelled on the device (its confirmation prompt was declined or timed out); confirm the prompt on the phone' },
};

const PARSE_FAILURE: Refusal = { code: 'INVALID_PARAMETER', reason: 'the device could not read the APK' };
const PARSE_REASONS: Record<string, string> = {
  INSTALL_PARSE_FAILED_NO_CERTIFICATES: 'the APK is not signed (or its signature is unreadable); sign it with apksigner or a debug key',
  INSTALL_PARSE_FAILED_INCONSISTENT_CERTIFICATES: 'its files are signed with different keys; sign it again',
  INSTALL_PARSE_FAILED_CERTIFICATE_ENCODING: 'its signature is malformed; sign it again',
  INSTALL_PARSE_FAILED_NOT_APK: 'the file is not an APK',
  INSTALL_PARSE_FAILED_BAD_MANIFEST: 'its AndroidManifest.xml is broken',
  INSTALL_PARSE_FAILED_MANIFEST_MALFORMED: 'its AndroidManifest.xml is malformed',
  INSTALL_PARSE_FAILED_BAD_PACKAGE_NAME: 'its package name is invalid',
};

/** The ToolError for a refused install, or undefined when `failure` (adbkit's code text) names no known refusal. */
export function installRefusal(failure: string, serial: string, path: string): ToolError | undefined {
  const code = /^(INSTALL_[A-Z_]+)/.exec(failure.trim())?.[1];
  if (!code) return undefined;
  const refusal = REFUSALS[code] ?? (code.startsWith('INSTALL_PARSE_FAILED_') ? { ...PARSE_FAILURE, reason: PARSE_REASONS[code] ?? PARSE_FAILURE.reason } : undefined);
  if (!refusal) return undefined;
  return new ToolError(refusal.code, `${serial} refused to install ${path}: ${refusal.reason} [${failure.trim()}]`);
}
