import { ToolError } from '../../errors.js';
import { isSecurityException } from './shell-output.js';

/** `input` and a dying monkey both name INJECT_EVENTS (InputManagerService's check) when injection is forbidden. */
function isInjectionDenied(out: string): boolean {
  return /INJECT_EVENTS|Injecting (input events|to another application)/i.test(out);
}

/**
 * Throws PERMISSION_DENIED when a shell command's output says the phone refused it: a refused
 * injection names the setting that allows it (MIUI/HyperOS), anything else quotes the phone.
 */
export function throwIfDenied(out: string, serial: string, what: string): void {
  if (!isSecurityException(out)) return;
  const line = out.trim().split('\n').find((l) => isSecurityException(l)) ?? out.trim();
  if (isInjectionDenied(out)) {
    throw new ToolError(
      'PERMISSION_DENIED',
      `${serial} does not let adb inject input, so ${what} did not happen: turn on "USB debugging (Security settings)" in Developer options ` +
        `(Xiaomi/Redmi/POCO with MIUI or HyperOS; it needs a signed-in Mi account), then try again. Device said: ${line.trim()}`,
    );
  }
  throw new ToolError('PERMISSION_DENIED', `${serial} denied ${what}: ${line}`);
}
