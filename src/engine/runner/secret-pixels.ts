import sharp from 'sharp';
import type { UiElement } from '../types.js';
import type { SecretMask } from './parameters.js';

/**
 * A secret typed into a field that shows its text (any field but a password field, whose text the
 * phone itself hides) is in a screenshot's pixels, and the run's screenshots go into its report: so
 * before a run with secrets writes one, the box of every element whose text, label or hint holds a
 * secret is painted over. Screenshots and element bounds are both device pixels (SPEC §2).
 */
export async function hideSecretPixels(png: Buffer, elements: readonly UiElement[], mask: SecretMask): Promise<{ png: Buffer; hidden: number }> {
  const shown = elements.filter((e) => [e.text, e.accessibility_label, e.hint].some((t) => typeof t === 'string' && t !== '' && mask.occursIn(t)));
  if (!shown.length) return { png, hidden: 0 };
  const image = sharp(png);
  const { width = 0, height = 0 } = await image.metadata();
  const boxes = shown.flatMap((e) => {
    const left = Math.max(0, Math.floor(e.x));
    const top = Math.max(0, Math.floor(e.y));
    const w = Math.min(width, Math.ceil(e.x + e.width)) - left;
    const h = Math.min(height, Math.ceil(e.y + e.height)) - top;
    if (w <= 0 || h <= 0) return [];
    return [{ input: { create: { width: w, height: h, channels: 3 as const, background: { r: 0, g: 0, b: 0 } } }, left, top }];
  });
  return { png: await image.composite(boxes).png().toBuffer(), hidden: boxes.length };
}
