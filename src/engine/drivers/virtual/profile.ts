import type { DeviceInfo } from '../../types.js';

export type Platform = 'android' | 'ios';
/** Which virtual device to make: the platform's phone, or the iPad (an iOS device with another screen). */
export type VirtualModel = Platform | 'ipad';

/** Everything that differs between the virtual Android and iOS phones, kept as data. */
export interface DeviceProfile {
  platform: Platform;
  info: DeviceInfo;
  /** Android API level of `info.version` (Android 14 is 34); iOS has none. */
  apiLevel?: number;
  /** Portrait size in device pixels. */
  width: number;
  height: number;
  /** Device pixels per dp / point. */
  density: number;
  statusBarDp: number;
  /** System area at the bottom (gesture bar / home indicator). */
  bottomInsetDp: number;
  /** Soft keyboard height in portrait and in landscape. */
  keyboardDp: { portrait: number; landscape: number };
  launcher: string;
  /**
   * Whether the home screen turns with the phone. An iPhone's SpringBoard stays portrait (WebDriverAgent
   * answers "Unable To Rotate Device" there); Android's launcher and an iPad's home screen turn.
   */
  homeScreenTurns: boolean;
  browser: string;
  settings: string;
  /** Package owning system overlays such as the permission dialog. */
  permissionController: string;
  /** Where installable files come from. */
  packageExtensions: string[];
  wording: { deny: string; allow: string; back: string };
  fontFamily: string;
}

export const DEMO_PACKAGE = 'com.mobilebridge.demo';

export const ANDROID_PROFILE: DeviceProfile = {
  platform: 'android',
  info: { id: 'virtual-android-1', os: 'Android', model: 'Virtual Pixel 8', version: '14', state: 'ready' },
  apiLevel: 34,
  width: 1080,
  height: 2400,
  density: 2.625,
  statusBarDp: 24,
  bottomInsetDp: 24,
  keyboardDp: { portrait: 260, landscape: 180 },
  launcher: 'com.google.android.apps.nexuslauncher',
  homeScreenTurns: true,
  browser: 'com.android.chrome',
  settings: 'com.android.settings',
  permissionController: 'com.google.android.permissioncontroller',
  packageExtensions: ['.apk'],
  wording: { deny: "Don't allow", allow: 'Allow', back: 'Navigate up' },
  fontFamily: 'DejaVu Sans, sans-serif',
};

export const IOS_PROFILE: DeviceProfile = {
  platform: 'ios',
  info: { id: 'virtual-ios-1', os: 'iOS', model: 'Virtual iPhone 15', version: '17.5', state: 'ready' },
  width: 1179,
  height: 2556,
  density: 3,
  statusBarDp: 54,
  bottomInsetDp: 34,
  keyboardDp: { portrait: 291, landscape: 171 },
  launcher: 'com.apple.springboard',
  homeScreenTurns: false,
  browser: 'com.apple.mobilesafari',
  settings: 'com.apple.Preferences',
  permissionController: 'com.apple.springboard',
  packageExtensions: ['.ipa', '.app'],
  wording: { deny: 'Don’t Allow', allow: 'Allow', back: 'Back' },
  fontFamily: 'DejaVu Sans, sans-serif',
};

/**
 * iPad Pro 13-inch (M4): 2064×2752 px at scale 2 (1032×1376 points). iPadOS's status bar (24 pt) and home
 * indicator (20 pt) are slimmer than an iPhone's, its keyboard taller, and its home screen turns.
 */
export const IPAD_PROFILE: DeviceProfile = {
  ...IOS_PROFILE,
  info: { id: 'virtual-ipad-1', os: 'iOS', model: 'Virtual iPad Pro 13-inch (M4)', version: '17.5', state: 'ready' },
  width: 2064,
  height: 2752,
  density: 2,
  statusBarDp: 24,
  bottomInsetDp: 20,
  keyboardDp: { portrait: 328, landscape: 423 },
  homeScreenTurns: true,
};

export const PROFILES: Record<VirtualModel, DeviceProfile> = { android: ANDROID_PROFILE, ios: IOS_PROFILE, ipad: IPAD_PROFILE };
