import { escaped, type CommandResult } from './shell-command.js';

/*
 * What `input` prints when an exception escapes it: from Android 12 it is `cmd input` (InputShellCommand,
 * reported by BasicShellCommandHandler, exit 255); before, Input.java under app_process, whose uncaught
 * exception the runtime prints as a stack trace on stderr before the process dies (exit 1).
 */

/**
 * InputManagerService refusing injection (MIUI without "USB debugging (Security settings)"): the message
 * changed in Android 13 (injectInputEventToTarget; injectInputEventInternal before).
 */
export function injectionRefused(verb: string, sdk: number): CommandResult {
  const message = sdk >= 33
    ? 'java.lang.SecurityException: Injecting input events requires the caller (or the source of the instrumentation, if any) to have the INJECT_EVENTS permission.'
    : 'java.lang.SecurityException: Injecting to another application requires INJECT_EVENTS permission';
  return inputException(verb, sdk, message, sdk >= 31 ? 'InputShellCommand.injectMotionEvent(InputShellCommand.java:182)' : 'Input.injectMotionEvent(Input.java:428)');
}

/** sendText: KeyCharacterMap.getEvents gives null for text the virtual keyboard map cannot type, and the loop over it throws before any key is sent. */
export function untypableText(sdk: number): CommandResult {
  return inputException('text', sdk, 'java.lang.NullPointerException: Attempt to get length of null array', sdk >= 31 ? 'InputShellCommand.sendText(InputShellCommand.java:366)' : 'Input.sendText(Input.java:168)');
}

function inputException(verb: string, sdk: number, exception: string, frame: string): CommandResult {
  if (sdk >= 31) return escaped(verb, sdk, exception, [`com.android.server.input.${frame}`]);
  return { out: '', err: `${exception}\n\tat com.android.commands.input.${frame}\n\tat com.android.commands.input.Input.main(Input.java:65)\n`, code: 1 };
}
