import { deviceTool, success } from './define.js';
import { device, packageName, params, requiredString } from './params.js';

export const appTools = [
  deviceTool({
    name: 'mobile_launch_app',
    description:
      'Launch an installed app (or bring it to the foreground) by Android package name or iOS bundle id. ' +
      'Use mobile_list_apps to find the id. Returns {status, message}; on Android once the app has drawn its first frame, and the message says when it was only brought to the front, ' +
      'or when Android could not confirm that frame although the app is in front (look before relying on the screen), or could confirm nothing (a device that does not say which app is in front: "not confirmed"), and when it woke the screen or dismissed a swipe lock to show the app; ' +
      'on iOS once WebDriverAgent reports the app in front, and the message says when WebDriverAgent could not be asked. ' +
      'Errors: APP_NOT_INSTALLED when the package is not on the device (install it first), PERMISSION_DENIED when a PIN, pattern or password lock keeps the app hidden (unlock the phone), INTERNAL when the app did not come up (it may have crashed while starting; the message names the app in front), UNSUPPORTED when the device has no way to start it (no launcher activity query and no monkey), DEVICE_NOT_FOUND, INVALID_PARAMETER for a malformed id.',
    params: params({ device, packageName: packageName('packageName') }),
    mutates: true,
    async handler(p, ctx) {
      const note = await ctx.device.launchApp(p.packageName, ctx);
      return success(`launched ${p.packageName} on ${p.device}${note ? `; ${note}` : ''}`);
    },
  }),
  deviceTool({
    name: 'mobile_terminate_app',
    description:
      'Stop a running app by package name or bundle id. Succeeds also when the app was not running, and then says so where the platform tells (not Android). ' +
      'Errors: APP_NOT_INSTALLED when no such package is installed.',
    params: params({ device, packageName: packageName('packageName') }),
    mutates: true,
    async handler(p, ctx) {
      const wasRunning = await ctx.device.terminateApp(p.packageName, ctx);
      return success(wasRunning === false ? `${p.packageName} was not running on ${p.device}; nothing to terminate` : `terminated ${p.packageName} on ${p.device}`);
    },
  }),
  deviceTool({
    name: 'mobile_install_app',
    description:
      'Install an app from a file on the machine running mobilebridge: an .apk for Android, an .ipa or .app for iOS. ' +
      'The path must be under the working directory, the temp directory or a folder allowed with --allow-path. ' +
      'Errors: INVALID_PARAMETER when the file is missing or not an app for this platform, PERMISSION_DENIED for a path outside the allowed folders, ' +
      'TIMEOUT when the install did not finish in time (on Android the install is then abandoned on the phone and the message says so; confirm the phone\'s install prompt and try again).',
    params: params({ device, path: requiredString('path', 'path to an .apk (Android) or .ipa/.app (iOS) file') }),
    mutates: true,
    timeoutMs: 180_000,
    timeoutNote:
      'the install may still finish: the phone may be waiting for its own confirmation (MIUI, ColorOS and Vivo ask before installing over USB; Play Protect may ask to scan the app), so confirm it on the phone, then check with mobile_list_apps',
    async handler(p, ctx) {
      const file = await ctx.files.readable(p.path, 'path', { allowFolder: true });
      const { package: pkg } = await ctx.device.installApp(file, ctx);
      return success(`installed ${pkg} from ${file} on ${p.device}`);
    },
  }),
  deviceTool({
    name: 'mobile_uninstall_app',
    description:
      'Uninstall an app by package name or bundle id. Errors: APP_NOT_INSTALLED when it is not installed, PERMISSION_DENIED for system apps the device refuses to remove.',
    params: params({ device, bundle_id: packageName('bundle_id') }),
    mutates: true,
    timeoutMs: 60_000,
    async handler(p, ctx) {
      await ctx.device.uninstallApp(p.bundle_id, ctx);
      return success(`uninstalled ${p.bundle_id} from ${p.device}`);
    },
  }),
  deviceTool({
    name: 'mobile_list_apps',
    description: 'List the launchable apps installed on the device: [{package, name, version, installed, labelUnknown?}]. labelUnknown: true means the device did not tell the label and name is the package id. Use the package value with mobile_launch_app.',
    params: params({ device }),
    mutates: false,
    async handler(_p, ctx) {
      return { apps: await ctx.device.listApps(ctx) };
    },
  }),
  deviceTool({
    name: 'mobile_clear_app_data',
    description:
      "Erase an app's data and cache (like a fresh install) without uninstalling it. Android and virtual devices only; on iOS it fails with UNSUPPORTED (reinstall the app instead). Errors: APP_NOT_INSTALLED; UNSUPPORTED on an Android device without `pm clear`.",
    params: params({ device, packageName: packageName('packageName') }),
    mutates: true,
    async handler(p, ctx) {
      await ctx.device.clearAppData(p.packageName, ctx);
      return success(`cleared the data of ${p.packageName} on ${p.device}`);
    },
  }),
  deviceTool({
    name: 'mobile_get_foreground_app',
    description: 'Return the app currently in the foreground: {package, name?}. Useful to check that a launch or a deep link landed.',
    params: params({ device }),
    mutates: false,
    async handler(_p, ctx) {
      return ctx.device.foregroundApp(ctx);
    },
  }),
];

