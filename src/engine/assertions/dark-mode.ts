import { deviceProperties } from '../verbs/device-facts.js';
import { screenshotPng, type VerbContext } from '../verbs/index.js';
import { meanLuminance } from './observe.js';

/** Below this mean luminance a screenshot counts as a dark theme (when the device cannot say). */
const DARK_LUMINANCE = 0.35;

/** dark_mode_enabled: the device's own setting where it reports one, else the screen's brightness. */
export async function darkMode(ctx: VerbContext): Promise<{ dark: boolean; source: string }> {
  const props = await deviceProperties(ctx);
  if (props.darkMode !== undefined) return { dark: props.darkMode, source: 'reported by the device' };
  const lum = await meanLuminance(await screenshotPng(ctx));
  return { dark: lum < DARK_LUMINANCE, source: `screen luminance ${lum.toFixed(2)}` };
}
