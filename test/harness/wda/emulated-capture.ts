import sharp from 'sharp';

/*
 * Screenshots as WebDriverAgent gets them from XCTest and passes them on, emulated from appium/WebDriverAgent:
 *   - FBScreenshot.m takeInOriginalResolutionWithScreenID asks the test daemon (_XCT_requestScreenshot) for the
 *     picture; "iOS always returns screenshots in portrait orientation, but puts the real value into the metadata"
 *     (FBImageProcessor.m submitImageData, PR #812): the pixels are stored as the panel scans them, and the EXIF
 *     orientation says how to turn them upright.
 *   - GET /screenshot (FBScreenshotCommands.m → XCUIDevice+FBHelpers.m fb_screenshotWithError → FBScreenshot.m
 *     takeWithScreenID) always goes through FBImageProcessor.m scaledImageWithData with fixOrientation:YES: the
 *     UIImage is drawn upright into a new PNG, so a landscape screen comes out as a landscape picture
 *     (WebDriverAgentTests XCUIDeviceHelperTests.m testLandscapeScreenshot: width > height).
 *   - The MJPEG server (FBMjpegServer.m streamScreenshot) sends XCTest's JPEG through FBImageProcessor.m
 *     submitImageData → fixedImageDataWithImageData with fixOrientation = the mjpegFixOrientation setting, which
 *     FBConfiguration.m never sets (NO) and resetSessionSettings leaves alone.
 */

/** XCUIApplication.interfaceOrientation of the app in front (UIInterfaceOrientation). */
export type InterfaceOrientation = 'portrait' | 'landscapeLeft' | 'landscapeRight';

/**
 * The UIImageOrientation, as its EXIF value, that turns the stored picture upright. FBImageProcessor.m
 * scaledImageWithData forces the same one for a screenshotOrientation setting: LandscapeLeft → UIImageOrientationRight
 * (EXIF 6), LandscapeRight → UIImageOrientationLeft (EXIF 8), as FBImageUtils.m FBAdjustScreenshotOrientationForApplication
 * did (2017–2021) to XCTest's portrait screenshots.
 */
export const EXIF_ORIENTATION: Record<InterfaceOrientation, number> = { portrait: 1, landscapeLeft: 6, landscapeRight: 8 };
/** Degrees clockwise from the upright picture to the stored one: EXIF 6 is undone by 90° clockwise, 8 by 90° counter-clockwise. */
const STORED_TURN: Record<InterfaceOrientation, number> = { portrait: 0, landscapeLeft: 270, landscapeRight: 90 };

/** FBImageProcessor.m FBMinScalingFactor / FBMaxScalingFactor. */
const MIN_SCALING = 0.01;

export interface MjpegFrameSettings {
  /** mjpegServerScreenshotQuality, 0–100: the quality XCTest encodes the JPEG at. */
  quality: number;
  /** mjpegScalingFactor, percent. */
  scalingFactor: number;
  /** mjpegFixOrientation; undefined: a build before WebDriverAgent 5.15.1 (0b41757c, #812, November 2023), without it. */
  fixOrientation: boolean | undefined;
}

const jpegQuality = (q: number) => Math.min(100, Math.max(1, Math.round(q)));

/** XCTest's JPEG of the screen: portrait-stored pixels and their EXIF orientation (none in portrait). */
async function xctestJpeg(upright: Buffer, width: number, orientation: InterfaceOrientation, quality: number, scale = 1): Promise<Buffer> {
  let image = sharp(upright);
  if (scale < 1) image = image.resize({ width: Math.max(1, Math.round(width * scale)) });
  if (orientation === 'portrait') return image.jpeg({ quality: jpegQuality(quality) }).toBuffer();
  return image.rotate(STORED_TURN[orientation]).jpeg({ quality: jpegQuality(quality) }).withMetadata({ orientation: EXIF_ORIENTATION[orientation] }).toBuffer();
}

/** The upright screen drawn anew, scaled (UIGraphicsImageRenderer in fixedImageDataWithImageData; CGImageSourceCreateThumbnailAtIndex with kCGImageSourceCreateThumbnailWithTransform before #812). */
function drawnUpright(upright: Buffer, width: number, scale: number, quality: number): Promise<Buffer> {
  let image = sharp(upright);
  if (scale < 1) image = image.resize({ width: Math.max(1, Math.round(width * scale)) });
  return image.jpeg({ quality: jpegQuality(quality) }).toBuffer();
}

/**
 * One MJPEG part from the upright screen (`upright` PNG, `width` pixels wide) as the app in front is turned.
 * The case without fixOrientation but with scaling (UIImage prepareThumbnailOfSize, then UIImageJPEGRepresentation)
 * cannot be settled from the source: it is emulated as keeping the portrait storage and its EXIF orientation.
 */
export async function mjpegFrame(upright: Buffer, width: number, orientation: InterfaceOrientation, s: MjpegFrameSettings): Promise<Buffer> {
  const factor = Math.max(MIN_SCALING, Math.min(1, s.scalingFactor / 100));
  if (s.fixOrientation === undefined) {
    // FBMjpegServer.m before #812: scaling took XCTest's JPEG at full quality and made an upright thumbnail of it;
    // without scaling XCTest's JPEG went out as it came.
    if (Math.abs(1 - factor) > Number.EPSILON) return drawnUpright(upright, width, factor, s.quality);
    return xctestJpeg(upright, width, orientation, s.quality);
  }
  const usesScaling = factor < 1;
  // fixedImageDataWithImageData: neither scaling nor fixing, or an already upright picture without scaling: as it came.
  if ((!s.fixOrientation || orientation === 'portrait') && !usesScaling) return xctestJpeg(upright, width, orientation, s.quality);
  // Recompression after processing: MAX(0.9, mjpegServerScreenshotQuality / 100) (submitImageData).
  const recompression = Math.max(90, s.quality);
  if (!s.fixOrientation) return xctestJpeg(upright, width, orientation, recompression, factor);
  // A renderer of the scaled size in points whose format.scale is the factor again: UIKit makes size × scale pixels,
  // so the picture comes out scaled by the factor squared.
  return drawnUpright(upright, width, usesScaling ? factor * factor : 1, recompression);
}
