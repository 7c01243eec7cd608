import sharp from 'sharp';
import type { Frame } from './compose.js';
import type { DeviceProfile } from './profile.js';
import { SvgRenderer } from './svg.js';
import { paletteFor } from './theme.js';

export interface RenderedScreen {
  rgba: Buffer;
  png: Buffer;
  width: number;
  height: number;
}

export function frameSvg(frame: Frame, profile: DeviceProfile, dark: boolean): string {
  return new SvgRenderer({
    width: frame.width,
    height: frame.height,
    density: profile.density,
    fontFamily: profile.fontFamily,
    platform: profile.platform,
    palette: paletteFor(profile.platform, dark),
    layers: frame.layers.map((l) => ({ box: l.box, scrim: l.scrim })),
  }).render();
}

/**
 * SVG → raw RGBA once, then PNG from the raw pixels, so the PNG and `screenRgba` carry the same
 * pixels. zlib level 1 without adaptive filtering: screenshots are taken far more often than kept.
 */
export async function renderFrame(frame: Frame, profile: DeviceProfile, dark: boolean): Promise<RenderedScreen> {
  const svg = Buffer.from(frameSvg(frame, profile, dark));
  const { data, info } = await sharp(svg, { density: 72 }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const png = await sharp(data, { raw: { width: info.width, height: info.height, channels: 4 } })
    .png({ compressionLevel: 1, adaptiveFiltering: false })
    .toBuffer();
  return { rgba: data, png, width: info.width, height: info.height };
}
