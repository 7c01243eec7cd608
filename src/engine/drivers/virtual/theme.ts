import type { Platform } from './profile.js';
import type { ColorName } from './view.js';

export type Palette = Record<ColorName, string> & { scrim: string; disabled: string; onDisabled: string; selection: string };

const ANDROID_LIGHT: Palette = {
  background: '#FEF7FF', surface: '#F3EDF7', surfaceVariant: '#E7E0EC', onSurface: '#1D1B20', muted: '#625B71',
  primary: '#6750A4', onPrimary: '#FFFFFF', outline: '#79747E', error: '#B3261E', success: '#1B6E3A', liked: '#D81B60',
  image: '#9FA8DA', viewfinder: '#202124', onImage: '#FFFFFF',
  scrim: '#00000066', keyboard: '#E8EAED', key: '#FFFFFF', statusBar: '#FEF7FF', onStatusBar: '#1D1B20',
  toast: '#313033', onToast: '#F4EFF4', disabled: '#E3E0E6', selection: '#CFC2F2', onDisabled: '#9E9AA3',
};

const ANDROID_DARK: Palette = {
  background: '#141218', surface: '#211F26', surfaceVariant: '#49454F', onSurface: '#E6E0E9', muted: '#CAC4D0',
  primary: '#D0BCFF', onPrimary: '#381E72', outline: '#938F99', error: '#F2B8B5', success: '#7DDC9A', liked: '#FF80AB',
  image: '#3F4A7A', viewfinder: '#000000', onImage: '#FFFFFF',
  scrim: '#00000099', keyboard: '#202124', key: '#3C4043', statusBar: '#141218', onStatusBar: '#E6E0E9',
  toast: '#E6E0E9', onToast: '#322F35', disabled: '#2B2930', selection: '#4F378B', onDisabled: '#6F6B75',
};

const IOS_LIGHT: Palette = {
  background: '#F2F2F7', surface: '#FFFFFF', surfaceVariant: '#E5E5EA', onSurface: '#000000', muted: '#8A8A8E',
  primary: '#007AFF', onPrimary: '#FFFFFF', outline: '#C6C6C8', error: '#FF3B30', success: '#34C759', liked: '#FF2D55',
  image: '#A2C4F0', viewfinder: '#1C1C1E', onImage: '#FFFFFF',
  scrim: '#00000055', keyboard: '#D1D4DA', key: '#FFFFFF', statusBar: '#F2F2F7', onStatusBar: '#000000',
  toast: '#1C1C1E', onToast: '#FFFFFF', disabled: '#E5E5EA', selection: '#B3D7FF', onDisabled: '#A1A1A6',
};

const IOS_DARK: Palette = {
  background: '#000000', surface: '#1C1C1E', surfaceVariant: '#2C2C2E', onSurface: '#FFFFFF', muted: '#98989F',
  primary: '#0A84FF', onPrimary: '#FFFFFF', outline: '#38383A', error: '#FF453A', success: '#30D158', liked: '#FF375F',
  image: '#2E4A6E', viewfinder: '#000000', onImage: '#FFFFFF',
  scrim: '#00000099', keyboard: '#2B2B2D', key: '#505052', statusBar: '#000000', onStatusBar: '#FFFFFF',
  toast: '#E5E5EA', onToast: '#000000', disabled: '#2C2C2E', selection: '#0A4A8F', onDisabled: '#5A5A5E',
};

export function paletteFor(platform: Platform, dark: boolean): Palette {
  if (platform === 'android') return dark ? ANDROID_DARK : ANDROID_LIGHT;
  return dark ? IOS_DARK : IOS_LIGHT;
}
