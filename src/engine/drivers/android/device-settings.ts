import { sleep } from '../../deadline.js';
import type { CallContext, DeviceProperties } from '../../driver.js';
import { ToolError } from '../../errors.js';
import { releaseBefore } from './android-release.js';
import { parseWifiOn, SEPARATOR } from './shell-output.js';

/** The device's shell, as links, Wi-Fi and device properties use it (one `exec:` round trip each). */
export interface SettingsShell {
  serial: string;
  /** ro.build.version.release ("7.1.2", "14"). */
  release: string;
  text(command: string, ctx: CallContext, what: string): Promise<string>;
  /** `text`, with a SecurityException in the output reported as PERMISSION_DENIED. */
  checkedText(command: string, ctx: CallContext, what: string): Promise<string>;
  /** Throws PERMISSION_DENIED when `out` holds a SecurityException. */
  checkSecurity(out: string, what: string): void;
}

/** How long the Wi-Fi setting may take to follow the switch (it is stored from the wifi thread). */
const WIFI_CONFIRM_MS = 3000;
const WIFI_POLL_MS = 250;

/**
 * The command that switches Wi-Fi on `release`. WifiShellCommand has `set-wifi-enabled` from
 * Android 11; `svc wifi` works on every release (from 11 it calls the same shell command). Older
 * `cmd wifi` is no fallback chain's first step: Android 8–10's WifiShellCommand.onCommand refuses
 * any caller but root before looking at the command (checkRootPermission: "Security exception: Uid
 * 2000 does not have access to wifi commands", exit 255), which read as a refusal although `svc`
 * then switched Wi-Fi; Android 7's wifi service has no shell command (Binder.onShellCommand: "No
 * shell command implementation.", exit 0), so `|| svc` never ran and Wi-Fi stayed as it was.
 */
export function wifiCommand(release: string, enabled: boolean): string {
  const svc = `svc wifi ${enabled ? 'enable' : 'disable'}`;
  return releaseBefore(release, 11) ? svc : `cmd wifi set-wifi-enabled ${enabled ? 'enabled' : 'disabled'} || ${svc}`;
}

/**
 * Both commands exit 0 whatever WifiManager.setWifiEnabled answered (WifiShellCommand ignores its
 * result), so a refused switch (a device policy, a user restriction) looked done: the stored setting
 * is read back until it shows the new state. A SecurityException in the output counts only when the
 * setting did not follow: a `cmd` refused before an `svc` that did the work is no failure.
 */
export async function setWifi(shell: SettingsShell, enabled: boolean, ctx: CallContext): Promise<void> {
  const out = await shell.text(wifiCommand(shell.release, enabled), ctx, 'switching Wi-Fi');
  const deadline = Date.now() + WIFI_CONFIRM_MS;
  let seen: boolean | undefined;
  for (;;) {
    seen = parseWifiOn(await shell.text('settings get global wifi_on', ctx, 'reading the Wi-Fi setting'));
    // A build that does not show the setting cannot confirm nor deny: the switch is taken as done.
    if (seen === undefined || seen === enabled) return;
    if (Date.now() >= deadline) break;
    // The call's deadline ends the wait too (a stuck read-back must not poll on after the tool answered).
    await sleep(WIFI_POLL_MS, ctx.signal);
  }
  shell.checkSecurity(out, 'switching Wi-Fi');
  throw new ToolError(
    'INTERNAL',
    `Wi-Fi on ${shell.serial} is still ${seen ? 'on' : 'off'} ${WIFI_CONFIRM_MS / 1000} s after switching it ${enabled ? 'on' : 'off'} (Android accepted the command without doing it): a device policy or user restriction may forbid changing Wi-Fi; switch it in Settings by hand, or lift the restriction`,
  );
}

/** Dark mode, Wi-Fi, API level and keyboard in one round trip; a value the output does not show is left out. */
export async function readProperties(shell: SettingsShell, ctx: CallContext): Promise<DeviceProperties> {
  const out = await shell.text(
    `cmd uimode night; echo ${SEPARATOR}; settings get global wifi_on; echo ${SEPARATOR}; getprop ro.build.version.sdk; echo ${SEPARATOR}; dumpsys input_method`,
    ctx, 'reading device properties',
  );
  const [night = '', wifi = '', sdk = '', ime = ''] = out.split(SEPARATOR);
  const props: DeviceProperties = {};
  if (/Night mode: (yes|no)/.test(night)) props.darkMode = /Night mode: yes/.test(night);
  const wifiOn = parseWifiOn(wifi);
  if (wifiOn !== undefined) props.wifi = wifiOn;
  if (/^\s*\d+\s*$/.test(sdk)) props.apiLevel = Number(sdk.trim());
  if (/mInputShown=(true|false)/.test(ime)) props.keyboardVisible = /mInputShown=true/.test(ime);
  return props;
}
