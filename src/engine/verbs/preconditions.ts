import type { Observation, Preconditions } from '../../validate/index.js';
import { call } from './screen.js';
import { VerbError, type VerbContext } from './types.js';
import { deviceProperties } from './device-facts.js';

export interface PreconditionReport {
  observations: Observation[];
  /** Things a person must do before the result can count as passed. */
  manual: string[];
}

/**
 * Brings the device into the scenario's starting state where a tool can (SPEC §3 preconditions):
 * app_state through terminate + clear data, device_actions one by one, device_properties checked
 * and set. What cannot be done unattended is reported, never silently assumed.
 */
export async function applyPreconditions(ctx: VerbContext, pre: Preconditions | undefined, appPackage: string): Promise<PreconditionReport> {
  const report: PreconditionReport = { observations: [], manual: [] };
  if (!pre) return report;
  const note = (message: string) => report.observations.push({ type: 'state_context', step_id: null, message });
  const attempt = async (what: string, work: () => Promise<unknown>) => {
    try {
      await work();
      note(`precondition: ${what}`);
    } catch (err) {
      const e = err instanceof VerbError ? err : new VerbError('INTERNAL', String(err));
      if (e.code === 'UNSUPPORTED') {
        report.manual.push(`${what}: ${e.message}`);
        note(`precondition needs manual action: ${what} (${e.message})`);
      } else throw new VerbError(e.code, `precondition "${what}" failed: ${e.message}`);
    }
  };

  if (pre.app_state === 'fresh_install' || pre.app_state === 'logged_out') {
    await attempt(`terminate ${appPackage}`, () => call(ctx, 'mobile_terminate_app', { packageName: appPackage }));
    await attempt(`clear the data of ${appPackage} (${pre.app_state})`, () => call(ctx, 'mobile_clear_app_data', { packageName: appPackage }));
  } else if (pre.app_state === 'logged_in') {
    note('app_state logged_in cannot be set up by a tool: the scenario assumes the app is signed in');
  }

  for (const action of pre.device_actions ?? []) {
    const pkg = action.target_package ?? appPackage;
    switch (action.action) {
      case 'clear_app_data': await attempt(`clear the data of ${pkg}`, () => call(ctx, 'mobile_clear_app_data', { packageName: pkg })); break;
      case 'uninstall_app': await attempt(`uninstall ${pkg}`, () => call(ctx, 'mobile_uninstall_app', { bundle_id: pkg }).catch((e: unknown) => {
        // Already absent is the state asked for.
        if (!(e instanceof VerbError && e.code === 'APP_NOT_INSTALLED')) throw e;
      })); break;
      case 'install_app':
        if (!action.value) throw new VerbError('INVALID_PARAMETER', 'precondition install_app needs "value": the path of the .apk / .ipa file');
        await attempt(`install ${action.value}`, () => call(ctx, 'mobile_install_app', { path: action.value }));
        break;
      case 'enable_wifi':
      case 'disable_wifi': {
        const enabled = action.action === 'enable_wifi';
        await attempt(`turn Wi-Fi ${enabled ? 'on' : 'off'}`, () => call(ctx, 'mobile_set_wifi', { enabled }));
        break;
      }
      case 'set_orientation':
        await attempt(`set orientation ${action.value ?? 'portrait'}`, () => call(ctx, 'mobile_set_orientation', { orientation: action.value ?? 'portrait' }));
        break;
    }
  }

  const wanted = pre.device_properties;
  if (wanted) {
    const { orientation } = await call<{ orientation: string }>(ctx, 'mobile_get_orientation');
    if (orientation !== wanted.orientation) await attempt(`set orientation ${wanted.orientation}`, () => call(ctx, 'mobile_set_orientation', { orientation: wanted.orientation }));
    const props = await deviceProperties(ctx);
    const online = props.wifi ?? (props.network ? props.network !== 'disconnected' : undefined);
    if (wanted.network === 'disconnected' && online !== false) await attempt('turn Wi-Fi off (network disconnected)', () => call(ctx, 'mobile_set_wifi', { enabled: false }));
    else if ((wanted.network === 'wifi' || wanted.network === 'connected') && online !== true) await attempt('turn Wi-Fi on', () => call(ctx, 'mobile_set_wifi', { enabled: true }));
    else if (wanted.network === 'cellular') note('network cellular cannot be set by a tool: the scenario assumes a cellular connection');
    if (props.locationServices === undefined) note(`location services ${wanted.location_services} cannot be read on ${ctx.device}: assumed`);
    else if (props.locationServices !== (wanted.location_services === 'enabled')) report.manual.push(`turn location services ${wanted.location_services === 'enabled' ? 'on' : 'off'} in the device settings`);
  }
  for (const n of pre.notes ?? []) note(`note: ${n}`);
  return report;
}
