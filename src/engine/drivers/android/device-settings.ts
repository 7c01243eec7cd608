import type { CallContext, DeviceProperties } from '../../driver.js';
import { ToolError } from '../../errors.js';
import { shellQuote } from './adb-client.js';
import { parseWifiOn, SEPARATOR } from './shell-output.js';

/** The device's shell, as links, Wi-Fi and device properties use it (one `exec:` round trip each). */
export interface SettingsShell {
  serial: string;
  text(command: string, ctx: CallContext, what: string): Promise<string>;
  /** `text`, with a SecurityException in the output reported as PERMISSION_DENIED. */
  checkedText(command: string, ctx: CallContext, what: string): Promise<string>;
}

export async function openUrl(shell: SettingsShell, url: string, ctx: CallContext): Promise<void> {
  const out = await shell.checkedText(`am start -a android.intent.action.VIEW -d ${shellQuote(url)}`, ctx, `opening ${url}`);
  if (/unable to resolve Intent|No Activity found/i.test(out)) {
    throw new ToolError('INVALID_PARAMETER', `no app on ${shell.serial} handles ${url}; install the app for this link or check the URL`);
  }
  if (/^Error/m.test(out)) throw new ToolError('INTERNAL', `opening ${url} on ${shell.serial} failed: ${out.trim()}`);
}

/** `cmd wifi` from Android 11; `svc wifi` before (and as the fallback when cmd has no wifi service). */
export async function setWifi(shell: SettingsShell, enabled: boolean, ctx: CallContext): Promise<void> {
  const state = enabled ? 'enabled' : 'disabled';
  await shell.checkedText(`cmd wifi set-wifi-enabled ${state} || svc wifi ${enabled ? 'enable' : 'disable'}`, ctx, 'switching Wi-Fi');
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
