import type { CommandResult } from './shell-command.js';

/*
 * `cmd wifi …` by release, for the shell user (uid 2000):
 * - Android 7: the wifi service implements no shell command; Binder.onShellCommand's default prints
 *   "No shell command implementation." on stderr and reports 0, so `cmd` exits 0 having done nothing.
 * - Android 8–10: WifiShellCommand.onCommand calls checkRootPermission before the switch on the
 *   command (frameworks/opt/net/wifi service/java/com/android/server/wifi/WifiShellCommand.java);
 *   the SecurityException escapes to ShellCommand.exec, which prints "Security exception: <message>",
 *   an empty line and the stack trace on stderr, and reports -1 (exit 255).
 * - Android 11+: WifiShellCommand has set-wifi-enabled for the shell user.
 * Undefined when the release carries out the command (the caller does).
 */
export function wifiShellRefusal(sdk: number): CommandResult | undefined {
  if (sdk < 26) return { out: '', err: 'No shell command implementation.\n', code: 0 };
  if (sdk >= 30) return undefined;
  const message = 'Uid 2000 does not have access to wifi commands';
  const frames = [
    'com.android.server.wifi.WifiShellCommand.checkRootPermission(WifiShellCommand.java:405)',
    'com.android.server.wifi.WifiShellCommand.onCommand(WifiShellCommand.java:69)',
    'android.os.ShellCommand.exec(ShellCommand.java:104)',
    'com.android.server.wifi.WifiServiceImpl.onShellCommand(WifiServiceImpl.java:2901)',
  ];
  return { out: '', err: `Security exception: ${message}\n\njava.lang.SecurityException: ${message}\n${frames.map((f) => `\tat ${f}\n`).join('')}`, code: 255 };
}
